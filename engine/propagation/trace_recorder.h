// Fills a PropagationTrace from the driver's step events: factor tables
// before/after, axis moves (the first operand, then result, that already
// held the new axes is the source), unresolved conflicts and value updates.
#pragma once
#include "propagation/propagation_driver.h"
#include "propagation/propagation_trace.h"

namespace shardscope::propagation {

// An observer appending one TraceStep per event to `trace`.
StepObserver makeTraceRecorder(PropagationDriver& driver, PropagationTrace& trace);

// The moves of one step: for each tensor and factor whose axes grew, each
// new axis with the tensor it came from.
std::vector<TraceAxisMove> axisMoves(const ShardingProjection& before, const ShardingProjection& after);

// The factors on which the tensors of `after` still disagree, with why.
std::vector<TraceConflict> unresolvedConflicts(const ShardingProjection& after, const OpShardingRule& rule,
                                               const std::vector<PropagationDirection>& directions);

}  // namespace shardscope::propagation
