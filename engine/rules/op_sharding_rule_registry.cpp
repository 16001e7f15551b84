// The registry: op name -> rule family. The families live in their own
// files (see rule_families.h); this file holds the name tables, the ops
// deliberately left without a rule, and the "unknown op" warnings.
#include "rules/op_sharding_rule_registry.h"

#include <functional>
#include <set>
#include <string>
#include <unordered_map>

#include "rules/rule_families.h"

namespace shardscope::rules {

namespace detail {

void warnUnknownOnce(ir::DiagnosticSink* diags, const ir::Op& op, const std::string& message,
                     const std::string& prefix) {
  if (!diags) return;
  // Once per sink and kind, like the reference's once-per-process warning:
  // a module with a hundred unknown custom calls gives one line, not a hundred.
  static const std::string kSuffix = "is unknown to SDY sharding rule registry";
  for (const ir::Diagnostic& d : diags->all()) {
    const std::string& m = d.message;
    if (d.severity == ir::Severity::Warning && m.rfind(prefix, 0) == 0 && m.size() >= kSuffix.size() &&
        m.compare(m.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0)
      return;
  }
  diags->warning(op.loc(), message);
}

}  // namespace detail

namespace {

using detail::RuleContext;
using detail::RuleResult;
using RuleFn = std::function<RuleResult(const ir::Op&, const RuleContext&)>;

// Elementwise ops: one factor per dimension, shared by every tensor.
//   stablehlo.add on tensor<2x0x4>: ([i, j, k], [i, j, k])->([i, j, k]) {i=2, j=0, k=4}
//   on tensor<f32>:                  ([], [])->([])
const char* const kPointwiseOps[] = {
    "sdy.sharding_constraint",
    "stablehlo.abs",
    "stablehlo.add",
    "stablehlo.all_reduce",
    "stablehlo.and",
    "stablehlo.atan2",
    "stablehlo.cbrt",
    "stablehlo.ceil",
    "stablehlo.count_leading_zeros",
    "stablehlo.collective_broadcast",
    "stablehlo.collective_permute",
    "stablehlo.compare",
    "stablehlo.complex",
    "stablehlo.convert",
    "stablehlo.cosine",
    "stablehlo.cross-replica-sum",
    "stablehlo.divide",
    "stablehlo.exponential",
    "stablehlo.exponential_minus_one",
    "stablehlo.floor",
    "stablehlo.imag",
    "stablehlo.is_finite",
    "stablehlo.log_plus_one",
    "stablehlo.log",
    "stablehlo.logistic",
    "stablehlo.maximum",
    "stablehlo.minimum",
    "stablehlo.multiply",
    "stablehlo.negate",
    "stablehlo.not",
    "stablehlo.or",
    "stablehlo.popcnt",
    "stablehlo.power",
    "stablehlo.real",
    "stablehlo.reduce_precision",
    "stablehlo.remainder",
    "stablehlo.round_nearest_even",
    "stablehlo.round_nearest_afz",
    "stablehlo.rsqrt",
    "stablehlo.shift_left",
    "stablehlo.shift_right_arithmetic",
    "stablehlo.shift_right_logical",
    "stablehlo.sign",
    "stablehlo.sine",
    "stablehlo.sqrt",
    "stablehlo.subtract",
    "stablehlo.tan",
    "stablehlo.tanh",
    "stablehlo.xor",
};

// Ops that get no rule and no warning: structure (module, functions, calls),
// ops propagation handles through data-flow edges (while, case,
// optimization_barrier, named/manual computations), constants and other
// ops with nothing to propagate, and sdy bookkeeping ops.
const char* const kOpsWithoutRule[] = {
    "builtin.module",
    "module",
    "func.func",
    "func.call",
    "sdy.constant",
    "sdy.data_flow_edge",
    "sdy.func_data_flow_edge",
    "sdy.manual_computation",
    "sdy.mesh",
    "sdy.named_computation",
    "sdy.propagation_barrier",
    "sdy.reshard",
    "sdy.sharding_group",
    "stablehlo.after_all",
    "stablehlo.case",
    "stablehlo.constant",
    "stablehlo.create_token",
    "stablehlo.get_tuple_element",
    "stablehlo.infeed",
    "stablehlo.iota",
    "stablehlo.optimization_barrier",
    "stablehlo.outfeed",
    "stablehlo.partition_id",
    "stablehlo.recv",
    "stablehlo.send",
    "stablehlo.while",
};

const std::unordered_map<std::string, RuleFn>& familyTable() {
  static const std::unordered_map<std::string, RuleFn> table = [] {
    std::unordered_map<std::string, RuleFn> t;
    auto pointwise = [](const ir::Op& op, const RuleContext&) {
      return OpShardingRuleBuilder::buildPointwise(op);
    };
    for (const char* name : kPointwiseOps) t[name] = pointwise;
    t["stablehlo.all_gather"] = detail::allGatherRule;
    t["stablehlo.all_to_all"] = detail::allToAllRule;
    t["stablehlo.batch_norm_inference"] = detail::batchNormInferenceRule;
    t["stablehlo.bitcast_convert"] = detail::bitcastConvertRule;
    t["stablehlo.broadcast_in_dim"] = detail::broadcastInDimRule;
    t["stablehlo.cholesky"] = detail::choleskyRule;
    t["stablehlo.clamp"] = detail::clampRule;
    t["stablehlo.concatenate"] = detail::concatenateRule;
    t["stablehlo.convolution"] = detail::convolutionRule;
    t["stablehlo.custom_call"] = detail::customCallRule;
    t["stablehlo.dot"] = detail::dotRule;
    t["stablehlo.dot_general"] = detail::dotGeneralRule;
    t["stablehlo.dynamic_slice"] = detail::dynamicSliceRule;
    t["stablehlo.dynamic_update_slice"] = detail::dynamicUpdateSliceRule;
    t["stablehlo.fft"] = detail::fftRule;
    t["stablehlo.gather"] = detail::gatherRule;
    t["stablehlo.pad"] = detail::padRule;
    t["stablehlo.reduce"] = detail::reduceRule;
    t["stablehlo.reduce_scatter"] = detail::reduceScatterRule;
    t["stablehlo.reduce_window"] = detail::reduceWindowRule;
    t["stablehlo.reshape"] = detail::reshapeRule;
    t["stablehlo.reverse"] = detail::reverseRule;
    t["stablehlo.rng_bit_generator"] = detail::rngBitGeneratorRule;
    t["stablehlo.scatter"] = detail::scatterRule;
    t["stablehlo.select_and_scatter"] = detail::selectAndScatterRule;
    t["stablehlo.select"] = detail::selectRule;
    t["stablehlo.slice"] = detail::sliceRule;
    t["stablehlo.sort"] = detail::sortRule;
    t["stablehlo.transpose"] = detail::transposeRule;
    t["stablehlo.triangular_solve"] = detail::triangularSolveRule;
    return t;
  }();
  return table;
}

bool isWithoutRule(const std::string& name) {
  static const std::set<std::string> names(std::begin(kOpsWithoutRule), std::end(kOpsWithoutRule));
  return names.count(name) != 0;
}

// Our IR has no op traits, so terminators are recognised by name:
// `func.return`, `stablehlo.return`, `sdy.return`, `scf.yield`, ...
bool isTerminator(const std::string& name) {
  auto endsWith = [&](const char* suffix) {
    std::string s(suffix);
    return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
  };
  return name == "return" || name == "yield" || endsWith(".return") || endsWith(".yield");
}

}  // namespace

std::optional<OpShardingRule> createOpShardingRule(const ir::Op& op, bool conservativePropagation,
                                                   ir::DiagnosticSink* diags) {
  RuleContext ctx{conservativePropagation, diags};
  const auto& table = familyTable();
  if (auto it = table.find(op.name()); it != table.end()) return it->second(op, ctx);
  if (isWithoutRule(op.name()) || isTerminator(op.name())) return std::nullopt;
  detail::warnUnknownOnce(diags, op,
                          "op '" + op.name() + "' is unknown to SDY sharding rule registry", "op '");
  return std::nullopt;
}

bool ruleDependsOnlyOnSignature(const ir::Op& op) {
  // Keep in step with the rule families: any of them that starts reading
  // beyond its own op's types and attributes belongs here.
  static const std::string* const kContextual[] = {
      &ir::Op::internOpName("stablehlo.concatenate"), &ir::Op::internOpName("stablehlo.dynamic_update_slice"),
      &ir::Op::internOpName("stablehlo.custom_call"), &ir::Op::internOpName("stablehlo.scatter")};
  for (const std::string* name : kContextual)
    if (&op.name() == name) return false;
  return true;
}

const OpShardingRule* existingOpShardingRule(const ir::Op& op) {
  const ir::Attribute* attr = op.attr(kShardingRuleAttr);
  return attr ? attr->as<OpShardingRule>() : nullptr;
}

std::optional<OpShardingRule> getOrCreateOpShardingRule(ir::Op& op, bool conservativePropagation,
                                                        ir::DiagnosticSink* diags, bool setOnOp) {
  if (const OpShardingRule* existing = existingOpShardingRule(op)) return *existing;
  std::optional<OpShardingRule> rule = createOpShardingRule(op, conservativePropagation, diags);
  if (rule && setOnOp) op.setAttr(kShardingRuleAttr, ir::Attribute(*rule), /*inherent=*/false);
  return rule;
}

}  // namespace shardscope::rules
