// Basic factor propagation: each factor, in index order, gets the longest
// list of major axes that every tensor mapping it agrees on and that
// conflicts with nothing; tensors holding a strict prefix of it are
// expanded. Later factors see the earlier factors' new axes.
//
// Example: `[{"a"}, {}]` x `[{}, {"b"}]` with rule `([i, j], [j, k])->([i, k])`
// gives the result `[{"a", ?}, {"b", ?}]`.
#pragma once
#include <functional>
#include <optional>

#include "propagation/factor_propagation.h"

namespace shardscope::propagation {

// The building blocks, shared with the aggressive strategy.
namespace basic {

// (a) The longest axes list compatible among the tensors mapping `factor`:
// operands then results (BOTH/FORWARD) or results then operands (BACKWARD);
// with FORWARD/BACKWARD the second group may only cut, never add. A
// different axis name stops the fold; a sub-axis may be replaced by a longer
// one only in last position.
AxisRefList compatibleMajorAxes(const ShardingProjection& projection, int64_t factor,
                                PropagationDirection direction);

// `axis` cut to the longest prefix not overlapping `row`'s other factors'
// axes and overflow axes.
std::optional<AxisRef> prefixNoConflictsAcrossFactors(const AxisRef& axis,
                                                      const TensorFactorShardings& row,
                                                      int64_t factor);

// `axis` cut so that factor `fs` of a tensor with these replicated/unreduced
// axes can take it: an axis already there is accepted; otherwise the factor
// must be open, without overflow, and either minor-most or divisible by the
// axis after `prevShardedSize` (a proper gcd gives a sub-axis).
std::optional<AxisRef> prefixNoConflictsWithinFactor(const AxisRef& axis,
                                                     const AxisRefList& replicated,
                                                     const AxisRefList& unreduced,
                                                     const FactorSharding& fs,
                                                     int64_t prevShardedSize, int64_t factorSize,
                                                     const Mesh& mesh);

// Walk `axes` major to minor, replacing each by `cut(axis, product so far)`;
// the list ends at the first axis that is dropped or changed. In
// conservative mode a sub-axis result also ends it.
void truncateByConflicts(
    AxisRefList& axes,
    const std::function<std::optional<AxisRef>(const AxisRef&, int64_t prevShardedSize)>& cut,
    const Mesh& mesh, bool conservative);

// (a) then (b) over every tensor of the projection.
AxisRefList compatibleMajorShardingAxes(const ShardingProjection& projection, int64_t factor,
                                        PropagationDirection direction, int64_t factorSize,
                                        const Mesh& mesh, bool conservative);

}  // namespace basic

class BasicFactorPropagation : public FactorPropagation {
 public:
  const char* name() const override { return "basic"; }
  UpdateTensorShardings propagate(ShardingProjection& projection,
                                  const FactorPropagationContext& ctx) const override;
};

}  // namespace shardscope::propagation
