// Options of every propagation pass, in one struct.
#pragma once
#include <functional>
#include <cstdint>

namespace shardscope::propagation {

// Which factor propagation strategies a run uses, in order.
enum class PropagationStrategy { Basic, Aggressive, BasicThenAggressive };

// How much of the strategy hierarchy to run:
//   Basic: one basic fixed point;
//   Aggressive: `strategy` (each a full fixed point);
//   OpPriority: five op-priority stages, each an aggressive run;
//   UserPriority: one op-priority run per user priority;
//   Pipeline: UserPriority inside the import and export passes of
//     `-sdy-propagation-pipeline`. Those passes are run by their callers
//     (passes/propagation_pipeline.h, api/propagate.h); propagate() itself
//     runs this level as UserPriority.
enum class PropagationLevel { Basic, Aggressive, OpPriority, UserPriority, Pipeline };

struct PropagationOptions {
  PropagationLevel level = PropagationLevel::Basic;
  PropagationStrategy strategy = PropagationStrategy::Aggressive;
  // Do not split axes into sub-axes; rules block size-changing factors.
  bool conservativePropagation = false;
  // Keep the `sdy.sharding_rule` the registry created on each op.
  bool keepShardingRules = false;
  // Record where each axis came from (`sdy.sharding_origins`).
  bool debugShardingOrigins = false;
  // Record which step moved which axis between which tensors (`sdy.propagation_edges`).
  bool debugPropagationEdgeSharding = false;
  // With level OpPriority/UserPriority: run the op-priority stages (else a
  // single aggressive run, as `run-op-priority-propagation=false`).
  bool runOpPriorityPropagation = true;
  // Iteration guard: the most op visits (worklist pops) one fixed point may
  // take before it stops with a warning (0: 100000 + 1024 per op, far above
  // what a terminating run needs; see propagation_driver.cpp).
  int64_t maxStepsPerRun = 0;
  // User-priority propagation calls this before each priority after the
  // first, with the priority just finished (for module dumps).
  std::function<void(int64_t finishedPriority)> beforeNextPriority;
};

}  // namespace shardscope::propagation
