// SSA dominance inside a function (see dominance.h).
#include "verifier/dominance.h"

namespace shardscope::verifier {

std::optional<DominanceError> firstNonDominatingUse(const ir::Op& root) {
  // 1 + the position of every nested op in its block, kept on the ops (a
  // hash map of a million ops cost more than the rest of the check). Ops
  // outside `root` read 0, and ops compared here share a block, so either
  // both are numbered or neither is.
  ir::OpTags position;
  ir::Op& mutableRoot = const_cast<ir::Op&>(root);  // walks take non-const ops; nothing changes
  mutableRoot.walkPreOrder([&](ir::Op& op) {
    for (const auto& region : op.regions())
      for (const auto& block : region->blocks()) {
        uint32_t i = 0;
        for (const auto& inner : block->ops()) position.set(*inner, ++i);
      }
    return true;
  });
  std::optional<DominanceError> found;
  mutableRoot.walkPreOrder([&](ir::Op& use) {
    if (found) return false;
    if (&use == &root) return true;
    for (unsigned n = 0; n < use.numOperands(); ++n) {
      const ir::Value* v = use.operand(n);
      const ir::Op* def = v ? v->definingOp : nullptr;
      if (!def || !def->parentBlock()) continue;
      // The op holding the use (the use itself, or an op it is nested in)
      // that sits in the defining op's block.
      const ir::Op* holder = &use;
      while (holder && holder->parentBlock() != def->parentBlock()) holder = holder->parentOp();
      // Fine when defined before the holder; not when the holder is the
      // defining op (an op using its own result, in itself or its regions).
      if (!holder || (holder != def && position.get(*holder) > position.get(*def))) continue;
      const bool sameBlock = use.parentBlock() == def->parentBlock();
      found = DominanceError{&use, "operand #" + std::to_string(n) + " does not dominate this use",
                             VerifyNote{def->loc(), std::string("operand defined here (op in ") +
                                                        (sameBlock ? "the same block)" : "a parent region)")}};
      return false;
    }
    return true;
  });
  return found;
}

}  // namespace shardscope::verifier
