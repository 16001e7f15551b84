// Making axes unreduced on purpose: when a value must arrive with unreduced
// axes it does not have yet (a reshard, a function result or an edge whose
// target sharding has `unreduced={...}` beyond the value's own), those axes
// are either replicated in the value (`sdy.replicated_to_unreduced`: each
// device keeps its share of the sum, the others contribute zero) or shard one
// of its dimensions at the minor end (`sdy.sharded_to_unreduced`: the
// dimension is gathered and every device keeps its own shard as a partial
// sum). A `sdy.reshard` first aligns the dimensions that need more than
// dropping minor axes. Replicated axes are handled first since that keeps
// the tensor's size; sharded ones next.
//
// Example, mesh "x"=2, "y"=2, "z"=2: %arg0 [{"y"}, {"z"}] must become
// [{}, {}] unreduced={"x", "y"}:
//   %0 = sdy.reshard %arg0 <@mesh, [{"y"}, {}]>                // "z" is not wanted unreduced
//   %1 = sdy.replicated_to_unreduced {"x"} %0 out_sharding=<@mesh, [{"y"}, {}], unreduced={"x"}>
//   %2 = sdy.sharded_to_unreduced [{"y"}, {}] %1 out_sharding=<@mesh, [{}, {}], unreduced={"x", "y"}>
#pragma once
#include <optional>

#include "passes/explicit_reshards/insert_point.h"
#include "passes/explicit_reshards/reshard_insertion.h"

namespace shardscope::passes::explicit_reshards {

// Bring operand `use` to the unreduced axes of `target` as above, inserting
// at `at`. Returns the sharding of the last op inserted, or nullopt when
// nothing was needed (or the shardings cannot be related this way).
std::optional<TensorSharding> makeUnreducedAxes(const ir::Use& use, const std::optional<TensorSharding>& target,
                                                InsertPoint& at, const ReshardContext& ctx);

// An existing `sdy.reshard` that only adds unreduced axes is replaced by the
// collectives above; returns whether it was.
bool reshardToUnreducedCollectives(ir::Op* reshard, const ReshardContext& ctx);

}  // namespace shardscope::passes::explicit_reshards
