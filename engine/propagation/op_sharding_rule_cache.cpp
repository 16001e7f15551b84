// One op sharding rule per op signature (see op_sharding_rule_cache.h).
#include "propagation/op_sharding_rule_cache.h"

#include <functional>

#include "propagation/hash_combine.h"
#include "rules/op_sharding_rule_registry.h"

namespace shardscope::propagation {

namespace {

bool isDiscardableSdyAttr(const std::string& name) { return name.compare(0, 4, "sdy.") == 0; }

// Types are interned (ir::TypeRef): equal types are one object, so its
// address identifies the type.
void hashType(size_t& seed, const ir::TypeRef& t) { hashCombine(seed, std::hash<const void*>{}(&*t)); }

}  // namespace

size_t OpShardingRuleCache::hashOf(const ir::Op& op) {
  size_t seed = std::hash<const void*>{}(&op.name());
  hashCombine(seed, op.numOperands());
  for (const ir::Value* v : op.operands()) hashType(seed, v->type);
  hashCombine(seed, op.numResults());
  for (unsigned i = 0; i < op.numResults(); ++i) hashType(seed, op.result(i)->type);
  // Attribute names only: values are compared on a hash match.
  for (const ir::Op::Attr& a : op.attrs())
    if (!isDiscardableSdyAttr(a.name)) hashCombine(seed, std::hash<std::string>{}(a.name));
  return seed;
}

bool OpShardingRuleCache::matches(const Signature& s, const ir::Op& op, bool conservative) {
  if (s.name != &op.name() || s.conservative != conservative || s.operandTypes.size() != op.numOperands() ||
      s.resultTypes.size() != op.numResults())
    return false;
  for (unsigned i = 0; i < op.numOperands(); ++i)
    if (!(s.operandTypes[i] == op.operand(i)->type)) return false;
  for (unsigned i = 0; i < op.numResults(); ++i)
    if (!(s.resultTypes[i] == op.result(i)->type)) return false;
  size_t k = 0;
  for (const ir::Op::Attr& a : op.attrs()) {
    if (isDiscardableSdyAttr(a.name)) continue;
    if (k >= s.attrs.size() || s.attrs[k].first != a.name || !(s.attrs[k].second == a.value)) return false;
    ++k;
  }
  return k == s.attrs.size();
}

OpShardingRuleCache::Signature OpShardingRuleCache::signatureOf(const ir::Op& op, bool conservative) {
  Signature s;
  s.name = &op.name();
  s.conservative = conservative;
  for (const ir::Value* v : op.operands()) s.operandTypes.push_back(v->type);
  for (unsigned i = 0; i < op.numResults(); ++i) s.resultTypes.push_back(op.result(i)->type);
  for (const ir::Op::Attr& a : op.attrs())
    if (!isDiscardableSdyAttr(a.name)) s.attrs.emplace_back(a.name, a.value);
  return s;
}

std::optional<ir::Attribute> OpShardingRuleCache::ruleFor(const ir::Op& op, bool conservative,
                                                        ir::DiagnosticSink* diags) {
  auto create = [&]() -> std::optional<ir::Attribute> {
    std::optional<OpShardingRule> rule = rules::createOpShardingRule(op, conservative, diags);
    if (!rule) return std::nullopt;
    return ir::Attribute(std::move(*rule));
  };
  if (!rules::ruleDependsOnlyOnSignature(op)) return create();
  size_t hash = hashOf(op);
  auto [first, last] = entries_.equal_range(hash);
  for (auto it = first; it != last; ++it)
    if (matches(it->second.signature, op, conservative)) return it->second.rule;
  size_t diagsBefore = diags ? diags->all().size() : 0;
  std::optional<ir::Attribute> rule = create();
  // No rule (constants, terminators, unknown ops) is cheap to find again,
  // and an unknown op must reach the registry for its once-per-sink warning.
  if (rule && (!diags || diags->all().size() == diagsBefore))
    entries_.emplace(hash, Entry{signatureOf(op, conservative), *rule});
  return rule;
}

}  // namespace shardscope::propagation
