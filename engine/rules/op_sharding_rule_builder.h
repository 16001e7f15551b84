// Incremental construction of an `OpShardingRule`: add factors one at a time
// and say which dimension of which operand/result each one maps to.
//
// Worked example, a matmul `tensor<8x32> x tensor<32x16> -> tensor<8x16>`:
//   OpShardingRuleBuilder b({2, 2}, {2});
//   b.addFactor({0, kNullDim}, {0}, 8);                       // i: lhs rows
//   b.addFactor({kNullDim, 1}, {1}, 16);                      // j: rhs cols
//   b.addFactor({1, 0}, {kNullDim}, 32, FactorType::Reduction);  // k
//   b.build()  ->  ([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "ir/operation.h"
#include "sharding/op_sharding_rule.h"

namespace shardscope::rules {

// "This tensor has no dimension for this factor."
inline constexpr int64_t kNullDim = -1;

// The rank a value contributes to a rule: tensors their rank, anything else
// (tokens, tuples, plain scalars) 0.
int64_t ruleRank(const ir::Type& type);

class OpShardingRuleBuilder {
 public:
  using FactorTypeFn = std::function<FactorType(int64_t dim)>;

  // One rank per operand and per result.
  OpShardingRuleBuilder(const std::vector<int64_t>& operandRanks,
                        const std::vector<int64_t>& resultRanks);
  // Ranks taken from the op's operand and result types.
  explicit OpShardingRuleBuilder(const ir::Op& op);

  // The rule so far. Every dimension still without a factor gets a fresh
  // size-1 factor (operands first, then results, in dimension order), so that
  // `([i, j])->([i])` for a 2x1 -> 2 op reads `{i=2, j=1}`. The builder
  // itself is left unchanged.
  OpShardingRule build() const&;
  // As build(), moving the mappings out of the builder instead of copying them.
  OpShardingRule build() &&;

  // The rule of an elementwise op: factor d maps dimension d of every tensor
  // (scalars map nothing). Taken from the first result's shape; nullopt when
  // that result is not a tensor.
  //   add(tensor<4x8>, tensor<4x8>) -> ([i, j], [i, j])->([i, j]) {i=4, j=8}
  static std::optional<OpShardingRule> buildPointwise(const ir::Op& op);

  // New factor of `size` mapped to `operandDims[k]` of operand k and
  // `resultDims[k]` of result k (kNullDim: not mapped). Both lists must have
  // one entry per operand/result. A size-1 factor is not added to a dimension
  // that already has a factor (it would say nothing).
  OpShardingRuleBuilder& addFactor(const std::vector<int64_t>& operandDims,
                                   const std::vector<int64_t>& resultDims, int64_t size,
                                   FactorType type = FactorType::Passthrough,
                                   bool blocked = false);
  // New factor mapped to dimension `dim` of every operand and result of rank >= 1.
  OpShardingRuleBuilder& addFactorToAll(int64_t dim, int64_t size,
                                        FactorType type = FactorType::Passthrough,
                                        bool blocked = false);
  // New factor mapped to dimension `dim` of every operand of rank >= 1 only.
  OpShardingRuleBuilder& addFactorToAllOperands(int64_t dim, int64_t size,
                                                FactorType type = FactorType::Passthrough,
                                                bool blocked = false);
  // New factor mapped to dimension `dim` of every result of rank >= 1 only.
  OpShardingRuleBuilder& addFactorToAllResults(int64_t dim, int64_t size,
                                               FactorType type = FactorType::Passthrough,
                                               bool blocked = false);

  // `addFactorToAll(d, shape[d], typeOf(d), blockedIf(typeOf(d)))` for every d.
  OpShardingRuleBuilder& addPointwise(const std::vector<int64_t>& shape,
                                      const FactorTypeFn& typeOf = nullptr,
                                      const std::function<bool(FactorType)>& blockedIf = nullptr);
  // Same, only for the dimensions where `keep(d)` holds.
  OpShardingRuleBuilder& addPointwiseIf(const std::vector<int64_t>& shape,
                                        const std::function<bool(int64_t)>& keep,
                                        const FactorTypeFn& typeOf = nullptr);
  // Pointwise over `inShape`, except that a dimension whose size differs in
  // `outShape` (sliced, padded, top-k'd) gets `mismatchType`, blocked when
  // `mismatchBlocked`:
  //   slice 8x16 -> 8x4: ([i, j])->([i, j]) {i=8, j=16} permutation={j}
  OpShardingRuleBuilder& addPointwiseWithDiffTypeForMismatch(
      const std::vector<int64_t>& inShape, const std::vector<int64_t>& outShape,
      FactorType mismatchType = FactorType::NeedReplication, bool mismatchBlocked = false);

  int64_t numFactors() const { return static_cast<int64_t>(factorSizes_.size()); }

 private:
  using Mapping = std::vector<std::vector<int64_t>>;  // dim -> factors
  int64_t newFactor(int64_t size, FactorType type, bool blocked);
  static void mapDims(std::vector<Mapping>& tensors, const std::vector<int64_t>& dims,
                      int64_t factor, int64_t size);
  static void mapDimOfAll(std::vector<Mapping>& tensors, int64_t dim, int64_t factor);

  std::vector<int64_t> factorSizes_;
  std::vector<Mapping> operands_;
  std::vector<Mapping> results_;
  std::vector<int64_t> reduction_, needReplication_, permutation_, blocked_;
};

// The rule of an op whose operands and results all have `shape` and line up
// dimension by dimension: `n` operands and `m` results of `[i, j, ...]`.
OpShardingRule createIdentityShardingRule(const std::vector<int64_t>& shape, size_t numOperands = 1,
                                          size_t numResults = 1);

}  // namespace shardscope::rules
