// Side-by-side strategy comparison: run the same module with two
// strategies (off the UI thread) and list the values whose final sharding
// differs.
#pragma once
#include <QWidget>
#include <memory>

#include "propagation_runner.h"

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace shardscope::widgets::trace {

class ShardingDiffModel;

class StrategyCompareWidget : public QWidget {
  Q_OBJECT
 public:
  explicit StrategyCompareWidget(QWidget* parent = nullptr);
  void setModuleText(const QString& text, const QString& fileName);
  void setStrategies(Strategy a, Strategy b);
  ShardingDiffModel* model() const { return model_; }
  PropagationRunner* runnerA() const { return runnerA_; }
  PropagationRunner* runnerB() const { return runnerB_; }

 public slots:
  void compare();

 signals:
  // Both runs arrived and the model was updated.
  void compared(int changes);
  // A row was activated: the value's op pre-order index and line.
  void valueActivated(int opIndex, int line);

 private:
  void maybeFinish();

  QString text_, fileName_;
  QComboBox* a_;
  QComboBox* b_;
  QPushButton* run_;
  QLabel* status_;
  QTableView* table_;
  ShardingDiffModel* model_;
  PropagationRunner* runnerA_;
  PropagationRunner* runnerB_;
  std::shared_ptr<const TraceRun> resultA_, resultB_;
};

}  // namespace shardscope::widgets::trace
