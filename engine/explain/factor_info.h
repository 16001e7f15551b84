// What each factor of an op sharding rule is, in words: its name, size,
// kind (pass-through, reduction, need-replication, permutation), whether
// propagation along it is blocked, and, where the op tells us, its role
// (dot_general: batching / contracting / lhs non-contracting / rhs
// non-contracting; reduce: reduced).
//
// Example: `([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}` on
// `stablehlo.dot_general` gives i = lhs non-contracting, j = rhs
// non-contracting, k = contracting (reduction).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sharding/op_sharding_rule.h"

namespace shardscope::explain {

struct FactorInfo {
  int64_t index = 0;
  std::string name;  // "i", "j", ..., "z_1"
  int64_t size = 1;
  FactorType type = FactorType::Passthrough;
  bool blocked = false;
  std::string kind;  // "pass-through" | "reduction" | "need-replication" | "permutation"
  std::string role;  // "batching" | "contracting" | "lhs non-contracting" | ... | "" (no special role)
  // Tensors mapping the factor, counting operands first, then results.
  std::vector<size_t> tensors;
  // "contracting, reduction", "pass-through", "permutation, blocked".
  std::string kindsText() const;
  bool operator==(const FactorInfo&) const = default;
};

// "pass-through", "reduction", "need-replication", "permutation".
std::string factorKindName(FactorType type);

// One entry per factor of `rule`; `opName` (e.g. "stablehlo.dot_general")
// enables op-specific roles.
std::vector<FactorInfo> describeFactors(const OpShardingRule& rule, std::string_view opName);

// Parse the rule text a trace step records (`([i, j])->([i, j]) {i=8, j=8}`,
// with or without `#sdy.op_sharding_rule<...>`); nullopt when it does not parse.
std::optional<OpShardingRule> parseRuleText(const std::string& text);

// "operand-0" -> (false, 0), "result-1" -> (true, 1); nullopt otherwise.
struct TensorLabel {
  bool result = false;
  size_t index = 0;
};
std::optional<TensorLabel> parseTensorLabel(std::string_view label);
// Tensor index counting operands first (operand-1 of a 2-operand op is 1, result-0 is 2).
std::optional<size_t> tensorIndex(const OpShardingRule& rule, std::string_view label);
// The label of tensor index `i` ("operand-0" / "result-0").
std::string tensorLabel(const OpShardingRule& rule, size_t i);
// The mapping of tensor index `i` (operands first).
const TensorFactorMapping* tensorMapping(const OpShardingRule& rule, size_t i);
// The dimension of tensor index `i` that holds `factor`, or -1.
int64_t dimensionOfFactor(const OpShardingRule& rule, size_t tensor, int64_t factor);

// "stablehlo.dot_general" -> "dot_general".
std::string shortOpName(std::string_view opName);

}  // namespace shardscope::explain
