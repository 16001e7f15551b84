// Factor descriptions (see factor_info.h).
#include "explain/factor_info.h"

#include <algorithm>

#include "ir/diagnostics.h"
#include "ir/parser.h"

namespace shardscope::explain {

std::string factorKindName(FactorType type) {
  switch (type) {
    case FactorType::Passthrough: return "pass-through";
    case FactorType::Reduction: return "reduction";
    case FactorType::NeedReplication: return "need-replication";
    case FactorType::Permutation: return "permutation";
  }
  return "pass-through";
}

std::string FactorInfo::kindsText() const {
  std::string out;
  if (!role.empty()) out = role + ", ";
  out += kind;
  if (blocked) out += ", blocked";
  return out;
}

std::string shortOpName(std::string_view opName) {
  size_t dot = opName.find('.');
  if (dot == std::string_view::npos) return std::string(opName);
  return std::string(opName.substr(dot + 1));
}

const TensorFactorMapping* tensorMapping(const OpShardingRule& rule, size_t i) {
  if (i < rule.operands.size()) return &rule.operands[i];
  i -= rule.operands.size();
  if (i < rule.results.size()) return &rule.results[i];
  return nullptr;
}

int64_t dimensionOfFactor(const OpShardingRule& rule, size_t tensor, int64_t factor) {
  const TensorFactorMapping* m = tensorMapping(rule, tensor);
  if (!m) return -1;
  for (size_t d = 0; d < m->dims.size(); ++d)
    for (int64_t f : m->dims[d])
      if (f == factor) return static_cast<int64_t>(d);
  return -1;
}

std::vector<FactorInfo> describeFactors(const OpShardingRule& rule, std::string_view opName) {
  std::vector<FactorInfo> out;
  const std::string shortName = shortOpName(opName);
  const bool isDot = shortName == "dot_general" || shortName == "dot";
  const bool isReduce = shortName == "reduce" || shortName == "reduce_window" || shortName == "all_reduce";
  const size_t nTensors = rule.operands.size() + rule.results.size();
  for (int64_t f = 0; f < rule.numFactors(); ++f) {
    FactorInfo info;
    info.index = f;
    info.name = OpShardingRule::factorName(f);
    info.size = rule.factorSizes[static_cast<size_t>(f)];
    info.type = rule.factorType(f);
    info.blocked = rule.isBlocked(f);
    info.kind = factorKindName(info.type);
    for (size_t t = 0; t < nTensors; ++t)
      if (tensorMapping(rule, t)->mapsFactor(f)) info.tensors.push_back(t);
    if (isDot && rule.operands.size() >= 2 && !rule.results.empty()) {
      const bool lhs = rule.operands[0].mapsFactor(f);
      const bool rhs = rule.operands[1].mapsFactor(f);
      const bool res = rule.results[0].mapsFactor(f);
      if (lhs && rhs && res) info.role = "batching";
      else if (lhs && rhs) info.role = "contracting";
      else if (lhs && res) info.role = "lhs non-contracting";
      else if (rhs && res) info.role = "rhs non-contracting";
    } else if (isReduce && info.type == FactorType::Reduction) {
      info.role = "reduced";
    }
    out.push_back(std::move(info));
  }
  return out;
}

std::optional<OpShardingRule> parseRuleText(const std::string& text) {
  std::string t = text;
  if (t.rfind("#sdy.op_sharding_rule", 0) != 0) t = "#sdy.op_sharding_rule<" + t + ">";
  ir::DiagnosticSink diags;
  std::optional<ir::Attribute> a = ir::parseAttribute(t, diags);
  if (!a || diags.hasErrors()) return std::nullopt;
  if (const auto* r = a->as<OpShardingRule>()) return *r;
  return std::nullopt;
}

std::optional<TensorLabel> parseTensorLabel(std::string_view label) {
  TensorLabel out;
  std::string_view rest;
  if (label.rfind("operand-", 0) == 0) {
    rest = label.substr(8);
  } else if (label.rfind("result-", 0) == 0) {
    out.result = true;
    rest = label.substr(7);
  } else {
    return std::nullopt;
  }
  if (rest.empty() || !std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  out.index = static_cast<size_t>(std::stoul(std::string(rest)));
  return out;
}

std::optional<size_t> tensorIndex(const OpShardingRule& rule, std::string_view label) {
  auto l = parseTensorLabel(label);
  if (!l) return std::nullopt;
  if (l->result) {
    if (l->index >= rule.results.size()) return std::nullopt;
    return rule.operands.size() + l->index;
  }
  if (l->index >= rule.operands.size()) return std::nullopt;
  return l->index;
}

std::string tensorLabel(const OpShardingRule& rule, size_t i) {
  if (i < rule.operands.size()) return "operand-" + std::to_string(i);
  return "result-" + std::to_string(i - rule.operands.size());
}

}  // namespace shardscope::explain
