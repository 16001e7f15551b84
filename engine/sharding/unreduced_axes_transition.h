// Whether an op may turn its operands' unreduced axes into its results'.
//
// A value with unreduced axes holds partial results that still have to be
// combined (summed, max-ed, ...) over those axes. An op may
//   - keep an unreduced axis (operand and result both have it): only with the
//     same reduction;
//   - introduce one (the result has it, no operand does), when the op makes
//     partial results of that kind (a dot over a sharded contracting
//     dimension makes partial sums);
//   - remove one (an operand has it, no result does), when the op performs
//     that reduction (an all-reduce of kind sum).
// Example: operand `unreduced={"y"}`, result without unreduced axes, on an
// op that may not remove axes:
//   "dropped unreduced axis 'y' without a blessed operation (e.g.,
//    sdy.reshard). This is an invalid transition from unreduced to reduced."
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sharding/tensor_sharding.h"

namespace shardscope {

// What kind of unreduced axes an op may introduce / remove ("sum", "max",
// ...); nullopt: none at all.
struct UnreducedTransitionRules {
  std::optional<std::string> introduce;
  std::optional<std::string> remove;
};

// Resolves a sharding's mesh (nullptr when unknown).
using MeshResolver = std::function<const Mesh*(const MeshRef&)>;

// The message sdy gives (to follow "'op.name' op ") when going from
// `operands` to `results` breaks `rules`, or "" when it is allowed. Null
// entries are values without a sharding. Shardings on different meshes are
// not compared (nothing to say).
std::string checkUnreducedAxesTransition(const std::vector<const TensorSharding*>& operands,
                                         const std::vector<const TensorSharding*>& results,
                                         const UnreducedTransitionRules& rules,
                                         const MeshResolver& meshOf);

// The parts of the axes in `a` that no axis in `b` covers ("x" minus
// "x":(1)2 on x=4 is "x":(2)2). `mesh` gives the size of full axes; without
// it a full axis is covered by any part of itself.
AxisRefList unreducedAxisDifference(const AxisRefList& a, const AxisRefList& b, const Mesh* mesh);

}  // namespace shardscope
