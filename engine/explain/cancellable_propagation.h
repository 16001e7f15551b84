// Propagation that can be cancelled and reports progress, for running it
// off the UI thread: the engine's `propagation::propagate` with a
// `PropagationControl`, under the names the views use.
#pragma once
#include "propagation/propagation.h"

namespace shardscope::explain {

using RunStatus = propagation::PropagationStatus;
using RunControl = propagation::PropagationControl;

// Propagate `module` as `propagation::propagate` does, observing `control`.
// Invalid: the module was rejected (diagnostics say why); Cancelled: the
// run stopped early (the trace holds the steps done before).
inline RunStatus propagateCancellable(ir::Module& module, const propagation::PropagationOptions& options,
                                      ir::DiagnosticSink& diags, propagation::PropagationTrace* trace,
                                      const RunControl& control = {}) {
  return propagation::propagate(module, options, diags, trace, control);
}

}  // namespace shardscope::explain
