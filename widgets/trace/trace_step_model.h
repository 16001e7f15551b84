// The steps of a propagation trace as a list: step, user-priority round,
// op-priority stage, op, source line and a one-line summary of what moved.
#pragma once
#include <QAbstractTableModel>
#include <QStringList>
#include <memory>

#include "propagation_runner.h"

namespace shardscope::widgets::trace {

class TraceStepModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Columns { StepColumn, RoundColumn, StageColumn, OpColumn, LineColumn, SummaryColumn, NumColumns };
  enum Roles {
    StepRole = Qt::UserRole,  // int: step number
    UserPriorityRole,         // int: -1 when none
    OpPriorityRole,           // int: -1 when none
    OpIndexRole,              // int: pre-order op index
    LineRole,                 // int: 1-based line (0 unknown)
    ConflictRole,             // bool: the step left conflicts
    NarrationRole,            // QString: the full narration (explain::narration)
  };

  explicit TraceStepModel(QObject* parent = nullptr);
  // Model reset with a run (nullptr clears).
  void setRun(std::shared_ptr<const TraceRun> run);
  const std::shared_ptr<const TraceRun>& run() const { return run_; }

  // `"a" %arg0→%0; "b" conflict` — one line per step.
  static QString summary(const propagation::TraceStep& step);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::shared_ptr<const TraceRun> run_;
  QStringList summaries_;
};

}  // namespace shardscope::widgets::trace
