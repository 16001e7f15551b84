// The part of MLIR's `-canonicalize` the propagation pipeline relies on:
// erase ops that have no side effects and whose results are all unused
// (e.g. an `sdy.reshard` left dangling by a dropped sharding constraint),
// repeatedly, so chains of dead ops go too. No patterns or folding.
#include <set>
#include <unordered_set>

#include "passes/dead_ops.h"
#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {

// Ops known to be free of side effects.
bool isSideEffectFree(const ir::Op& op) {
  static const std::set<std::string> kPure = {
      "sdy.reshard", "sdy.constant", "sdy.propagation_barrier", "stablehlo.constant", "stablehlo.iota",
      "stablehlo.broadcast_in_dim", "stablehlo.reshape", "stablehlo.slice", "stablehlo.transpose",
      "stablehlo.dot", "stablehlo.dot_general", "stablehlo.concatenate", "stablehlo.pad",
      "stablehlo.reverse", "stablehlo.dynamic_slice", "stablehlo.get_tuple_element", "stablehlo.tuple"};
  if (kPure.count(op.name())) return true;
  return op.name().rfind("stablehlo.", 0) == 0 && util::isElementwise(op) && util::isPure(op);
}

}  // namespace

bool isTriviallyDead(const ir::Op& op) {
  if (op.numResults() == 0 || op.numRegions() != 0 || !isSideEffectFree(op)) return false;
  for (ir::Value* r : op.resultRange())
    if (!r->useEmpty()) return false;
  return true;
}

bool eraseTriviallyDeadOps(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  // One walk for the candidates, then a worklist: erasing an op can only
  // make the producers of its operands dead, so only those are looked at
  // again (a second walk over a large module would find little else).
  std::vector<ir::Op*> worklist;
  module.op->walk([&](ir::Op& op) {
    if (isTriviallyDead(op)) worklist.push_back(&op);
  });
  // Users come after their operands' definitions: erase back to front, and
  // the producers freed by an erase are pushed behind (so next).
  std::unordered_set<ir::Op*> erased;
  while (!worklist.empty()) {
    ir::Op* op = worklist.back();
    worklist.pop_back();
    if (erased.count(op) || !isTriviallyDead(*op)) continue;
    std::vector<ir::Op*> producers;
    for (ir::Value* v : op->operands())
      if (v && v->definingOp && v->definingOp != op) producers.push_back(v->definingOp);
    erased.insert(op);
    util::eraseOp(op);
    for (ir::Op* p : producers)
      if (!erased.count(p) && isTriviallyDead(*p)) worklist.push_back(p);
  }
  return true;
}

}  // namespace shardscope::passes
