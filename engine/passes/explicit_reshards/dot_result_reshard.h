// A dot whose result conflicts with its operands on one dimension, when the
// conflicting result axes are exactly the contracting axes, is computed
// sharded like its operands and its (smaller) result resharded after it:
// an all-reduce plus a reshard of the result instead of a reduce-scatter on
// a bigger operand. This is what `enable-full-version=false` still does for
// dots.
//
// Example, mesh "x"=2, "y"=2:
//   lhs 4x32 [{}, {"x"}], rhs 32x8 [{"x"}, {"y"}], result 4x8 [{}, {"x"}]
// j is "y" in rhs but "x" (the contracting axes) in the result, and the
// result is not larger than rhs: the dot is computed as [{}, {"y"}] and a
// `sdy.reshard` to [{}, {"x"}] follows it.
//
// Applies only when lhs and rhs agree on every factor they share, no axis
// shards two non-contracting dimensions, exactly one factor of the result
// differs from the operand holding it, that operand shards it at all and is
// at least as large as the result.
#pragma once
#include "passes/explicit_reshards/op_mesh.h"
#include "passes/explicit_reshards/reshard_insertion.h"

namespace shardscope::passes::explicit_reshards {

// `projection`'s result row is updated when the rewrite applies.
void reshardDotResult(ir::Op* dot, const OpShardingRule& rule, const OpMesh& mesh, const OptionalShardings& results,
                      propagation::ShardingProjection& projection, const ReshardContext& ctx);

}  // namespace shardscope::passes::explicit_reshards
