// Entry points of the propagation engine, callable from C++ (the passes and
// the lead's `-sdy-propagation-pipeline` use these).
//
//   PropagationOptions o;
//   o.level = PropagationLevel::UserPriority;
//   o.keepShardingRules = true;
//   PropagationTrace trace;
//   propagate(module, o, diags, &trace);
#pragma once
#include "ir/diagnostics.h"
#include "ir/operation.h"
#include "propagation/propagation_options.h"
#include "propagation/propagation_trace.h"

namespace shardscope::propagation {

// Propagate shardings through `module` at `options.level`. Returns false
// (with diagnostics) on invalid input. When `trace` is given, every step is
// recorded in it.
bool propagate(ir::Module& module, const PropagationOptions& options, ir::DiagnosticSink& diags,
               PropagationTrace* trace = nullptr);

// Shorthands for the four passes.
bool basicPropagate(ir::Module& m, PropagationOptions o, ir::DiagnosticSink& d, PropagationTrace* t = nullptr);
bool aggressivePropagate(ir::Module& m, PropagationOptions o, ir::DiagnosticSink& d, PropagationTrace* t = nullptr);
bool opPriorityPropagate(ir::Module& m, PropagationOptions o, ir::DiagnosticSink& d, PropagationTrace* t = nullptr);
bool userPriorityPropagate(ir::Module& m, PropagationOptions o, ir::DiagnosticSink& d, PropagationTrace* t = nullptr);

}  // namespace shardscope::propagation
