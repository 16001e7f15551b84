#include "sharding_diff_model.h"

#include <set>

#include "explain/narration.h"
#include "explain/sharding_origin.h"
#include "explain/trace_index.h"

namespace shardscope::widgets::trace {

std::vector<ShardingChange> diffRuns(const TraceRun& a, const TraceRun& b) {
  std::vector<ShardingChange> out;
  if (!a.index || !b.index || a.inputText != b.inputText) return out;
  std::set<propagation::TraceValueRef, explain::TraceValueRefLess> seen;
  std::vector<propagation::TraceValueRef> refs;
  for (const auto* run : {&a, &b})
    for (const auto& r : run->index->shardedValues())
      if (seen.insert(r).second) refs.push_back(r);
  std::sort(refs.begin(), refs.end(), [](const auto& x, const auto& y) {
    // Values in pre-order, function results after the function's body.
    const bool xr = x.kind == "func_result", yr = y.kind == "func_result";
    if (xr != yr) return yr;
    if (x.op != y.op) return x.op < y.op;
    return explain::TraceValueRefLess{}(x, y);
  });
  // User-priority propagation drops the `p<N>` of every sharding when it
  // ends, basic propagation keeps them: a difference in priorities alone says
  // nothing about how the tensor is sharded, so it is not a change.
  auto withoutPriorities = [](std::optional<TensorSharding> s) {
    if (s)
      for (auto& d : s->dims) d.priority.reset();
    return s;
  };
  for (const auto& r : refs) {
    auto l = a.index->shardingAfter(r, explain::kAllSteps);
    auto rr = b.index->shardingAfter(r, explain::kAllSteps);
    if (withoutPriorities(l) == withoutPriorities(rr)) continue;
    ShardingChange c;
    c.value = r;
    c.name = QString::fromStdString(a.index->valueName(r));
    if (r.op >= 0 && static_cast<size_t>(r.op) < a.index->ops().size())
      c.line = static_cast<int>(a.index->ops()[static_cast<size_t>(r.op)]->loc().line);
    c.left = std::move(l);
    c.right = std::move(rr);
    out.push_back(std::move(c));
  }
  return out;
}

ShardingDiffModel::ShardingDiffModel(QObject* parent) : QAbstractTableModel(parent) {}

void ShardingDiffModel::setRuns(std::shared_ptr<const TraceRun> a, std::shared_ptr<const TraceRun> b) {
  beginResetModel();
  a_ = std::move(a);
  b_ = std::move(b);
  changes_.clear();
  if (a_ && b_) changes_ = diffRuns(*a_, *b_);
  endResetModel();
}

int ShardingDiffModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(changes_.size());
}
int ShardingDiffModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : NumColumns; }

QVariant ShardingDiffModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const ShardingChange& c = changes_[static_cast<size_t>(index.row())];
  auto text = [](const std::optional<TensorSharding>& s) {
    return s ? QString::fromStdString(explain::shardingDimsText(*s)) : QStringLiteral("(none)");
  };
  switch (role) {
    case LineRole: return c.line;
    case OpIndexRole: return static_cast<int>(c.value.op);
    case Qt::DisplayRole:
      switch (index.column()) {
        case ValueColumn: return c.name;
        case LineColumn: return c.line ? QVariant(c.line) : QVariant();
        case LeftColumn: return text(c.left);
        case RightColumn: return text(c.right);
      }
      return {};
  }
  return {};
}

QVariant ShardingDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case ValueColumn: return tr("Value");
    case LineColumn: return tr("Line");
    case LeftColumn: return a_ ? strategyName(a_->strategy()) : tr("A");
    case RightColumn: return b_ ? strategyName(b_->strategy()) : tr("B");
  }
  return {};
}

}  // namespace shardscope::widgets::trace
