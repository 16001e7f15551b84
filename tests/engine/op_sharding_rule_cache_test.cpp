// OpShardingRuleCache: ops alike in name, types and attributes share one rule
// attribute; anything a rule may read that differs gives its own rule; ops
// whose rule reads beyond their signature, and creations that reported a
// diagnostic, are never shared. Every answer equals the registry's.
#include "propagation/op_sharding_rule_cache.h"

#include <gtest/gtest.h>

#include "rules/op_sharding_rule_registry.h"

namespace shardscope::propagation {
namespace {

using Shape = std::vector<int64_t>;

class OpShardingRuleCacheTest : public ::testing::Test {
 protected:
  ir::Value* arg(const Shape& shape, const std::string& elementType = "f32") {
    return module.body().addArgument(ir::Type::tensor(shape, elementType));
  }
  ir::Op& op(const std::string& name, const std::vector<ir::Value*>& operands, const std::vector<Shape>& results,
             const std::vector<std::pair<std::string, ir::Attribute>>& attrs = {}) {
    auto o = std::make_unique<ir::Op>(name, ir::SourceLoc{++line, 3});
    for (ir::Value* v : operands) o->addOperand(v);
    for (const Shape& s : results) o->addResult(ir::Type::tensor(s, "f32"));
    for (const auto& [k, v] : attrs) o->setAttr(k, v, /*inherent=*/!k.starts_with("sdy."));
    return *module.body().append(std::move(o));
  }
  // The cached rule's text, checked against the registry's own answer.
  std::string cachedRule(const ir::Op& o, bool conservative = false) {
    std::optional<ir::Attribute> cached = cache.ruleFor(o, conservative, &diags);
    ir::DiagnosticSink scratch;
    std::optional<OpShardingRule> direct = rules::createOpShardingRule(o, conservative, &scratch);
    EXPECT_EQ(cached.has_value(), direct.has_value());
    if (!cached || !direct) return "<none>";
    const auto* rule = cached->as<OpShardingRule>();
    EXPECT_NE(rule, nullptr);
    if (!rule) return "<not a rule>";
    EXPECT_EQ(*rule, *direct);
    return rule->strBody();
  }
  const OpShardingRule* rulePointer(const ir::Op& o, bool conservative = false) {
    std::optional<ir::Attribute> cached = cache.ruleFor(o, conservative, &diags);
    return cached ? cached->as<OpShardingRule>() : nullptr;
  }

  ir::Module module = ir::makeEmptyModule();
  ir::DiagnosticSink diags;
  OpShardingRuleCache cache;
  uint32_t line = 0;
};

TEST_F(OpShardingRuleCacheTest, OpsAlikeShareOneRule) {
  ir::Value* a = arg({8, 16});
  ir::Value* b = arg({8, 16});
  ir::Op& add1 = op("stablehlo.add", {a, b}, {{8, 16}});
  ir::Op& add2 = op("stablehlo.add", {b, a}, {{8, 16}});
  EXPECT_EQ(cachedRule(add1), "([i, j], [i, j])->([i, j]) {i=8, j=16}");
  EXPECT_EQ(cachedRule(add2), "([i, j], [i, j])->([i, j]) {i=8, j=16}");
  EXPECT_EQ(rulePointer(add1), rulePointer(add2));
}

TEST_F(OpShardingRuleCacheTest, ShardingsAndOtherSdyAttributesDoNotSplitSignatures) {
  ir::Value* a = arg({8, 16});
  ir::Op& plain = op("stablehlo.negate", {a}, {{8, 16}});
  ir::Op& sharded =
      op("stablehlo.negate", {a}, {{8, 16}}, {{"sdy.sharding", ir::Attribute(ir::OpaqueAttr{"anything"})}});
  EXPECT_EQ(rulePointer(plain), rulePointer(sharded));
  EXPECT_NE(rulePointer(plain), nullptr);
}

struct Variant {
  const char* what;
  Shape secondShape;
  const char* secondName;
  bool conservative;
};

class OpShardingRuleCacheVariantTest : public OpShardingRuleCacheTest,
                                       public ::testing::WithParamInterface<Variant> {};

// Each of these differs from `stablehlo.transpose` of tensor<8x16> with
// permutation [1, 0] (non-conservative) in one thing a rule may read.
TEST_P(OpShardingRuleCacheVariantTest, DifferentSignaturesGetTheirOwnRule) {
  const Variant& v = GetParam();
  auto perm = [](Shape p) { return ir::Attribute(ir::DenseArrayAttr{"i64", std::move(p)}); };
  ir::Value* a = arg({8, 16});
  ir::Value* c = arg(v.secondShape);
  ir::Op& first = op("stablehlo.transpose", {a}, {{16, 8}}, {{"permutation", perm({1, 0})}});
  Shape secondResult = v.secondShape;
  std::vector<std::pair<std::string, ir::Attribute>> attrs = {{"permutation", perm({1, 0})}};
  if (std::string(v.secondName) == "stablehlo.transpose") std::swap(secondResult[0], secondResult[1]);
  if (std::string(v.what) == "permutation") {
    attrs = {{"permutation", perm({0, 1})}};
    secondResult = v.secondShape;
  }
  ir::Op& second = op(v.secondName, {c}, {secondResult}, attrs);
  std::string r1 = cachedRule(first);
  std::string r2 = cachedRule(second, v.conservative);
  EXPECT_NE(rulePointer(first), rulePointer(second, v.conservative)) << v.what;
  EXPECT_FALSE(r1.empty());
  EXPECT_FALSE(r2.empty());
}

INSTANTIATE_TEST_SUITE_P(Signatures, OpShardingRuleCacheVariantTest,
                         ::testing::Values(Variant{"shape", {4, 16}, "stablehlo.transpose", false},
                                           Variant{"permutation", {8, 16}, "stablehlo.transpose", false},
                                           Variant{"conservative", {8, 16}, "stablehlo.transpose", true}),
                         [](const auto& info) { return std::string(info.param.what); });

TEST_F(OpShardingRuleCacheTest, RulesReadingBeyondTheSignatureAreNotShared) {
  // A concatenate of slices of one tensor gets a permutation factor; of
  // plain arguments, a need-replication one: same signature, two rules.
  ir::Value* whole = arg({8, 16});
  ir::Value* x = arg({4, 16});
  ir::Value* y = arg({4, 16});
  auto dense = [](Shape p) { return ir::Attribute(ir::DenseArrayAttr{"i64", std::move(p)}); };
  ir::Op& s1 = op("stablehlo.slice", {whole}, {{4, 16}},
                  {{"start_indices", dense({0, 0})}, {"limit_indices", dense({4, 16})}, {"strides", dense({1, 1})}});
  ir::Op& s2 = op("stablehlo.slice", {whole}, {{4, 16}},
                  {{"start_indices", dense({4, 0})}, {"limit_indices", dense({8, 16})}, {"strides", dense({1, 1})}});
  ir::Attribute dim = ir::IntegerAttr{0, "i64"};
  ir::Op& ofSlices = op("stablehlo.concatenate", {s1.result(0), s2.result(0)}, {{8, 16}}, {{"dimension", dim}});
  ir::Op& ofArgs = op("stablehlo.concatenate", {x, y}, {{8, 16}}, {{"dimension", dim}});
  EXPECT_FALSE(rules::ruleDependsOnlyOnSignature(ofSlices));
  std::string r1 = cachedRule(ofSlices);
  std::string r2 = cachedRule(ofArgs);
  EXPECT_NE(r1, r2);
}

TEST_F(OpShardingRuleCacheTest, OpsWithoutRuleGetNone) {
  ir::Op& c1 = op("stablehlo.constant", {}, {{4}}, {{"value", ir::Attribute(ir::OpaqueAttr{"dense<1.0>"})}});
  ir::Op& c2 = op("stablehlo.constant", {}, {{4}}, {{"value", ir::Attribute(ir::OpaqueAttr{"dense<1.0>"})}});
  EXPECT_EQ(cachedRule(c1), "<none>");
  EXPECT_EQ(cachedRule(c2), "<none>");
  EXPECT_TRUE(diags.all().empty());
}

TEST_F(OpShardingRuleCacheTest, UnknownOpsStillWarnOncePerSink) {
  ir::Value* a = arg({4});
  ir::Op& u1 = op("mydialect.mystery", {a}, {{4}});
  ir::Op& u2 = op("mydialect.mystery", {a}, {{4}});
  EXPECT_EQ(rulePointer(u1), nullptr);
  EXPECT_EQ(rulePointer(u2), nullptr);
  ASSERT_EQ(diags.all().size(), 1u);
  EXPECT_NE(diags.all()[0].message.find("'mydialect.mystery' is unknown"), std::string::npos);
  // A fresh sink (another run) hears the warning again: "no rule" is never
  // cached.
  ir::DiagnosticSink other;
  EXPECT_FALSE(cache.ruleFor(u1, false, &other).has_value());
  EXPECT_EQ(other.all().size(), 1u);
}

}  // namespace
}  // namespace shardscope::propagation
