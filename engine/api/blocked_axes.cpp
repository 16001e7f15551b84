#include "api/blocked_axes.h"

#include "explain/blocked_axes.h"

namespace shardscope::api {

BlockedAxesReport blockedAxes(const explain::TraceIndex& index,
                              const propagation::TraceValueRef& value, int64_t dim, size_t steps) {
  explain::TensorRef tensor;
  if (value.kind == "func_result") {
    if (value.op >= 0 && static_cast<size_t>(value.op) < index.ops().size())
      tensor = explain::TensorRef::funcResult(index.ops()[static_cast<size_t>(value.op)],
                                              static_cast<unsigned>(value.index));
  } else {
    tensor = explain::TensorRef::of(index.value(value));
  }
  BlockedAxesReport report;
  report.value = index.valueName(value);
  report.dim = dim;
  if (!tensor.valid()) return report;
  const explain::DimensionBlocks blocks =
      explain::explainBlockedAxes(explain::traceShardingState(index, steps), tensor, dim);
  report.size = blocks.size;
  if (blocks.sharding) report.sharding = blocks.sharding->str();
  for (const explain::AxisBlock& b : blocks.axes) {
    BlockedAxisEntry e;
    e.axis = b.axis.str();
    e.reason = explain::blockReasonName(b.reason);
    e.text = b.text;
    e.op = b.op;
    e.line = b.line;
    e.factor = b.factor;
    e.source = b.source;
    e.sourceAxes = b.sourceAxes;
    e.blocker = b.blocker;
    e.blockerAxes = b.blockerAxes;
    e.otherDim = b.otherDim;
    e.factorSize = b.factorSize;
    e.shardedBefore = b.shardedBefore;
    e.axisSize = b.axisSize;
    e.sourcePriority = b.sourcePriority;
    e.blockerPriority = b.blockerPriority;
    report.axes.push_back(std::move(e));
  }
  return report;
}

}  // namespace shardscope::api
