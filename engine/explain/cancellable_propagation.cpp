// Cancellable propagation (see cancellable_propagation.h).
#include "explain/cancellable_propagation.h"

#include "propagation/basic_factor_propagation.h"
#include "propagation/op_priority_propagation.h"
#include "propagation/propagation_driver.h"
#include "propagation/sharding_debug_info.h"
#include "propagation/trace_recorder.h"
#include "propagation/user_priority_propagation.h"

namespace shardscope::explain {

using namespace shardscope::propagation;

RunStatus propagateCancellable(ir::Module& module, const PropagationOptions& options, ir::DiagnosticSink& diags,
                               PropagationTrace* trace, const RunControl& control) {
  PropagationDriver driver(module, options, diags);
  ShardingDebugInfo debug(module, options.debugShardingOrigins, options.debugPropagationEdgeSharding);
  if (!driver.prepare()) return RunStatus::Invalid;
  debug.prepare();
  if (debug.enabled()) driver.addObserver([&debug](const StepEvent& e) { debug.onStep(e); });
  if (trace) driver.addObserver(makeTraceRecorder(driver, *trace));
  if (control.onStep) {
    int64_t steps = 0;
    driver.addObserver([&control, steps](const StepEvent&) mutable { control.onStep(++steps); });
  }
  static const BasicFactorPropagation basic;
  const std::atomic<bool>* cancel = control.cancel;
  GetDirectionFn dir = [cancel](const ir::Op& op, int64_t f, const OpShardingRule* rule) {
    if (cancel && cancel->load(std::memory_order_relaxed)) return PropagationDirection::None;
    return propagateAny(op, f, rule);
  };
  bool converged = true;
  switch (options.level) {
    case PropagationLevel::Basic: converged = driver.run(basic, dir); break;
    case PropagationLevel::Aggressive: converged = runAggressive(driver, dir, {}); break;
    case PropagationLevel::OpPriority: converged = runOpPriority(driver, dir, {}); break;
    case PropagationLevel::UserPriority: converged = runUserPriority(driver, dir); break;
  }
  const bool cancelled = cancel && cancel->load();
  if (!converged && trace) trace->notes.push_back("the iteration guard stopped a fixed point early");
  if (cancelled && trace) trace->notes.push_back("cancelled");
  driver.finish();
  debug.save();
  return cancelled ? RunStatus::Cancelled : RunStatus::Ok;
}

}  // namespace shardscope::explain
