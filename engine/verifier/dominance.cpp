// SSA dominance inside a function (see dominance.h).
#include "verifier/dominance.h"

#include <unordered_map>

namespace shardscope::verifier {

std::optional<DominanceError> firstNonDominatingUse(const ir::Op& root) {
  // Position of every nested op in its block.
  std::unordered_map<const ir::Op*, size_t> position;
  ir::Op& mutableRoot = const_cast<ir::Op&>(root);  // walks take non-const ops; nothing changes
  mutableRoot.walkPreOrder([&](ir::Op& op) {
    for (const auto& region : op.regions())
      for (const auto& block : region->blocks()) {
        size_t i = 0;
        for (const auto& inner : block->ops()) position[inner.get()] = i++;
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
      if (!holder || (holder != def && position[holder] > position[def])) continue;
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
