// Factor agreement without a projection (see factor_agreement.h).
#include "propagation/factor_agreement.h"

#include <algorithm>

namespace shardscope::propagation {

FactorAgreement factorAgreement(const OpShardingRule& rule, const std::vector<const TensorSharding*>& operands,
                                const std::vector<const TensorSharding*>& results,
                                const std::vector<PropagationDirection>& dirs, FactorAgreementScratch& scratch) {
  static const AxisRefList kNoAxes;
  const size_t numFactors = rule.factorSizes.size();
  scratch.firstAxes.assign(numFactors, nullptr);
  scratch.agree.assign(numFactors, 1);
  scratch.lastTensor.assign(numFactors, 0);
  size_t tensor = 0;
  // False when the projection could differ from the dimensions' own lists.
  auto visit = [&](const TensorFactorMapping& mapping, const TensorSharding* sharding) {
    ++tensor;
    for (size_t d = 0; d < mapping.dims.size(); ++d) {
      const std::vector<int64_t>& factors = mapping.dims[d];
      if (factors.empty()) continue;
      if (factors.size() > 1) return false;
      const auto f = static_cast<size_t>(factors.front());
      if (f >= numFactors) return false;
      // A factor in two dimensions of one tensor gathers both dimensions'
      // axes in the projection.
      if (scratch.lastTensor[f] == tensor) return false;
      scratch.lastTensor[f] = tensor;
      const bool hasDim = sharding && d < sharding->dims.size();
      const AxisRefList& axes = hasDim ? sharding->dims[d].axes : kNoAxes;
      if (std::any_of(axes.begin(), axes.end(), [](const AxisRef& a) { return a.isSubAxis(); })) return false;
      if (!scratch.firstAxes[f])
        scratch.firstAxes[f] = &axes;
      else if (scratch.agree[f] && !(*scratch.firstAxes[f] == axes))
        scratch.agree[f] = 0;
    }
    return true;
  };
  for (size_t i = 0; i < rule.operands.size(); ++i)
    if (!visit(rule.operands[i], i < operands.size() ? operands[i] : nullptr)) return {};
  for (size_t i = 0; i < rule.results.size(); ++i)
    if (!visit(rule.results[i], i < results.size() ? results[i] : nullptr)) return {};
  FactorAgreement out;
  out.decided = true;
  out.allAgree = true;
  for (size_t f = 0; f < numFactors; ++f) {
    if (scratch.agree[f]) continue;
    out.allAgree = false;
    if (f < dirs.size() && dirs[f] != PropagationDirection::None) out.mayChange = true;
  }
  return out;
}

}  // namespace shardscope::propagation
