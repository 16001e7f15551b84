// Propagation entry points (see propagation.h).
#include "propagation/propagation.h"

#include <memory>

#include "propagation/basic_factor_propagation.h"
#include "propagation/op_priority_propagation.h"
#include "propagation/propagation_driver.h"
#include "propagation/sharding_debug_info.h"
#include "propagation/trace_recorder.h"
#include "propagation/user_priority_propagation.h"

namespace shardscope::propagation {

PropagationStatus propagate(ir::Module& module, const PropagationOptions& options, ir::DiagnosticSink& diags,
                            PropagationTrace* trace, const PropagationControl& control) {
  PropagationDriver driver(module, options, diags);
  ShardingDebugInfo debug(module, options.debugShardingOrigins, options.debugPropagationEdgeSharding);
  if (!driver.prepare()) return PropagationStatus::Invalid;
  debug.prepare();
  if (debug.enabled()) driver.addObserver([&debug](const StepEvent& e) { debug.onStep(e); });
  std::unique_ptr<TraceNormalizer> normalizer;
  if (trace) {
    driver.addObserver(makeTraceRecorder(driver, *trace));
    normalizer = std::make_unique<TraceNormalizer>(driver);
    driver.addObserver(normalizer->observer());
  }
  if (control.onStep) {
    int64_t steps = 0;
    driver.addObserver([&control, steps](const StepEvent&) mutable { control.onStep(++steps); });
  }
  static const BasicFactorPropagation basic;
  const std::atomic<bool>* cancel = control.cancel;
  GetDirectionFn any = propagateAny;
  // Whether the request held back some step. A request that arrives after
  // the last step cancels nothing: that run is complete, and says so.
  bool stoppedEarly = false;
  if (cancel) {
    any = [cancel, &stoppedEarly](const ir::Op& op, int64_t f, const OpShardingRule* rule) {
      if (cancel->load(std::memory_order_relaxed)) {
        stoppedEarly = true;
        return PropagationDirection::None;
      }
      return propagateAny(op, f, rule);
    };
  }
  bool converged = true;
  switch (options.level) {
    case PropagationLevel::Basic: converged = driver.run(basic, any); break;
    case PropagationLevel::Aggressive: converged = runAggressive(driver, any, {}); break;
    case PropagationLevel::OpPriority: converged = runOpPriority(driver, any, {}); break;
    case PropagationLevel::UserPriority:
    case PropagationLevel::Pipeline:
      converged = runUserPriority(driver, any);
      break;
  }
  const bool cancelled = stoppedEarly;
  // Also after Cancel: replaying the partial trace then gives exactly the
  // partially propagated module the run leaves behind.
  if (normalizer) normalizer->finish(*trace);
  if (!converged && trace) trace->notes.push_back("the iteration guard stopped a fixed point early");
  if (cancelled && trace) trace->notes.push_back("cancelled");
  driver.finish();
  debug.save();
  return cancelled ? PropagationStatus::Cancelled : PropagationStatus::Ok;
}

bool propagate(ir::Module& module, const PropagationOptions& options, ir::DiagnosticSink& diags,
               PropagationTrace* trace) {
  return propagate(module, options, diags, trace, PropagationControl{}) != PropagationStatus::Invalid;
}

bool basicPropagate(ir::Module& m, PropagationOptions o, ir::DiagnosticSink& d, PropagationTrace* t) {
  o.level = PropagationLevel::Basic;
  return propagate(m, o, d, t);
}
bool aggressivePropagate(ir::Module& m, PropagationOptions o, ir::DiagnosticSink& d, PropagationTrace* t) {
  o.level = PropagationLevel::Aggressive;
  return propagate(m, o, d, t);
}
bool opPriorityPropagate(ir::Module& m, PropagationOptions o, ir::DiagnosticSink& d, PropagationTrace* t) {
  o.level = PropagationLevel::OpPriority;
  return propagate(m, o, d, t);
}
bool userPriorityPropagate(ir::Module& m, PropagationOptions o, ir::DiagnosticSink& d, PropagationTrace* t) {
  o.level = PropagationLevel::UserPriority;
  return propagate(m, o, d, t);
}

}  // namespace shardscope::propagation
