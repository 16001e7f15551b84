// Rules decided dimension by dimension: linear algebra (cholesky,
// triangular_solve), fft, sort, rng_bit_generator, batch_norm_inference, and
// the pointwise ops whose extra operands may be scalars (clamp, select).
#include "rules/rule_families.h"
#include "rules/stablehlo_attrs.h"

namespace shardscope::rules::detail {

namespace {
std::vector<int64_t> dropBack(const std::vector<int64_t>& shape, size_t n) {
  return shape.size() <= n ? std::vector<int64_t>{}
                           : std::vector<int64_t>(shape.begin(), shape.end() - static_cast<long>(n));
}
}  // namespace

// batch_norm_inference (operand, scale, offset, mean, variance): the feature
// dim is shared with every 1-d parameter.
//   feature_index 2 on 4x8x16x32:
//   ([i, j, k, l], [k], [k], [k], [k])->([i, j, k, l]) {i=4, j=8, k=16, l=32}
RuleResult batchNormInferenceRule(const ir::Op& op, const RuleContext&) {
  int64_t feature = intAttrOf(op, "feature_index").value_or(-1);
  const auto& shape = operandShape(op, 0);
  OpShardingRuleBuilder builder(op);
  for (size_t d = 0; d < shape.size(); ++d) {
    auto dim = static_cast<int64_t>(d);
    std::vector<int64_t> operandDims(op.numOperands(), dim == feature ? 0 : kNullDim);
    if (!operandDims.empty()) operandDims[0] = dim;
    builder.addFactor(operandDims, std::vector<int64_t>(op.numResults(), dim), shape[d]);
  }
  return std::move(builder).build();
}

// cholesky: batch dims pass through; the two matrix dims need replication.
//   2x4x8x8: ([i, j, k, l])->([i, j, k, l]) {i=2, j=4, k=8, l=8} need_replication={k, l}
RuleResult choleskyRule(const ir::Op& op, const RuleContext&) {
  const auto& shape = operandShape(op, 0);
  auto numBatch = static_cast<int64_t>(shape.size()) - 2;
  return OpShardingRuleBuilder(op)
      .addPointwise(shape,
                    [&](int64_t dim) {
                      return dim < numBatch ? FactorType::Passthrough
                                            : FactorType::NeedReplication;
                    })
      .build();
}

// clamp(min, operand, max): pointwise over the operand; scalar bounds map nothing.
//   ([], [i, j], [])->([i, j]) {i=4, j=8}
RuleResult clampRule(const ir::Op& op, const RuleContext&) {
  return OpShardingRuleBuilder(op).addPointwise(operandShape(op, 1)).build();
}

// select(pred, on_true, on_false): pointwise; a scalar pred maps nothing.
//   ([], [i, j], [i, j])->([i, j]) {i=4, j=8}
RuleResult selectRule(const ir::Op& op, const RuleContext&) {
  return OpShardingRuleBuilder(op).addPointwise(resultShape(op, 0)).build();
}

// fft: leading dims are batch; the transformed (trailing fft_length.size())
// dims need replication, and the last one is also blocked when RFFT/IRFFT
// changes its size.
//   RFFT length [32, 64], 8x32x64 -> 8x32x33:
//   ([i, j, k])->([i, j, k]) {i=8, j=32, k=64} need_replication={j, k} blocked_propagation={k}
RuleResult fftRule(const ir::Op& op, const RuleContext&) {
  const auto& in = operandShape(op, 0);
  const auto& out = resultShape(op, 0);
  auto numFft = static_cast<int64_t>(
      intListAttrOf(op, "fft_length").value_or(std::vector<int64_t>{}).size());
  auto rank = static_cast<int64_t>(in.size());
  OpShardingRuleBuilder builder(op);
  for (int64_t dim = 0; dim < rank; ++dim) {
    int64_t size = in[static_cast<size_t>(dim)];
    if (dim < rank - numFft)
      builder.addFactorToAll(dim, size);
    else if (dim < rank - 1)
      builder.addFactorToAll(dim, size, FactorType::NeedReplication);
    else
      builder.addFactorToAll(dim, size, FactorType::NeedReplication,
                             out.empty() || in.back() != out.back());
  }
  return std::move(builder).build();
}

// rng_bit_generator(state) -> (new_state, output): the states must stay
// replicated and nothing flows between them; the output's dims are free.
//   ([i])->([i], [j, k]) {i=2, j=4, k=1000} need_replication={i} blocked_propagation={i}
RuleResult rngBitGeneratorRule(const ir::Op& op, const RuleContext&) {
  const auto& state = operandShape(op, 0);
  const auto& output = resultShape(op, 1);
  OpShardingRuleBuilder builder(op);
  for (size_t d = 0; d < state.size(); ++d) {
    auto dim = static_cast<int64_t>(d);
    builder.addFactor({dim}, {dim, kNullDim}, state[d], FactorType::NeedReplication, true);
  }
  for (size_t d = 0; d < output.size(); ++d)
    builder.addFactor({kNullDim}, {kNullDim, static_cast<int64_t>(d)}, output[d]);
  return std::move(builder).build();
}

// sort: the sort dim needs replication, other dims are batch. When every
// other dim has size 1 there is no batch dim to shard instead, so the sort
// dim is also blocked.
//   dimension 1 on 1x4x1:
//   ([i, j, k])->([i, j, k]) {i=1, j=4, k=1} need_replication={j} blocked_propagation={j}
RuleResult sortRule(const ir::Op& op, const RuleContext&) {
  const auto& shape = operandShape(op, 0);
  auto rank = static_cast<int64_t>(shape.size());
  int64_t sortDim = intAttrOf(op, "dimension").value_or(-1);
  if (sortDim < 0) sortDim += rank;
  bool onlySortDim = true;
  for (int64_t d = 0; d < rank; ++d)
    if (d != sortDim && shape[static_cast<size_t>(d)] != 1) onlySortDim = false;
  OpShardingRuleBuilder builder(op);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = shape[static_cast<size_t>(d)];
    if (d == sortDim)
      builder.addFactorToAll(d, size, FactorType::NeedReplication, onlySortDim);
    else
      builder.addFactorToAll(d, size);
  }
  return std::move(builder).build();
}

// triangular_solve(a, b): batch dims pass through; solving `op(a) x = b`
// (left side) or `x op(a) = b` needs the matrix dims replicated.
//   left side, no transpose, a 8x3x3, b 8x3x5:
//   ([i, j, l], [i, j, k])->([i, l, k]) {i=8, j=3, k=5, l=3} need_replication={j, k, l}
RuleResult triangularSolveRule(const ir::Op& op, const RuleContext&) {
  const auto& a = operandShape(op, 0);
  const auto& b = operandShape(op, 1);
  if (a.size() < 2 || b.size() != a.size()) return std::nullopt;
  std::string transpose = enumValueOf(op, "transpose_a").value_or("NO_TRANSPOSE");
  bool transposed = transpose == "TRANSPOSE" || transpose == "ADJOINT";
  bool leftSide = intAttrOf(op, "left_side").value_or(0) != 0;
  auto dim1 = static_cast<int64_t>(a.size()) - 2;
  int64_t dim2 = dim1 + 1;
  auto at = [](const std::vector<int64_t>& s, int64_t d) { return s[static_cast<size_t>(d)]; };
  const auto nr = FactorType::NeedReplication;

  OpShardingRuleBuilder builder(op);
  builder.addPointwise(dropBack(a, 2));
  if (leftSide) {
    int64_t aFree = transposed ? dim2 : dim1;
    int64_t aContracted = transposed ? dim1 : dim2;
    builder.addFactor({aFree, dim1}, {kNullDim}, at(a, aFree), nr)
        .addFactor({kNullDim, dim2}, {dim2}, at(b, dim2), nr)
        .addFactor({aContracted, kNullDim}, {dim1}, at(a, aContracted), nr);
  } else {
    int64_t aFree = transposed ? dim1 : dim2;
    int64_t aContracted = transposed ? dim2 : dim1;
    builder.addFactor({kNullDim, dim1}, {dim1}, at(b, dim1), nr)
        .addFactor({aFree, dim2}, {kNullDim}, at(a, aFree), nr)
        .addFactor({aContracted, kNullDim}, {dim2}, at(a, aContracted), nr);
  }
  return std::move(builder).build();
}

}  // namespace shardscope::rules::detail
