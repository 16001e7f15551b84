// Rules of ops that move data between dimensions without computing on it:
// broadcast, transpose, concatenate, slicing, padding, reversing, bitcasts.
#include <functional>

#include "rules/rule_families.h"
#include "rules/stablehlo_attrs.h"

namespace shardscope::rules::detail {

// bitcast_convert: dimensions line up, except the extra minor dimension of
// the side with the narrower element type, which needs replication.
//   tensor<4x2xui64> -> tensor<4x2x2xui32>:
//   ([i, j])->([i, j, k]) {i=4, j=2, k=2} need_replication={k}
RuleResult bitcastConvertRule(const ir::Op& op, const RuleContext&) {
  const auto& in = operandShape(op, 0);
  const auto& out = resultShape(op, 0);
  OpShardingRuleBuilder builder(op);
  builder.addPointwise(in.size() < out.size() ? in : out);
  if (in.size() < out.size())
    builder.addFactor({kNullDim}, {static_cast<int64_t>(out.size()) - 1}, out.back(),
                      FactorType::NeedReplication);
  else if (in.size() > out.size())
    builder.addFactor({static_cast<int64_t>(in.size()) - 1}, {kNullDim}, in.back(),
                      FactorType::NeedReplication);
  return std::move(builder).build();
}

// broadcast_in_dim: each result dimension has its own factor, shared with
// the operand dimension mapped onto it, unless that one is a size-1 dim being
// expanded (it then keeps a size-1 factor of its own).
//   tensor<2x1x13> -> tensor<2x64x13>, dims = [0, 1, 2]:
//   ([i, j, l])->([i, k, l]) {i=2, j=1, k=64, l=13}
RuleResult broadcastInDimRule(const ir::Op& op, const RuleContext&) {
  const auto& in = operandShape(op, 0);
  const auto& out = resultShape(op, 0);
  std::vector<int64_t> dims = intListAttrOf(op, "broadcast_dimensions").value_or(std::vector<int64_t>{});
  std::vector<int64_t> inDimOf(out.size(), kNullDim);
  for (size_t inDim = 0; inDim < dims.size(); ++inDim)
    if (dims[inDim] >= 0 && dims[inDim] < static_cast<int64_t>(out.size()))
      inDimOf[static_cast<size_t>(dims[inDim])] = static_cast<int64_t>(inDim);

  OpShardingRuleBuilder builder(op);
  for (size_t outDim = 0; outDim < out.size(); ++outDim) {
    int64_t inDim = inDimOf[outDim];
    if (inDim != kNullDim && inDim < static_cast<int64_t>(in.size()) &&
        in[static_cast<size_t>(inDim)] == 1 && out[outDim] != 1) {
      builder.addFactor({inDim}, {kNullDim}, 1);
      inDim = kNullDim;
    }
    builder.addFactor({inDim}, {static_cast<int64_t>(outDim)}, out[outDim]);
  }
  return std::move(builder).build();
}

namespace {
// The value a `stablehlo.slice` was taken from, or `v` itself.
const ir::Value* beforeSlice(const ir::Value* v) {
  if (v && v->definingOp && v->definingOp->is("stablehlo.slice") &&
      v->definingOp->numOperands() > 0)
    return v->definingOp->operand(0);
  return v;
}
bool isSlice(const ir::Value* v) {
  return v && v->definingOp && v->definingOp->is("stablehlo.slice");
}
}  // namespace

// concatenate: pointwise; the concat dim is a permutation when the pieces
// are slices (or slices of one tensor next to that tensor), since the
// partitioner can then shift data; otherwise it needs replication. In
// conservative mode the concat dim gets no factor at all.
//   concat(slice(%a), slice(%b)) on dim 1 of 4x32x256 and 4x48x256:
//   ([i, j, k], [i, j, k])->([i, j, k]) {i=4, j=80, k=256} permutation={j}
RuleResult concatenateRule(const ir::Op& op, const RuleContext& ctx) {
  int64_t concatDim = intAttrOf(op, "dimension").value_or(0);
  auto typeOf = [&](int64_t dim) {
    if (dim != concatDim) return FactorType::Passthrough;
    bool allSlices = true, anySlice = false, sameSource = true;
    const ir::Value* source = op.numOperands() ? beforeSlice(op.operand(0)) : nullptr;
    for (const ir::Value* v : op.operands()) {
      allSlices = allSlices && isSlice(v);
      anySlice = anySlice || isSlice(v);
      sameSource = sameSource && beforeSlice(v) == source;
    }
    if (allSlices || (sameSource && anySlice)) return FactorType::Permutation;
    return FactorType::NeedReplication;
  };
  return OpShardingRuleBuilder(op)
      .addPointwiseIf(
          resultShape(op, 0), [&](int64_t dim) { return !ctx.conservative || dim != concatDim; },
          typeOf)
      .build();
}

// dynamic_slice: sliced dims need replication and are blocked (the offsets
// are only known at run time); the scalar start indices map nothing.
//   tensor<32x4x8> -> tensor<32x1x2>:
//   ([i, j, k], [], [], [])->([i, j, k]) {i=32, j=4, k=8} need_replication={j, k}
//   blocked_propagation={j, k}
RuleResult dynamicSliceRule(const ir::Op& op, const RuleContext&) {
  return OpShardingRuleBuilder(op)
      .addPointwiseWithDiffTypeForMismatch(operandShape(op, 0), resultShape(op, 0),
                                           FactorType::NeedReplication, /*mismatchBlocked=*/true)
      .build();
}

namespace {
bool isConstantLike(const ir::Op* op) {
  if (!op) return false;
  const std::string& n = op->name();
  return n == "stablehlo.constant" || n == "sdy.constant" || n == "arith.constant" ||
         n == "mhlo.constant" || n == "tosa.const";
}
}  // namespace

// dynamic_update_slice: full dims are shared by operand, update and result.
// An updated dim keeps one factor for operand/result (each device updates
// its own shard) and another for the update, which needs replication unless
// every start index is a constant.
//   operand 32x4x8, update 32x1x2:
//   ([i, j, l], [i, k, m], [], [], [])->([i, j, l]) {i=32, j=4, k=1, l=8, m=2}
//   need_replication={k, m}
RuleResult dynamicUpdateSliceRule(const ir::Op& op, const RuleContext&) {
  const auto& operand = operandShape(op, 0);
  const auto& update = operandShape(op, 1);
  bool constantIndices = true;
  for (unsigned i = 2; i < op.numOperands(); ++i)
    constantIndices = constantIndices && isConstantLike(op.operand(i)->definingOp);

  OpShardingRuleBuilder builder(op);
  std::vector<int64_t> operandDims(op.numOperands(), kNullDim);
  for (size_t d = 0; d < operand.size(); ++d) {
    auto dim = static_cast<int64_t>(d);
    int64_t updateSize = d < update.size() ? update[d] : 1;
    if (operand[d] == updateSize) {
      builder.addFactorToAll(dim, operand[d]);
      continue;
    }
    operandDims.assign(op.numOperands(), kNullDim);
    operandDims[0] = dim;
    builder.addFactor(operandDims, {dim}, operand[d]);
    operandDims[0] = kNullDim;
    if (operandDims.size() > 1) operandDims[1] = dim;
    builder.addFactor(operandDims, {kNullDim}, updateSize,
                      constantIndices ? FactorType::Passthrough : FactorType::NeedReplication);
  }
  return std::move(builder).build();
}

// pad: padded dims are permutations (blocked when conservative).
//   tensor<28x28x16> -> tensor<30x26x16>:
//   ([i, j, k], [])->([i, j, k]) {i=28, j=28, k=16} permutation={i, j}
RuleResult padRule(const ir::Op& op, const RuleContext& ctx) {
  return OpShardingRuleBuilder(op)
      .addPointwiseWithDiffTypeForMismatch(operandShape(op, 0), resultShape(op, 0),
                                           FactorType::Permutation, ctx.conservative)
      .build();
}

// reverse: reversed dims are permutations.
//   dims = [1, 3] on 4x32x8x2:
//   ([i, j, k, l])->([i, j, k, l]) {i=4, j=32, k=8, l=2} permutation={j, l}
RuleResult reverseRule(const ir::Op& op, const RuleContext&) {
  std::vector<int64_t> dims = intListAttrOf(op, "dimensions").value_or(std::vector<int64_t>{});
  return OpShardingRuleBuilder(op)
      .addPointwise(resultShape(op, 0),
                    [&](int64_t dim) {
                      return contains(dims, dim) ? FactorType::Permutation
                                                 : FactorType::Passthrough;
                    })
      .build();
}

// slice: static offsets, so sliced dims are permutations (data can be
// shifted), blocked when conservative.
//   tensor<32x4x8> -> tensor<32x1x2>:
//   ([i, j, k])->([i, j, k]) {i=32, j=4, k=8} permutation={j, k}
RuleResult sliceRule(const ir::Op& op, const RuleContext& ctx) {
  return OpShardingRuleBuilder(op)
      .addPointwiseWithDiffTypeForMismatch(operandShape(op, 0), resultShape(op, 0),
                                           FactorType::Permutation, ctx.conservative)
      .build();
}

// transpose: result dim d and operand dim permutation[d] share a factor.
//   dims = [3, 1, 0, 2] on 256x32x64x100:
//   ([k, j, l, i])->([i, j, k, l]) {i=100, j=32, k=256, l=64}
RuleResult transposeRule(const ir::Op& op, const RuleContext&) {
  const auto& in = operandShape(op, 0);
  std::vector<int64_t> perm = intListAttrOf(op, "permutation").value_or(std::vector<int64_t>{});
  OpShardingRuleBuilder builder(op);
  for (size_t outDim = 0; outDim < perm.size(); ++outDim) {
    int64_t inDim = perm[outDim];
    if (inDim < 0 || inDim >= static_cast<int64_t>(in.size())) return std::nullopt;
    builder.addFactor({inDim}, {static_cast<int64_t>(outDim)}, in[static_cast<size_t>(inDim)]);
  }
  return std::move(builder).build();
}

}  // namespace shardscope::rules::detail
