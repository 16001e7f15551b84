// Op sharding rules.
#include "sharding/op_sharding_rule.h"

#include <algorithm>

namespace shardscope {

namespace {

bool listHas(const std::vector<int64_t>& list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

std::string strMapping(const TensorFactorMapping& mapping) {
  std::string out = "[";
  for (size_t d = 0; d < mapping.dims.size(); ++d) {
    if (d) out += ", ";
    for (int64_t factor : mapping.dims[d]) out += OpShardingRule::factorName(factor);
  }
  out += ']';
  return out;
}

std::string strMappings(const std::vector<TensorFactorMapping>& mappings) {
  std::string out = "(";
  for (size_t i = 0; i < mappings.size(); ++i) {
    if (i) out += ", ";
    out += strMapping(mappings[i]);
  }
  out += ')';
  return out;
}

std::string strFactorSet(const char* label, const std::vector<int64_t>& factors) {
  if (factors.empty()) return {};
  std::string out = std::string(" ") + label + "={";
  for (size_t i = 0; i < factors.size(); ++i) {
    if (i) out += ", ";
    out += OpShardingRule::factorName(factors[i]);
  }
  out += '}';
  return out;
}

}  // namespace

bool TensorFactorMapping::mapsFactor(int64_t factor) const {
  for (const auto& dim : dims)
    if (listHas(dim, factor)) return true;
  return false;
}

FactorType OpShardingRule::factorType(int64_t factor) const {
  if (listHas(reductionFactors, factor)) return FactorType::Reduction;
  if (listHas(needReplicationFactors, factor)) return FactorType::NeedReplication;
  if (listHas(permutationFactors, factor)) return FactorType::Permutation;
  return FactorType::Passthrough;
}

bool OpShardingRule::isBlocked(int64_t factor) const {
  return listHas(blockedPropagationFactors, factor);
}

std::string OpShardingRule::factorName(int64_t i) {
  // 'i'..'z' is 18 letters; after that z_1, z_2, ...
  constexpr int64_t kLetters = 'z' - 'i' + 1;
  if (i < kLetters) return std::string(1, static_cast<char>('i' + i));
  return "z_" + std::to_string(i - kLetters + 1);
}

std::string OpShardingRule::strBody() const {
  std::string out = strMappings(operands) + "->" + strMappings(results);
  if (!factorSizes.empty()) {
    out += " {";
    for (size_t i = 0; i < factorSizes.size(); ++i) {
      if (i) out += ", ";
      out += factorName(static_cast<int64_t>(i)) + "=" + std::to_string(factorSizes[i]);
    }
    out += '}';
  }
  out += strFactorSet("reduction", reductionFactors);
  out += strFactorSet("need_replication", needReplicationFactors);
  out += strFactorSet("permutation", permutationFactors);
  out += strFactorSet("blocked_propagation", blockedPropagationFactors);
  if (isCustom) out += ", custom";
  return out;
}

std::string OpShardingRule::str() const { return "#sdy.op_sharding_rule<" + strBody() + ">"; }

}  // namespace shardscope
