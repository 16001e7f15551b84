// Tests for engine/sharding/op_sharding_rule.cpp.
#include "sharding/op_sharding_rule.h"

#include <gtest/gtest.h>

namespace shardscope {
namespace {

TEST(OpShardingRuleTest, FactorNames) {
  const std::vector<std::pair<int64_t, std::string>> cases = {
      {0, "i"}, {1, "j"}, {2, "k"}, {17, "z"}, {18, "z_1"}, {19, "z_2"}, {27, "z_10"}};
  for (const auto& [index, name] : cases) EXPECT_EQ(OpShardingRule::factorName(index), name);
}

TEST(OpShardingRuleTest, Printing) {
  struct Case {
    OpShardingRule rule;
    std::string expected;
  };
  OpShardingRule matmul;
  matmul.factorSizes = {8, 16, 4};
  matmul.operands = {TensorFactorMapping{{{0}, {1}}}, TensorFactorMapping{{{1}, {2}}}};
  matmul.results = {TensorFactorMapping{{{0}, {2}}}};
  matmul.reductionFactors = {1};

  OpShardingRule scalar;
  scalar.operands = {TensorFactorMapping{}, TensorFactorMapping{}};
  scalar.results = {TensorFactorMapping{}};

  OpShardingRule nested;
  nested.factorSizes = {2, 4};
  nested.operands = {TensorFactorMapping{{{0}, {1}}}};
  nested.results = {TensorFactorMapping{{{0, 1}}}};

  OpShardingRule special;
  special.factorSizes = {2, 3, 5, 7};
  special.operands = {TensorFactorMapping{{{0}, {1}, {2}, {3}}}};
  special.results = {TensorFactorMapping{{{0}, {2}, {3}}}};
  special.reductionFactors = {1};
  special.needReplicationFactors = {0, 3};
  special.permutationFactors = {2};
  special.isCustom = true;

  OpShardingRule blocked = special;
  blocked.isCustom = false;
  blocked.blockedPropagationFactors = {3};

  OpShardingRule large;
  large.factorSizes = {8589934592};
  large.operands = {TensorFactorMapping{{{0}}}};
  large.results = {TensorFactorMapping{{{0}}}};
  large.isCustom = true;

  const std::vector<Case> cases = {
      {matmul, "([i, j], [j, k])->([i, k]) {i=8, j=16, k=4} reduction={j}"},
      {scalar, "([], [])->([])"},
      {nested, "([i, j])->([ij]) {i=2, j=4}"},
      {special,
       "([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} reduction={j} need_replication={i, l} "
       "permutation={k}, custom"},
      {blocked,
       "([i, j, k, l])->([i, k, l]) {i=2, j=3, k=5, l=7} reduction={j} need_replication={i, l} "
       "permutation={k} blocked_propagation={l}"},
      {large, "([i])->([i]) {i=8589934592}, custom"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(c.rule.strBody(), c.expected);
    EXPECT_EQ(c.rule.str(), "#sdy.op_sharding_rule<" + c.expected + ">");
  }
}

TEST(OpShardingRuleTest, ManyFactorsCompound) {
  OpShardingRule rule;
  rule.factorSizes.assign(28, 2);
  TensorFactorMapping in, out;
  for (int64_t i = 0; i < 28; ++i) in.dims.push_back({i});
  for (int64_t i = 0; i < 25; ++i) out.dims.push_back({i});
  out.dims.push_back({25, 26, 27});
  rule.operands = {in};
  rule.results = {out};
  std::string body = rule.strBody();
  EXPECT_NE(body.find("z_7, z_8z_9z_10])"), std::string::npos) << body;
  EXPECT_NE(body.find("z=2, z_1=2"), std::string::npos) << body;
}

TEST(OpShardingRuleTest, FactorQueries) {
  OpShardingRule rule;
  rule.factorSizes = {2, 3, 5, 7};
  rule.operands = {TensorFactorMapping{{{0}, {1, 2}}}};
  rule.results = {TensorFactorMapping{{{0}}}};
  rule.reductionFactors = {1};
  rule.needReplicationFactors = {2};
  rule.permutationFactors = {3};
  rule.blockedPropagationFactors = {3};
  EXPECT_EQ(rule.numFactors(), 4);
  EXPECT_EQ(rule.factorType(0), FactorType::Passthrough);
  EXPECT_EQ(rule.factorType(1), FactorType::Reduction);
  EXPECT_EQ(rule.factorType(2), FactorType::NeedReplication);
  EXPECT_EQ(rule.factorType(3), FactorType::Permutation);
  EXPECT_TRUE(rule.isBlocked(3));
  EXPECT_FALSE(rule.isBlocked(0));
  EXPECT_TRUE(rule.operands[0].mapsFactor(2));
  EXPECT_FALSE(rule.operands[0].mapsFactor(3));
  EXPECT_FALSE(rule.results[0].mapsFactor(1));
}

}  // namespace
}  // namespace shardscope
