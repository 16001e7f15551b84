// Whether the tensors of an op step agree on every factor, read straight
// from their shardings instead of from a projection (sharding_projection.h).
//
// The driver skips a step when every factor that may propagate has the same
// axes on all the tensors mapping it: no strategy can change anything then.
// Building the factor table to find that out costs a row per tensor, a list
// per factor and the heap blocks behind them, on every op visit, and on a
// large module most visits end right there. For the common case the table's
// answer can be read off the shardings directly: when every dimension maps
// at most one factor, that factor is the dimension's minor-most one and
// takes the dimension's axes as they are (provided they are all whole axes;
// sub-axes may be merged on the way), so comparing the dimensions' axis
// lists gives exactly the projection's comparison.
//
// Example: `stablehlo.add` with the rule `([i, j], [i, j])->([i, j])`, the
// operands `[{"x"}, {}]` and `[{"x"}, {}]` and the result `[{}, {}]`:
// factor i has ["x"], ["x"] and [] (disagree), factor j [] everywhere
// (agree). With both directions open the step may change something
// (`mayChange`), and not every factor agrees (`allAgree` false). Had the
// result been `[{"x"}, {}]`, nothing could change and `allAgree` is true.
//
// When a dimension maps several factors (reshapes, compound factors), a
// factor appears twice in one tensor, or an axis list holds a sub-axis,
// the answer is `decided == false`: the caller builds the projection.
#pragma once
#include <vector>

#include "propagation/factor_propagation.h"
#include "sharding/op_sharding_rule.h"
#include "sharding/tensor_sharding.h"

namespace shardscope::propagation {

struct FactorAgreement {
  bool decided = false;    // false: ask the projection
  bool mayChange = false;  // some factor with a direction other than None disagrees
  bool allAgree = false;   // no factor at all disagrees
};

// Scratch lists reused from call to call (one per driver), so that the
// check itself allocates nothing once they have grown.
struct FactorAgreementScratch {
  std::vector<const AxisRefList*> firstAxes;  // per factor: the first tensor's axes
  std::vector<unsigned char> agree;           // per factor
  std::vector<size_t> lastTensor;             // per factor: the last tensor mapping it, plus one
};

// `operands[i]` / `results[i]`: tensor i's sharding (nullptr: none; a
// tensor past the end of the list counts as none, as in the projection);
// `dirs`: each factor's direction.
FactorAgreement factorAgreement(const OpShardingRule& rule, const std::vector<const TensorSharding*>& operands,
                                const std::vector<const TensorSharding*>& results,
                                const std::vector<PropagationDirection>& dirs, FactorAgreementScratch& scratch);

}  // namespace shardscope::propagation
