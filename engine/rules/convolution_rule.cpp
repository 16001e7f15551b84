// The convolution rule.
//
// Factors, in this order: batch groups (if batch_group_count > 1), per-group
// batch, per spatial dim a "number of windows" factor (input and output,
// permutation: needs a halo exchange) and a "window size" factor (input and
// kernel, reduction), feature groups (if feature_group_count > 1), per-group
// input features (reduction), per-group output features.
//
// Worked example, [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], stride 2,
// 2x224x224x192 * 3x3x192x64 -> 2x112x112x64:
//   ([i, jk, lm, n], [k, m, n, o])->([i, j, l, o])
//   {i=2, j=112, k=2, l=112, m=2, n=192, o=64} reduction={k, m, n} permutation={j, l}
// Input dim 1 (224) is 112 windows x 2: the bigger of "number of windows"
// (112) and "window size" (3) goes first (major), the other gets what is
// left of the input dim (min(224/112, 3) = 2). Conservative mode adds no
// spatial factors at all.
#include <algorithm>

#include "rules/rule_families.h"
#include "rules/stablehlo_attrs.h"

namespace shardscope::rules::detail {

RuleResult convolutionRule(const ir::Op& op, const RuleContext& ctx) {
  const ir::Attribute* attr = op.attr("dimension_numbers");
  std::optional<ConvDimensionNumbers> dn = attr ? parseConvDimensionNumbers(*attr) : std::nullopt;
  if (!dn) return std::nullopt;
  const auto& lhs = operandShape(op, 0);
  const auto& rhs = operandShape(op, 1);
  const auto& out = resultShape(op, 0);
  auto at = [](const std::vector<int64_t>& shape, int64_t dim) {
    return dim >= 0 && dim < static_cast<int64_t>(shape.size()) ? shape[static_cast<size_t>(dim)]
                                                                 : int64_t{1};
  };
  int64_t batchGroups = std::max<int64_t>(1, intAttrOf(op, "batch_group_count").value_or(1));
  int64_t featureGroups = std::max<int64_t>(1, intAttrOf(op, "feature_group_count").value_or(1));

  OpShardingRuleBuilder builder(op);
  if (batchGroups > 1)
    builder.addFactor({dn->inputBatch, dn->kernelOutputFeature}, {dn->outputFeature}, batchGroups);
  builder.addFactor({dn->inputBatch, kNullDim}, {dn->outputBatch}, at(out, dn->outputBatch));

  if (!ctx.conservative) {
    size_t numSpatial = std::min({dn->inputSpatial.size(), dn->kernelSpatial.size(),
                                  dn->outputSpatial.size()});
    for (size_t s = 0; s < numSpatial; ++s) {
      int64_t lhsDim = dn->inputSpatial[s], rhsDim = dn->kernelSpatial[s],
              outDim = dn->outputSpatial[s];
      int64_t numWindows = at(out, outDim);
      int64_t windowSize = at(rhs, rhsDim);
      int64_t remaining = at(lhs, lhsDim);
      // Each factor takes at most what is left of the input dimension.
      auto addSpatial = [&](int64_t size, bool windowSizeFactor) {
        size = std::min(remaining, size);
        if (size <= 1) return;
        if (windowSizeFactor)
          builder.addFactor({lhsDim, rhsDim}, {kNullDim}, size, FactorType::Reduction);
        else
          builder.addFactor({lhsDim, kNullDim}, {outDim}, size, FactorType::Permutation);
        remaining /= size;
      };
      bool windowsFirst = numWindows >= windowSize;
      addSpatial(windowsFirst ? numWindows : windowSize, !windowsFirst);
      addSpatial(windowsFirst ? windowSize : numWindows, windowsFirst);
    }
  }

  if (featureGroups > 1)
    builder.addFactor({dn->inputFeature, dn->kernelOutputFeature}, {dn->outputFeature},
                      featureGroups);
  builder.addFactor({dn->inputFeature, dn->kernelInputFeature}, {kNullDim},
                    at(rhs, dn->kernelInputFeature), FactorType::Reduction);
  int64_t outFeaturesPerGroup = at(out, dn->outputFeature) / (batchGroups * featureGroups);
  if (outFeaturesPerGroup > 1)
    builder.addFactor({kNullDim, dn->kernelOutputFeature}, {dn->outputFeature},
                      outFeaturesPerGroup);
  return std::move(builder).build();
}

}  // namespace shardscope::rules::detail
