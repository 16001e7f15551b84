// The steps of a propagation trace as a table: step, round, op, source line,
// the axes that moved and the values that changed.
#pragma once
#include <QAbstractTableModel>
#include <QStringList>
#include <memory>

#include "api/propagate.h"

namespace shardscope::widgets {

class PropagationStepModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Columns {
    StepColumn,
    RoundColumn,
    OpColumn,
    LineColumn,
    MovesColumn,
    UpdatesColumn,
    NumColumns
  };
  enum Roles {
    StepRole = Qt::UserRole,  // int, 0-based step number
    LineRole,                 // int, 1-based source line (0 unknown)
    OpIndexRole,              // int, pre-order op index in the module
  };

  explicit PropagationStepModel(QObject* parent = nullptr);
  // Model reset with a new run (nullptr clears).
  void setRun(std::shared_ptr<const api::PropagationRun> run);
  const std::shared_ptr<const api::PropagationRun>& run() const { return run_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  // "\"x\" %arg0 → %0" for each move of `step`.
  static QString movesText(const propagation::TraceStep& step);
  // "%0 ← [{"x"}, {}]" for each update (names resolved in the module whose
  // pre-order ops are `ops`, if given).
  static QString updatesText(const propagation::TraceStep& step, const std::vector<ir::Op*>* ops);

 private:
  std::shared_ptr<const api::PropagationRun> run_;
  QStringList updates_;
};

}  // namespace shardscope::widgets
