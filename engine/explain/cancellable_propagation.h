// Propagation that can be cancelled and reports progress, for running it
// off the UI thread. The same composition as `propagation::propagate`
// (driver, debug info, trace recorder, then the level's strategy), with
// every direction wrapped so that once `cancel` is set each factor gets
// direction NONE: nothing changes any more, the worklists drain and the run
// ends quickly without leaving the module half-written inside an op.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>

#include "ir/diagnostics.h"
#include "ir/operation.h"
#include "propagation/propagation_options.h"
#include "propagation/propagation_trace.h"

namespace shardscope::explain {

enum class RunStatus { Ok, Invalid, Cancelled };

struct RunControl {
  // Polled at every (op, factor) decision; may be null.
  const std::atomic<bool>* cancel = nullptr;
  // Called on the running thread after each recorded step with the number
  // of steps so far. Keep it cheap (throttle on the receiving side).
  std::function<void(int64_t steps)> onStep;
};

// Propagate `module` as `propagation::propagate` does, observing `control`.
// Invalid: the module was rejected (diagnostics say why); Cancelled: the
// run stopped early (the trace holds the steps done before).
RunStatus propagateCancellable(ir::Module& module, const propagation::PropagationOptions& options,
                               ir::DiagnosticSink& diags, propagation::PropagationTrace* trace,
                               const RunControl& control = {});

}  // namespace shardscope::explain
