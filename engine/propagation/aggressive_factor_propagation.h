// Aggressive factor propagation: like basic, but when tensors disagree on a
// factor, the axes of the "source" tensor (the largest tensor already
// holding the candidate) win, and factors are resolved in priority order.
//
// Steps: compute the basic candidate of every factor; find each factor's
// source tensor (largest product of mapped factor sizes, ties to the lowest
// index; operands count before results); sort factors by larger source size,
// then (elementwise ops) larger candidate size, then smaller source index,
// then factor index; factors without a source go last. Then update every
// result, then every operand: per tensor and factor in that order, cut the
// candidate by conflicts within the factor, require it to strictly extend
// the tensor's axes, cut by conflicts with the tensor's other (already
// updated) factors, and expand. For elementwise ops an operand's candidate
// is capped at a result's axes when those are a strict prefix of it.
//
// Example: rule `([i], [j, k])->([i, j]) {i=8, j=8, k=2}` with operand 0
// `[{"a"}]` and operand 1 `[{"a"}, {}]`: both factors want "a" on the result.
// Basic gives up (each factor's "a" overlaps the other factor somewhere);
// aggressive prefers j, whose source (operand 1, size 16) is larger, and
// gives the result `[{}, {"a"}]`. Disagreement within one factor is not resolved by
// either strategy.
#pragma once
#include "propagation/factor_propagation.h"

namespace shardscope::propagation {

class AggressiveFactorPropagation : public FactorPropagation {
 public:
  const char* name() const override { return "aggressive"; }
  UpdateTensorShardings propagate(ShardingProjection& projection,
                                  const FactorPropagationContext& ctx) const override;
};

}  // namespace shardscope::propagation
