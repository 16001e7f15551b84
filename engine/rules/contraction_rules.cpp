// Rules of contractions and reductions: dot, dot_general, reduce. Their
// contracted / reduced dims are reduction factors (sharding them means an
// all-reduce of the result).
#include <algorithm>

#include "rules/rule_families.h"
#include "rules/stablehlo_attrs.h"

namespace shardscope::rules::detail {

// dot: vector/matrix products. Non-contracting dims of a matrix operand go to
// the result in order; the contracting dim is a reduction.
//   tensor<8x32> x tensor<32x16>: ([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}
//   tensor<32> x tensor<32x16>:   ([j], [j, i])->([i]) {i=16, j=32} reduction={j}
RuleResult dotRule(const ir::Op& op, const RuleContext&) {
  const auto& lhs = operandShape(op, 0);
  const auto& rhs = operandShape(op, 1);
  if (rhs.empty()) return std::nullopt;
  bool lhsMatrix = lhs.size() == 2;
  bool rhsMatrix = rhs.size() == 2;
  OpShardingRuleBuilder builder(op);
  if (lhsMatrix) builder.addFactor({0, kNullDim}, {0}, lhs[0]);
  if (rhsMatrix) builder.addFactor({kNullDim, 1}, {lhsMatrix ? 1 : 0}, rhs[1]);
  builder.addFactor({lhsMatrix ? 1 : 0, 0}, {kNullDim}, rhs[0], FactorType::Reduction);
  return std::move(builder).build();
}

// dot_general: factors in result order (batching, lhs free dims, rhs free
// dims), then one reduction factor per contracting pair.
//   4x8x32 x 4x32x16, batching [0]x[0], contracting [2]x[1]:
//   ([i, j, l], [i, l, k])->([i, j, k]) {i=4, j=8, k=16, l=32} reduction={l}
RuleResult dotGeneralRule(const ir::Op& op, const RuleContext&) {
  const ir::Attribute* attr = op.attr("dot_dimension_numbers");
  std::optional<StructParams> dn = attr ? StructParams::from(*attr) : std::nullopt;
  if (!dn) return std::nullopt;
  std::vector<int64_t> lhsBatch = dn->list("lhs_batching_dimensions");
  std::vector<int64_t> rhsBatch = dn->list("rhs_batching_dimensions");
  std::vector<int64_t> lhsContract = dn->list("lhs_contracting_dimensions");
  std::vector<int64_t> rhsContract = dn->list("rhs_contracting_dimensions");
  if (lhsBatch.size() != rhsBatch.size() || lhsContract.size() != rhsContract.size())
    return std::nullopt;
  const auto& lhs = operandShape(op, 0);
  const auto& rhs = operandShape(op, 1);
  auto sizeAt = [](const std::vector<int64_t>& shape, int64_t dim) {
    return dim >= 0 && dim < static_cast<int64_t>(shape.size()) ? shape[static_cast<size_t>(dim)]
                                                                 : int64_t{1};
  };

  OpShardingRuleBuilder builder(op);
  int64_t outDim = 0;
  for (size_t k = 0; k < lhsBatch.size(); ++k)
    builder.addFactor({lhsBatch[k], rhsBatch[k]}, {outDim++}, sizeAt(lhs, lhsBatch[k]));
  for (int64_t d = 0; d < static_cast<int64_t>(lhs.size()); ++d)
    if (!contains(lhsContract, d) && !contains(lhsBatch, d))
      builder.addFactor({d, kNullDim}, {outDim++}, lhs[static_cast<size_t>(d)]);
  for (int64_t d = 0; d < static_cast<int64_t>(rhs.size()); ++d)
    if (!contains(rhsContract, d) && !contains(rhsBatch, d))
      builder.addFactor({kNullDim, d}, {outDim++}, rhs[static_cast<size_t>(d)]);
  for (size_t k = 0; k < lhsContract.size(); ++k)
    builder.addFactor({lhsContract[k], rhsContract[k]}, {kNullDim}, sizeAt(lhs, lhsContract[k]),
                      FactorType::Reduction);
  return std::move(builder).build();
}

// reduce: N inputs then N init values; reduced dims are reduction factors of
// the inputs, kept dims are shared with every result; inits map nothing.
//   two inputs 2x64x13 reduced over [0, 2]:
//   ([i, j, k], [i, j, k], [], [])->([j], [j]) {i=2, j=64, k=13} reduction={i, k}
RuleResult reduceRule(const ir::Op& op, const RuleContext&) {
  size_t numInputs = op.numOperands() / 2;
  if (numInputs == 0) return std::nullopt;
  const auto& in = operandShape(op, 0);
  std::vector<int64_t> reduced = intListAttrOf(op, "dimensions").value_or(std::vector<int64_t>{});
  OpShardingRuleBuilder builder(op);
  std::vector<int64_t> operandDims(op.numOperands(), kNullDim);
  int64_t outDim = 0;
  for (int64_t d = 0; d < static_cast<int64_t>(in.size()); ++d) {
    std::fill_n(operandDims.begin(), numInputs, d);
    int64_t size = in[static_cast<size_t>(d)];
    if (contains(reduced, d))
      builder.addFactor(operandDims, std::vector<int64_t>(op.numResults(), kNullDim), size,
                        FactorType::Reduction);
    else
      builder.addFactor(operandDims, std::vector<int64_t>(op.numResults(), outDim++), size);
  }
  return std::move(builder).build();
}

}  // namespace shardscope::rules::detail
