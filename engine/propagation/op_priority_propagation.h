// Op-priority propagation: five aggressive runs that open up more and more
// ops and factors, so that shardings first flow through "pass-through" ops
// (whose shardings are cheap to copy) before other ops can claim them.
//
// At stage p an (op, factor) may propagate in the union of the directions
// the stages 0..p give it (intersected with any outer restriction):
//   0: pass-through ops (elementwise, reshape, transpose, data-flow edges,
//      MoveToDevice/MoveToHost custom calls): BOTH when every non-scalar
//      operand has a single use, else NONE; dynamic_slice and
//      dynamic_update_slice the same capped at FORWARD; other ops NONE;
//   1: as 0 without the single-use condition;
//   2: factors that are not pass-through NONE; broadcast_in_dim BACKWARD;
//      everything else BOTH;
//   3: broadcast_in_dim BACKWARD, everything else BOTH;
//   4: BOTH.
#pragma once
#include "propagation/propagation_driver.h"

namespace shardscope::propagation {

inline constexpr int kNumOpPriorityStages = 5;

// The direction of `factor` of `op` allowed by stage `stage` alone.
PropagationDirection opPriorityStageDirection(int stage, const ir::Op& op, int64_t factor,
                                              const OpShardingRule* rule);

// The direction at stage `stage`: union of stages 0..stage, intersected with `outer`.
GetDirectionFn opPriorityDirection(int stage, GetDirectionFn outer);

// Run the strategies of `options.strategy` with `direction` (one full fixed
// point each), as `-sdy-aggressive-propagate` does.
bool runAggressive(PropagationDriver& driver, const GetDirectionFn& direction, RunLabel label);

// The op-priority stages (or a single aggressive run when
// `options.runOpPriorityPropagation` is false).
bool runOpPriority(PropagationDriver& driver, const GetDirectionFn& direction, RunLabel label);

}  // namespace shardscope::propagation
