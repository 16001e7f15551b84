// The part of MLIR's `-canonicalize` the propagation pipeline relies on:
// erase ops that have no side effects and whose results are all unused
// (e.g. an `sdy.reshard` left dangling by a dropped sharding constraint),
// repeatedly, so chains of dead ops go too. No patterns or folding.
#include <set>

#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {

// Ops known to be free of side effects.
bool isSideEffectFree(const ir::Op& op) {
  static const std::set<std::string> kPure = {
      "sdy.reshard", "sdy.constant", "stablehlo.constant", "stablehlo.iota",
      "stablehlo.broadcast_in_dim", "stablehlo.reshape", "stablehlo.slice", "stablehlo.transpose",
      "stablehlo.dot", "stablehlo.dot_general", "stablehlo.concatenate", "stablehlo.pad",
      "stablehlo.reverse", "stablehlo.dynamic_slice", "stablehlo.get_tuple_element", "stablehlo.tuple"};
  if (kPure.count(op.name())) return true;
  return op.name().rfind("stablehlo.", 0) == 0 && util::isElementwise(op) && util::isPure(op);
}

bool isTriviallyDead(const ir::Op& op) {
  if (op.numResults() == 0 || op.numRegions() != 0 || !isSideEffectFree(op)) return false;
  for (ir::Value* r : op.resultRange())
    if (!r->useEmpty()) return false;
  return true;
}

}  // namespace

bool eraseTriviallyDeadOps(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  bool changed = true;
  while (changed) {
    changed = false;
    std::vector<ir::Op*> dead;
    module.op->walk([&](ir::Op& op) {
      if (isTriviallyDead(op)) dead.push_back(&op);
    });
    // Users come after their operands' definitions; erase back to front.
    for (auto it = dead.rbegin(); it != dead.rend(); ++it) {
      if (!isTriviallyDead(**it)) continue;
      util::eraseOp(*it);
      changed = true;
    }
  }
  return true;
}

}  // namespace shardscope::passes
