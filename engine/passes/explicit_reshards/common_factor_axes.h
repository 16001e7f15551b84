// The sharding an op is computed in: the axes of each factor of its rule.
//
// 1. When every tensor that maps a factor has the same axes for it, no
//    need-replication factor is sharded and no axis shards two factors, the
//    op is already compatible and those axes are kept.
// 2. A "unary" op (exactly two non-scalar tensors, no need-replication
//    factor, no dimension made of several factors) keeps one tensor as it
//    is: the one without sharded permutation factors, else the larger, else
//    the more sharded (operand first on a tie). The other tensor's factors
//    that the kept one does not map keep their axes, cut where they meet
//    the kept tensor's axes.
// 3. Otherwise the greedy choice of factor_axes_candidate.h; the axes it
//    gave need-replication factors then move to the batching factors
//    (pass-through factors of every non-scalar tensor) where they fit.
//
// Example: `stablehlo.transpose` dims [1, 0] on 8x16 -> 16x8, mesh "x"=4,
// operand [{"x"}, {}], result [{}, {}]: unary; the operand is kept (no
// sharded permutation factor, same size, more sharded), so i gets "x" and
// the result must be resharded to [{}, {"x"}].
#pragma once
#include <vector>

#include "passes/explicit_reshards/axis_lists.h"
#include "propagation/sharding_projection.h"
#include "sharding/mesh.h"
#include "sharding/op_sharding_rule.h"

namespace shardscope::passes::explicit_reshards {

// The axes each factor has in every tensor that maps it, or nullopt when
// two tensors disagree (a factor no tensor maps has none).
std::optional<AxisRefList> agreedFactorAxes(const propagation::ShardingProjection& projection, int64_t factor);

// Step 1 alone: the op's factor axes when it is compatible already, else
// an empty list.
AxesPerFactor compatibleFactorAxes(const propagation::ShardingProjection& projection,
                                   const OpShardingRule& rule);

// Steps 1-3. `tensorSizes`: element counts of the operands, then results.
AxesPerFactor chooseCommonFactorAxes(const propagation::ShardingProjection& projection,
                                     const OpShardingRule& rule, const std::vector<int64_t>& tensorSizes,
                                     const Mesh& mesh);

// Rule queries the choice needs.
bool isBatchingFactor(const OpShardingRule& rule, int64_t factor);
bool isFactorInAllNonScalarTensors(const OpShardingRule& rule, int64_t factor);
std::vector<int64_t> nonScalarTensorIndices(const OpShardingRule& rule);
bool hasDimensionWithSeveralFactors(const OpShardingRule& rule);

}  // namespace shardscope::passes::explicit_reshards
