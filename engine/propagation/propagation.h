// Entry points of the propagation engine, callable from C++ (the passes and
// the lead's `-sdy-propagation-pipeline` use these).
//
//   PropagationOptions o;
//   o.level = PropagationLevel::UserPriority;
//   o.keepShardingRules = true;
//   PropagationTrace trace;
//   propagate(module, o, diags, &trace);
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>

#include "ir/diagnostics.h"
#include "ir/operation.h"
#include "propagation/propagation_options.h"
#include "propagation/propagation_trace.h"

namespace shardscope::propagation {

// How a caller that runs propagation off the UI thread watches and stops it.
struct PropagationControl {
  // Polled at every (op, factor) decision; may be null. Once set, every
  // factor gets direction NONE: nothing changes any more, the worklists
  // drain and the run ends quickly without leaving an op half-updated.
  const std::atomic<bool>* cancel = nullptr;
  // Called on the running thread after each recorded step with the number
  // of steps so far. Keep it cheap (throttle on the receiving side).
  std::function<void(int64_t steps)> onStep;
};

enum class PropagationStatus { Ok, Invalid, Cancelled };

// Propagate shardings through `module` at `options.level`. Invalid: the
// module was rejected (diagnostics say why); Cancelled: `control.cancel` was
// set and held back some decision (the trace holds the steps done before).
// A request that comes after the last decision cancels nothing: Ok. When
// `trace` is given, every step is recorded in it.
PropagationStatus propagate(ir::Module& module, const PropagationOptions& options, ir::DiagnosticSink& diags,
                            PropagationTrace* trace, const PropagationControl& control);

// The same without control; false (with diagnostics) on invalid input.
bool propagate(ir::Module& module, const PropagationOptions& options, ir::DiagnosticSink& diags,
               PropagationTrace* trace = nullptr);

// Shorthands for the four passes.
bool basicPropagate(ir::Module& m, PropagationOptions o, ir::DiagnosticSink& d, PropagationTrace* t = nullptr);
bool aggressivePropagate(ir::Module& m, PropagationOptions o, ir::DiagnosticSink& d, PropagationTrace* t = nullptr);
bool opPriorityPropagate(ir::Module& m, PropagationOptions o, ir::DiagnosticSink& d, PropagationTrace* t = nullptr);
bool userPriorityPropagate(ir::Module& m, PropagationOptions o, ir::DiagnosticSink& d, PropagationTrace* t = nullptr);

}  // namespace shardscope::propagation
