// OpShardingRuleBuilder: factors, size-1 filling, pointwise helpers.
#include "rules/op_sharding_rule_builder.h"

#include <gtest/gtest.h>

namespace shardscope::rules {
namespace {

TEST(OpShardingRuleBuilder, MatmulByHand) {
  OpShardingRule rule = OpShardingRuleBuilder({2, 2}, {2})
                            .addFactor({0, kNullDim}, {0}, 8)
                            .addFactor({kNullDim, 1}, {1}, 16)
                            .addFactor({1, 0}, {kNullDim}, 32, FactorType::Reduction)
                            .build();
  EXPECT_EQ(rule.strBody(), "([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}");
  EXPECT_EQ(rule.factorType(2), FactorType::Reduction);
}

TEST(OpShardingRuleBuilder, BareDimsGetSizeOneFactorsOperandsFirst) {
  OpShardingRuleBuilder builder({2}, {1});
  builder.addFactor({0}, {0}, 4);
  EXPECT_EQ(builder.build().strBody(), "([i, j])->([i]) {i=4, j=1}");
  // build() leaves the builder as it was.
  EXPECT_EQ(builder.numFactors(), 1);
  EXPECT_EQ(builder.build().strBody(), "([i, j])->([i]) {i=4, j=1}");
}

TEST(OpShardingRuleBuilder, SizeOneFactorSkipsAMappedDim) {
  OpShardingRule rule = OpShardingRuleBuilder({1}, {2})
                            .addFactor({0}, {0}, 8)
                            .addFactor({0}, {1}, 1)  // not added to operand dim 0
                            .build();
  EXPECT_EQ(rule.strBody(), "([i])->([i, j]) {i=8, j=1}");
}

TEST(OpShardingRuleBuilder, CompoundFactors) {
  OpShardingRule rule = OpShardingRuleBuilder({1}, {2})
                            .addFactor({0}, {0}, 2)
                            .addFactor({0}, {1}, 4)
                            .build();
  EXPECT_EQ(rule.strBody(), "([ij])->([i, j]) {i=2, j=4}");
  EXPECT_EQ(rule.operands[0].dims[0], (std::vector<int64_t>{0, 1}));
}

TEST(OpShardingRuleBuilder, PointwiseSkipsScalars) {
  OpShardingRule rule =
      OpShardingRuleBuilder({0, 2, 0}, {2}).addPointwise({4, 8}).build();
  EXPECT_EQ(rule.strBody(), "([], [i, j], [])->([i, j]) {i=4, j=8}");
}

TEST(OpShardingRuleBuilder, PointwiseWithTypesAndBlocking) {
  OpShardingRule rule =
      OpShardingRuleBuilder({2}, {2})
          .addPointwise(
              {16, 8}, [](int64_t d) { return d == 1 ? FactorType::Permutation : FactorType::Passthrough; },
              [](FactorType t) { return t == FactorType::Permutation; })
          .build();
  EXPECT_EQ(rule.strBody(),
            "([i, j])->([i, j]) {i=16, j=8} permutation={j} blocked_propagation={j}");
}

TEST(OpShardingRuleBuilder, PointwiseIf) {
  OpShardingRule rule = OpShardingRuleBuilder({2}, {2})
                            .addPointwiseIf({2, 4}, [](int64_t d) { return d != 1; })
                            .addFactorToAllOperands(1, 4, FactorType::NeedReplication)
                            .addFactorToAllResults(1, 8, FactorType::NeedReplication)
                            .build();
  EXPECT_EQ(rule.strBody(), "([i, j])->([i, k]) {i=2, j=4, k=8} need_replication={j, k}");
}

TEST(OpShardingRuleBuilder, MismatchedDims) {
  OpShardingRule rule = OpShardingRuleBuilder({3}, {3})
                            .addPointwiseWithDiffTypeForMismatch({32, 4, 8}, {32, 1, 2},
                                                                 FactorType::NeedReplication, true)
                            .build();
  EXPECT_EQ(rule.strBody(),
            "([i, j, k])->([i, j, k]) {i=32, j=4, k=8} need_replication={j, k} "
            "blocked_propagation={j, k}");
}

TEST(OpShardingRuleBuilder, IdentityRule) {
  EXPECT_EQ(createIdentityShardingRule({4, 2}, 2, 1).strBody(),
            "([i, j], [i, j])->([i, j]) {i=4, j=2}");
  EXPECT_EQ(createIdentityShardingRule({}, 1, 1).strBody(), "([])->([])");
}

TEST(OpShardingRuleBuilder, BuildPointwiseFromOp) {
  ir::Module module = ir::makeEmptyModule();
  ir::Block& body = module.body();
  ir::Value* a = body.addArgument(ir::Type::tensor({2, 0, 4}, "f32"));
  auto op = std::make_unique<ir::Op>("stablehlo.add");
  op->addOperand(a);
  op->addOperand(a);
  op->addResult(ir::Type::tensor({2, 0, 4}, "f32"));
  ir::Op* add = body.append(std::move(op));
  auto rule = OpShardingRuleBuilder::buildPointwise(*add);
  ASSERT_TRUE(rule);
  EXPECT_EQ(rule->strBody(), "([i, j, k], [i, j, k])->([i, j, k]) {i=2, j=0, k=4}");

  auto token = std::make_unique<ir::Op>("stablehlo.after_all");
  token->addResult(ir::Type::token());
  EXPECT_FALSE(OpShardingRuleBuilder::buildPointwise(*body.append(std::move(token))));
}

}  // namespace
}  // namespace shardscope::rules
