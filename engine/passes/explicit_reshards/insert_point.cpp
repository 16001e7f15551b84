// Creating the pass's ops (see insert_point.h).
#include "passes/explicit_reshards/insert_point.h"

#include "ir/collective_ops.h"
#include "passes/pass_utils.h"
#include "propagation/value_shardings.h"

namespace shardscope::passes::explicit_reshards {


InsertPoint InsertPoint::beforeOp(ir::Op* op) { return InsertPoint{op->parentBlock(), op}; }

InsertPoint InsertPoint::afterOp(ir::Op* op) { return InsertPoint{op->parentBlock(), nullptr, op}; }

InsertPoint InsertPoint::afterValue(ir::Value* v) {
  if (v->definingOp) return afterOp(v->definingOp);
  ir::Block* block = v->ownerBlock;
  return InsertPoint{block, block->empty() ? nullptr : block->ops().front().get()};
}

ir::Op* InsertPoint::insert(std::unique_ptr<ir::Op> op) {
  if (after) return after = block->insertAfter(after, std::move(op));
  return before ? block->insertBefore(before, std::move(op)) : block->append(std::move(op));
}

ir::Op* createReshard(InsertPoint& at, ir::Value* input, const TensorSharding& sharding, ir::SourceLoc loc) {
  auto op = std::make_unique<ir::Op>("sdy.reshard", loc);
  op->addOperand(input);
  op->setAttr("sharding", sharding, true);
  op->addResult(input->type);
  return at.insert(std::move(op));
}

ir::Op* createAllReduce(InsertPoint& at, ir::Value* input, const AxisRefList& axes,
                        const TensorSharding& outSharding, const std::string& kind, ir::SourceLoc loc) {
  return at.insert(ir::makeAllReduce(input, axes, outSharding, loc, kind));
}

ir::Op* createReplicatedToUnreduced(InsertPoint& at, ir::Value* input, const AxisRefList& axes,
                                    const TensorSharding& outSharding, ir::SourceLoc loc) {
  return at.insert(ir::makeReplicatedToUnreduced(input, axes, outSharding, loc));
}

ir::Op* createShardedToUnreduced(InsertPoint& at, ir::Value* input, const std::vector<AxisRefList>& perDim,
                                 const TensorSharding& outSharding, ir::SourceLoc loc) {
  return at.insert(ir::makeShardedToUnreduced(input, perDim, outSharding, loc));
}

std::optional<TensorSharding> shardingOf(ir::Value* v) { return propagation::getSharding(v); }

std::optional<TensorSharding> shardingBypassingBarriers(ir::Value* v) {
  while (v->definingOp && v->definingOp->is("sdy.propagation_barrier") && v->definingOp->numOperands() == 1)
    v = v->definingOp->operand(0);
  return shardingOf(v);
}

}  // namespace shardscope::passes::explicit_reshards
