// Rules of the StableHLO collectives that change a dimension's size:
// all_gather, all_to_all, reduce_scatter. (all_reduce, collective_permute and
// collective_broadcast are pointwise; see the registry.) Every other dim is
// shared by all operands and results; the resized dims get one
// need-replication factor for the operands and another for the results.
#include "rules/rule_families.h"
#include "rules/stablehlo_attrs.h"

namespace shardscope::rules::detail {

namespace {
int64_t sizeAt(const std::vector<int64_t>& shape, int64_t dim) {
  return dim >= 0 && dim < static_cast<int64_t>(shape.size()) ? shape[static_cast<size_t>(dim)]
                                                               : int64_t{1};
}

// Shared pass-through factors, then the two replicated factors of `dim`.
RuleResult resizedDimRule(const ir::Op& op, int64_t dim) {
  const auto& in = operandShape(op, 0);
  const auto& out = resultShape(op, 0);
  return OpShardingRuleBuilder(op)
      .addPointwiseIf(in, [&](int64_t d) { return d != dim; })
      .addFactorToAllOperands(dim, sizeAt(in, dim), FactorType::NeedReplication)
      .addFactorToAllResults(dim, sizeAt(out, dim), FactorType::NeedReplication)
      .build();
}
}  // namespace

// all_gather along dim 1 of two 2x2 operands into 2x4 results:
//   ([i, j], [i, j])->([i, k], [i, k]) {i=2, j=2, k=4} need_replication={j, k}
RuleResult allGatherRule(const ir::Op& op, const RuleContext&) {
  auto dim = intAttrOf(op, "all_gather_dim");
  if (!dim) return std::nullopt;
  return resizedDimRule(op, *dim);
}

// reduce_scatter along dim 1, 2x64x1x13 -> 2x32x1x13:
//   ([i, l, j, k])->([i, m, j, k]) {i=2, j=1, k=13, l=64, m=32} need_replication={l, m}
RuleResult reduceScatterRule(const ir::Op& op, const RuleContext&) {
  auto dim = intAttrOf(op, "scatter_dimension");
  if (!dim) return std::nullopt;
  return resizedDimRule(op, *dim);
}

// all_to_all: the split dim and (if different) the concat dim are resized.
//   split 1, concat 0, 2x4 -> 4x2:
//   ([k, i], [k, i])->([l, j], [l, j]) {i=4, j=2, k=2, l=4} need_replication={i, j, k, l}
RuleResult allToAllRule(const ir::Op& op, const RuleContext&) {
  auto split = intAttrOf(op, "split_dimension");
  auto concat = intAttrOf(op, "concat_dimension");
  if (!split || !concat) return std::nullopt;
  const auto& in = operandShape(op, 0);
  const auto& out = resultShape(op, 0);
  OpShardingRuleBuilder builder(op);
  builder.addPointwiseIf(in, [&](int64_t d) { return d != *split && d != *concat; })
      .addFactorToAllOperands(*split, sizeAt(in, *split), FactorType::NeedReplication)
      .addFactorToAllResults(*split, sizeAt(out, *split), FactorType::NeedReplication);
  if (*split != *concat)
    builder.addFactorToAllOperands(*concat, sizeAt(in, *concat), FactorType::NeedReplication)
        .addFactorToAllResults(*concat, sizeAt(out, *concat), FactorType::NeedReplication);
  return std::move(builder).build();
}

}  // namespace shardscope::rules::detail
