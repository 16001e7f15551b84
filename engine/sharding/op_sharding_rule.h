// `#sdy.op_sharding_rule<([i, j], [j, k])->([i, k]) {i=8, j=16, k=4} reduction={j}>`:
// how an op's tensor dimensions map to shared factors.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace shardscope {

enum class FactorType { Passthrough, Reduction, NeedReplication, Permutation };

// One tensor's mapping: for each dimension, the factor indices it is made of,
// major to minor (more than one for a compound dimension such as `[ij]`).
struct TensorFactorMapping {
  std::vector<std::vector<int64_t>> dims;
  bool operator==(const TensorFactorMapping&) const = default;
  // Does this tensor map `factor` in any dimension?
  bool mapsFactor(int64_t factor) const;
};

struct OpShardingRule {
  std::vector<int64_t> factorSizes;
  std::vector<TensorFactorMapping> operands;
  std::vector<TensorFactorMapping> results;
  std::vector<int64_t> reductionFactors;
  std::vector<int64_t> needReplicationFactors;
  std::vector<int64_t> permutationFactors;
  std::vector<int64_t> blockedPropagationFactors;
  bool isCustom = false;

  bool operator==(const OpShardingRule&) const = default;
  int64_t numFactors() const { return static_cast<int64_t>(factorSizes.size()); }
  FactorType factorType(int64_t factor) const;
  bool isBlocked(int64_t factor) const;
  // The printed name of factor `i`: i..z, then z_1, z_2, ...
  static std::string factorName(int64_t i);
  // Body text `([i, j], [j, k])->([i, k]) {i=8, j=16, k=4} reduction={j}`.
  std::string strBody() const;
  // `#sdy.op_sharding_rule<...>`.
  std::string str() const;
};

}  // namespace shardscope
