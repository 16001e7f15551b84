// Constants as the greedy rewrite driver treats them (see constant_uniquing.h).
#include "passes/constant_uniquing.h"

namespace shardscope::passes {

namespace {

bool isIsolatedRegionOwner(const ir::Op& op) {
  return op.is("func.func") || op.is("sdy.manual_computation") || op.is("sdy.named_computation") ||
         op.is("builtin.module");
}

// The region constants of `block` are gathered in: the nearest one whose op
// is isolated from above (or top level).
ir::Region* insertionRegion(ir::Block* block) {
  while (ir::Region* region = block->parentRegion()) {
    ir::Op* owner = block->parentOp();
    if (!owner || isIsolatedRegionOwner(*owner) || !owner->parentBlock()) return region;
    block = owner->parentBlock();
  }
  return nullptr;
}

}  // namespace

bool isConstantLike(const ir::Op& op) {
  return (op.is("stablehlo.constant") || op.is("arith.constant") || op.is("chlo.constant")) &&
         op.numResults() == 1;
}

bool ConstantUniquer::insertKnownConstant(ir::Op& op) {
  if (!isConstantLike(op)) return false;
  ir::Block* block = op.parentBlock();
  if (!block) return false;
  auto moveToFrontUnlessLeading = [&](ir::Block& target) {
    ir::Op* front = target.ops().front().get();
    if (front == &op) return;
    // Right after constants already taken over: stays where it is.
    if (&target == block && owned_.count(block->opBefore(&op))) return;
    std::unique_ptr<ir::Op> taken = block->take(&op);
    target.insertBefore(front, std::move(taken));
  };
  if (owned_.count(&op)) {
    moveToFrontUnlessLeading(*block);
    return true;
  }
  ir::Region* region = insertionRegion(block);
  if (!region || region->empty()) return false;
  const ir::Attribute* value = op.attr("value");
  Key key{region, op.name(), value ? value->str() : std::string(), op.result(0)->type->str()};
  auto it = unique_.find(key);
  if (it != unique_.end()) {
    op.result(0)->replaceAllUsesWith(it->second->result(0));
    erase_(&op);
    return true;
  }
  moveToFrontUnlessLeading(region->front());
  unique_[key] = &op;
  owned_.insert(&op);
  return true;
}

void ConstantUniquer::forget(const ir::Op* op) {
  if (!owned_.erase(op)) return;
  for (auto it = unique_.begin(); it != unique_.end(); ++it)
    if (it->second == op) {
      unique_.erase(it);
      return;
    }
}

}  // namespace shardscope::passes
