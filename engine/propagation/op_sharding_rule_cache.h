// One op sharding rule per op signature during a propagation run.
//
// A transformer-like module repeats a few hundred op signatures (name,
// operand and result types, attributes) thousands of times: every layer's
// `stablehlo.add` of two tensor<8x128x512xf32> has the same rule. Asking the
// registry once per signature, and giving every op alike the same immutable
// rule attribute, saves both the registry's work and the memory of one rule
// per op. Only ops whose rule depends on their signature alone are shared
// (rules::ruleDependsOnlyOnSignature); a creation that reported a diagnostic
// is never reused, so every op still gets its own warning.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/attribute.h"
#include "ir/diagnostics.h"
#include "ir/operation.h"

namespace shardscope::propagation {

class OpShardingRuleCache {
 public:
  // The registry's rule for `op` as a `sdy.sharding_rule` attribute value, or
  // nullopt when the op has none. Equal to
  // `rules::createOpShardingRule(op, conservativePropagation, diags)`.
  std::optional<ir::Attribute> ruleFor(const ir::Op& op, bool conservativePropagation, ir::DiagnosticSink* diags);

 private:
  // What the rule of a signature-only op is computed from. Discardable `sdy.`
  // attributes (the op's sharding, debug origins) are left out: no rule
  // reads them.
  struct Signature {
    const std::string* name = nullptr;
    bool conservative = false;
    std::vector<ir::TypeRef> operandTypes;
    std::vector<ir::TypeRef> resultTypes;
    std::vector<std::pair<std::string, ir::Attribute>> attrs;
    bool operator==(const Signature&) const = default;
  };
  struct Entry {
    Signature signature;
    ir::Attribute rule;
  };
  static size_t hashOf(const ir::Op& op);
  static bool matches(const Signature& s, const ir::Op& op, bool conservative);
  static Signature signatureOf(const ir::Op& op, bool conservative);

  // Entries by signature hash; equal hashes are told apart by comparing.
  std::unordered_multimap<size_t, Entry> entries_;
};

}  // namespace shardscope::propagation
