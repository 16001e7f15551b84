// Rules of `stablehlo.custom_call`, by call target.
#include <set>
#include <string>

#include "rules/rule_families.h"
#include "rules/stablehlo_attrs.h"

namespace shardscope::rules::detail {

namespace {

// Targets left without a rule on purpose (host callbacks, test hooks, logging).
const std::set<std::string>& targetsWithoutRule() {
  static const std::set<std::string> targets = {
      "sdy_testonly",           "tpu_custom_call",          "xla_python_cpu_callback",
      "xla_python_gpu_callback", "xla_ffi_python_cpu_callback", "xla_ffi_python_gpu_callback",
      "xla.debug.Log"};
  return targets;
}

// Targets that act elementwise (placement, layout and sharding hints, erf,
// the SPMD partitioner's pure data-movement helpers).
const std::set<std::string>& pointwiseTargets() {
  static const std::set<std::string> targets = {
      "annotate_device_placement",
      "Cholesky",
      "CompactWyHelper",
      "InspectSharding",
      "InvertDiagBlocksLowerTriangular",
      "InvertDiagBlocksUpperTriangular",
      "LayoutConstraint",
      "mhlo.erf",
      "MoveToDevice",
      "MoveToHost",
      "X64SplitHigh",
      "X64SplitLow",
      "xla.megascale.provide_metadata",
      "_SPMDInternalOp_MultiPad",
      "_SPMDInternalOp_RotateRight",
      "_SPMDInternalOp_MultiRotate",
      "_SPMDInternalOp_MultiSlice",
      "_SPMDInternalOp_Wrap",
  };
  return targets;
}

std::vector<int64_t> dropBack2(const std::vector<int64_t>& shape) {
  return shape.size() <= 2 ? std::vector<int64_t>{}
                           : std::vector<int64_t>(shape.begin(), shape.end() - 2);
}

// Eigh (a) -> (eigenvectors, eigenvalues): batch dims pass through; the matrix
// dims correspond to the eigenvectors' and the last one to the eigenvalues'.
//   8x4x4 -> 8x4x4, 8x4: ([i, j, k])->([i, j, k], [i, k]) {i=8, j=4, k=4}
RuleResult eighRule(const ir::Op& op) {
  if (op.numOperands() != 1 || op.numResults() != 2) return std::nullopt;
  const auto& in = operandShape(op, 0);
  if (in.size() < 2) return std::nullopt;
  auto d1 = static_cast<int64_t>(in.size()) - 2, d2 = d1 + 1;
  return OpShardingRuleBuilder(op)
      .addPointwise(dropBack2(in))
      .addFactor({d1}, {d1, kNullDim}, in[static_cast<size_t>(d1)])
      .addFactor({d2}, {d2, d1}, in[static_cast<size_t>(d2)])
      .build();
}

// Qr / QrDecompositionBlock (a) -> (q-ish, taus): matrix dims shared with the
// first result but replicated; the taus dim has its own replicated factor.
//   8x5x3 -> 8x5x3, 8x3:
//   ([i, j, k])->([i, j, k], [i, l]) {i=8, j=5, k=3, l=3} need_replication={j, k, l}
RuleResult qrRule(const ir::Op& op) {
  if (op.numOperands() != 1 || op.numResults() != 2) return std::nullopt;
  const auto& in = operandShape(op, 0);
  const auto& taus = resultShape(op, 1);
  if (in.size() < 2 || taus.size() + 1 != in.size()) return std::nullopt;
  auto d1 = static_cast<int64_t>(in.size()) - 2, d2 = d1 + 1;
  const auto nr = FactorType::NeedReplication;
  return OpShardingRuleBuilder(op)
      .addPointwise(dropBack2(in))
      .addFactor({d1}, {d1, kNullDim}, in[static_cast<size_t>(d1)], nr)
      .addFactor({d2}, {d2, kNullDim}, in[static_cast<size_t>(d2)], nr)
      .addFactor({kNullDim}, {kNullDim, d1}, taus[static_cast<size_t>(d1)], nr)
      .build();
}

// ProductOfElementaryHouseholderReflectors (a, taus) -> q: like Qr, reversed.
RuleResult householderProductRule(const ir::Op& op) {
  if (op.numOperands() != 2 || op.numResults() != 1) return std::nullopt;
  const auto& a = operandShape(op, 0);
  const auto& taus = operandShape(op, 1);
  if (a.size() < 2 || taus.size() + 1 != a.size()) return std::nullopt;
  auto d1 = static_cast<int64_t>(a.size()) - 2, d2 = d1 + 1;
  const auto nr = FactorType::NeedReplication;
  return OpShardingRuleBuilder(op)
      .addPointwise(dropBack2(a))
      .addFactor({d1, kNullDim}, {d1}, a[static_cast<size_t>(d1)], nr)
      .addFactor({d2, kNullDim}, {d2}, a[static_cast<size_t>(d2)], nr)
      .addFactor({kNullDim, d1}, {kNullDim}, taus[static_cast<size_t>(d1)], nr)
      .build();
}

// mhlo.topk (x) -> (values, indices): the top-k'd dim needs replication and
// is blocked.
//   16x8 -> 16x2, 16x2: ([i, j])->([i, j], [i, j]) {i=16, j=8} need_replication={j}
//   blocked_propagation={j}
RuleResult topKRule(const ir::Op& op) {
  if (op.numOperands() != 1 || op.numResults() != 2) return std::nullopt;
  return OpShardingRuleBuilder(op)
      .addPointwiseWithDiffTypeForMismatch(operandShape(op, 0), resultShape(op, 0),
                                           FactorType::NeedReplication, true)
      .build();
}

// ApproxTopK / PartialReduce (x, iota, init, init_arg) -> (values, indices):
// the reduced dim is one factor for the two inputs (which can stay sharded:
// each shard computes its own top k) and another, replicated and blocked,
// for the results.
//   16x4 -> 16x2: ([i, j], [i, j], [], [])->([i, k], [i, k]) {i=16, j=4, k=2}
//   need_replication={k} blocked_propagation={k}
RuleResult approxTopKRule(const ir::Op& op) {
  if (op.numOperands() != 4 || op.numResults() != 2) return std::nullopt;
  const auto& in = operandShape(op, 0);
  const auto& out = resultShape(op, 0);
  if (in.size() != out.size()) return std::nullopt;
  OpShardingRuleBuilder builder(op);
  for (size_t d = 0; d < in.size(); ++d) {
    auto dim = static_cast<int64_t>(d);
    if (in[d] == out[d]) {
      builder.addFactorToAll(dim, in[d]);
      continue;
    }
    builder.addFactor({dim, dim, kNullDim, kNullDim}, {kNullDim, kNullDim}, in[d]);
    builder.addFactor({kNullDim, kNullDim, kNullDim, kNullDim}, {dim, dim}, out[d],
                      FactorType::NeedReplication, true);
  }
  return std::move(builder).build();
}

// X64Combine feeding an rng_bit_generator: its ui64 state must stay
// replicated and cannot be resharded, so the one dim is replicated and
// blocked. Otherwise the combine is pointwise.
RuleResult x64CombineRule(const ir::Op& op) {
  bool feedsRng = false;
  for (unsigned r = 0; r < op.numResults(); ++r)
    for (const ir::Use& use : op.result(r)->uses())
      if (use.user && use.user->is("stablehlo.rng_bit_generator")) feedsRng = true;
  if (!feedsRng) return OpShardingRuleBuilder::buildPointwise(op);
  const auto& shape = resultShape(op, 0);
  if (shape.size() != 1) return std::nullopt;
  return OpShardingRuleBuilder(op)
      .addFactorToAll(0, shape.front(), FactorType::NeedReplication, true)
      .build();
}

}  // namespace

RuleResult customCallRule(const ir::Op& op, const RuleContext& ctx) {
  std::string target = stringOrSymbolOf(op, "call_target_name").value_or("");
  if (targetsWithoutRule().count(target)) return std::nullopt;
  if (pointwiseTargets().count(target)) return OpShardingRuleBuilder::buildPointwise(op);
  if (target == "Eigh") return eighRule(op);
  if (target == "Qr" || target == "QrDecompositionBlock") return qrRule(op);
  if (target == "ProductOfElementaryHouseholderReflectors") return householderProductRule(op);
  if (target == "mhlo.topk") return topKRule(op);
  if (target == "ApproxTopK" || target == "PartialReduce") return approxTopKRule(op);
  if (target == "X64Combine") return x64CombineRule(op);
  warnUnknownOnce(ctx.diags, op,
                  "custom call @" + target + " is unknown to SDY sharding rule registry",
                  "custom call @");
  return std::nullopt;
}

}  // namespace shardscope::rules::detail
