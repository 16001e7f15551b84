// Side-by-side strategy comparison: run the same module with two
// strategies (off the UI thread) and list the values whose final sharding
// differs.
#pragma once
#include <QFutureWatcher>
#include <QWidget>
#include <memory>

#include "api/communication_diff.h"

#include "propagation_runner.h"

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace shardscope::widgets::comm {
class CommunicationChangeView;
}

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
  // The change in collectives from strategy A to B (filled after `compared`,
  // when `communicationCompared` is emitted).
  comm::CommunicationChangeView* communicationView() const { return comm_; }
  // Both runs of the last comparison arrived (its result is shown).
  bool hasResult() const { return resultA_ && resultB_; }
  // Why the last comparison has no result to show (a run failed: its first
  // error), or "" when both runs succeeded or none finished yet.
  QString failure() const;
  // The line beside the strategies ("3 value(s) differ", "running…").
  QString statusText() const;
  // The file compared (as setModuleText named it).
  QString fileName() const { return fileName_; }

 public slots:
  void compare();

 signals:
  // Both runs arrived and the model was updated.
  void compared(int changes);
  // The communication of both results was analysed and shown.
  void communicationCompared();
  // A row was activated: the value's op pre-order index and line.
  void valueActivated(int opIndex, int line);

 private:
  void maybeFinish();
  // Analyse the collectives both results need (off the UI thread).
  void compareCommunication();

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
  comm::CommunicationChangeView* comm_;
  QFutureWatcher<api::CommunicationDiff> commWatcher_;
  quint64 commRequest_ = 0;
};

}  // namespace shardscope::widgets::trace
