// Where the pass puts the ops it creates, and how it creates them.
//
// An InsertPoint is "before op B in block K" (or "at the end of K"). Like
// an MLIR builder, ops inserted one after another at the same point come out
// in the order they were inserted:
//
//   InsertPoint at = InsertPoint::afterOp(dot);
//   ir::Value* r = createReshard(at, dot->result(0), sharding, loc);  // right after the dot
//   createAllReduce(at, r, {"y"}, sharding, loc);                       // after the reshard
#pragma once
#include <memory>

#include "ir/operation.h"
#include "sharding/tensor_sharding.h"

namespace shardscope::passes::explicit_reshards {

struct InsertPoint {
  ir::Block* block = nullptr;
  ir::Op* before = nullptr;  // insert before this op (when `after` is null)
  ir::Op* after = nullptr;   // or after this one; it then moves to the new op

  static InsertPoint beforeOp(ir::Op* op);
  static InsertPoint afterOp(ir::Op* op);
  // Right after the op defining `v`, or at the start of the block whose
  // argument it is.
  static InsertPoint afterValue(ir::Value* v);
  ir::Op* insert(std::unique_ptr<ir::Op> op);
};

// `%r = sdy.reshard %input <sharding> : T`.
ir::Op* createReshard(InsertPoint& at, ir::Value* input, const TensorSharding& sharding, ir::SourceLoc loc);
// `%r = sdy.all_reduce [kind] {axes} %input out_sharding=<...> : T`; `kind`
// is the reduction ("sum", not printed, or "max", "min", ...).
ir::Op* createAllReduce(InsertPoint& at, ir::Value* input, const AxisRefList& axes,
                        const TensorSharding& outSharding, const std::string& kind, ir::SourceLoc loc);

// `%r = sdy.replicated_to_unreduced {axes} %input out_sharding=<...> : T`.
ir::Op* createReplicatedToUnreduced(InsertPoint& at, ir::Value* input, const AxisRefList& axes,
                                    const TensorSharding& outSharding, ir::SourceLoc loc);
// `%r = sdy.sharded_to_unreduced [{...}, ...] %input out_sharding=<...> : T`
// (`perDim`: the axes each dimension gives up).
ir::Op* createShardedToUnreduced(InsertPoint& at, ir::Value* input, const std::vector<AxisRefList>& perDim,
                                 const TensorSharding& outSharding, ir::SourceLoc loc);

// The sharding of `v` (of an op result, a function or region argument, or
// the `out_sharding` of an sdy collective), or nullopt.
std::optional<TensorSharding> shardingOf(ir::Value* v);

// The sharding `v` has, looking through `sdy.propagation_barrier`s.
std::optional<TensorSharding> shardingBypassingBarriers(ir::Value* v);

}  // namespace shardscope::passes::explicit_reshards
