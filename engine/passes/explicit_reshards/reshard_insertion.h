// Making one op with a sharding rule compatible: choose the factor sharding
// it is computed in, reshard the operands and results that differ from it,
// and all-reduce the results over the axes of its sharded reduction factors.
//
// Example, mesh "x"=4, "y"=2:
//
//   %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = <@mesh, [{"x"}, {}]>}
//        // %arg0 8x32 [{"x"}, {"y"}], %arg1 32x16 [{"y"}, {"x"}]; rule ([i, k], [k, j])->([i, j])
//
// "x" cannot shard both i and j. The larger %arg1 keeps it on j, so the dot
// is computed with i=none, j="x", k="y" and becomes
//
//   %r = sdy.reshard %arg0 <@mesh, [{}, {"y"}]>
//   %0 = stablehlo.dot %r, %arg1 {sdy.sharding = <@mesh, [{}, {"x"}]>}
//   %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{}, {"x"}]>
//   %2 = sdy.reshard %1 <@mesh, [{"x"}, {}]>
//
// With `fullVersion` false only two things are done: the all-reduce of
// reduction factors whose result keeps some axes unreduced, and the dot
// rewrite of dot_result_reshard.h.
#pragma once
#include <vector>

#include "ir/operation.h"
#include "passes/explicit_reshards/axis_lists.h"
#include "passes/explicit_reshards/op_mesh.h"
#include "passes/explicit_reshards/reshard_cause.h"
#include "propagation/sharding_projection.h"
#include "sharding/op_sharding_rule.h"

namespace shardscope::passes::explicit_reshards {

// What every step of the pass needs.
struct ReshardContext {
  ir::Module& module;
  MeshTable meshes;
  ReshardCauses* causes = nullptr;  // where to record why (may be null)
  void record(ReshardCause cause) const {
    if (causes) causes->push_back(std::move(cause));
  }
};

// Element counts of the operands, then the results (0 when not static).
std::vector<int64_t> tensorSizes(const ir::Op& op);

// The projection the pass works on: missing shardings are closed, and in a
// dimension whose axes overflow a factor, the factors after the next one are
// left out (they cannot be sharded at all).
propagation::ShardingProjection projectForReshards(const OptionalShardings& operands,
                                                   const OptionalShardings& results,
                                                   const OpShardingRule& rule, const Mesh& mesh);

// Reshard operands and results of `op` whose row in `projection` differs
// from `original` (or whose sharding is on another device order than
// `mesh`), to the sharding `projection` gives them. Results get their new
// sharding on the op and a reshard back to the sharding they had.
void reshardToProjection(ir::Op* op, const OpShardingRule& rule, const OpMesh& mesh,
                         const OptionalShardings& operands, const OptionalShardings& results,
                         const propagation::ShardingProjection& original,
                         const propagation::ShardingProjection& projection,
                         const propagation::UpdateTensorShardings& changed, const ReshardContext& ctx);

// The whole treatment of one op (see above).
void insertReshardsForOp(ir::Op* op, const OpShardingRule& rule, const OpMesh& mesh,
                         const OptionalShardings& operands, const OptionalShardings& results, bool fullVersion,
                         const ReshardContext& ctx);

}  // namespace shardscope::passes::explicit_reshards
