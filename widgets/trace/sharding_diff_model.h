// What-if: the values whose final sharding differs between two runs of the
// same module (e.g. two strategies), as a table: value, line, sharding in
// run A, sharding in run B.
#pragma once
#include <QAbstractTableModel>
#include <memory>
#include <optional>
#include <vector>

#include "propagation_runner.h"

namespace shardscope::widgets::trace {

struct ShardingChange {
  propagation::TraceValueRef value;
  QString name;  // "%3"
  int line = 0;
  std::optional<TensorSharding> left, right;
};

// Values whose sharding after all steps differs between `a` and `b`
// (runs of the same module text; empty when the texts differ or a run has
// no module), in pre-order.
std::vector<ShardingChange> diffRuns(const TraceRun& a, const TraceRun& b);

class ShardingDiffModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Columns { ValueColumn, LineColumn, LeftColumn, RightColumn, NumColumns };
  enum Roles {
    LineRole = Qt::UserRole,  // int
    OpIndexRole,              // int: pre-order index of the value's op
  };
  explicit ShardingDiffModel(QObject* parent = nullptr);
  // Model reset; either may be null (then the model is empty).
  void setRuns(std::shared_ptr<const TraceRun> a, std::shared_ptr<const TraceRun> b);
  const std::vector<ShardingChange>& changes() const { return changes_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::shared_ptr<const TraceRun> a_, b_;
  std::vector<ShardingChange> changes_;
};

}  // namespace shardscope::widgets::trace
