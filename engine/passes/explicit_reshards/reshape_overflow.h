// A reshape whose sharding does not split evenly over its rule's factors
// (some axes "overflow" a factor: `[{"x", "y"}]` on a dimension 6 = 2x3
// merged from 2 and 3, with "x"=4) is computed by handing the axes of its
// more sharded side, in order, to the factors of each side afresh:
// each factor takes the part of each axis that divides what is left of it
// (the axis is split into sub-axes when only part fits), and what fits
// nowhere overflows the last factor. The op is then computed in the
// greatest common prefix of the two sides' factor axes, and the operand
// and result are resharded where that differs from what they have.
//
// Example, mesh "x"=4: reshape 4x6 -> 24 with operand [{"x"}, {}], result
// [{}]: the operand side is more sharded, its axes ["x"] go to factor i
// (size 4) on both sides, and the result is resharded from [{"x"}] back
// to [{}].
#pragma once
#include "passes/explicit_reshards/reshard_insertion.h"

namespace shardscope::passes::explicit_reshards {

// Does any tensor of `projection` have overflow axes?
bool hasOverflowAxes(const propagation::ShardingProjection& projection);

// Reshards the reshape `op` as above; returns the factor axes it is computed in.
AxesPerFactor reshardReshapeWithOverflow(ir::Op* op, const OpShardingRule& rule, const OpMesh& mesh,
                                         const OptionalShardings& operands, const OptionalShardings& results,
                                         propagation::ShardingProjection& projection, const ReshardContext& ctx);

}  // namespace shardscope::passes::explicit_reshards
