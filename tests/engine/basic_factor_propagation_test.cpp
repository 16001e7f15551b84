// Tests for engine/propagation/basic_factor_propagation.cpp, on factor tables
// built from plain values.
#include "propagation/basic_factor_propagation.h"

#include <gtest/gtest.h>

namespace shardscope::propagation {
namespace {

AxisRef ax(const std::string& name) { return AxisRef{.name = name, .subAxis = std::nullopt}; }
AxisRef sub(const std::string& name, int64_t pre, int64_t size) {
  return AxisRef{.name = name, .subAxis = SubAxisInfo{.preSize = pre, .size = size}};
}
FactorSharding open(AxisRefList axes, bool minorMost = true) {
  return FactorSharding{.axes = std::move(axes), .closed = false, .minorMost = minorMost, .overflowAxes = {}};
}
FactorSharding closed(AxisRefList axes) {
  return FactorSharding{.axes = std::move(axes), .closed = true, .minorMost = true, .overflowAxes = {}};
}
TensorFactorShardings row(std::map<int64_t, FactorSharding> factors, AxisRefList replicated = {}) {
  TensorFactorShardings r;
  r.factors = std::move(factors);
  r.replicated = std::move(replicated);
  return r;
}

const Mesh kMesh{.axes = {{"a", 2}, {"b", 2}, {"c", 2}, {"x", 4}}, .deviceIds = {}};

UpdateTensorShardings run(ShardingProjection& p, const std::vector<int64_t>& sizes,
                          PropagationDirection dir = PropagationDirection::Both, bool conservative = false) {
  FactorPropagationContext ctx{sizes, kMesh, [dir](int64_t) { return dir; }, conservative, false};
  return BasicFactorPropagation().propagate(p, ctx);
}

TEST(BasicFactorPropagationTest, MatmulTakesNonContractingAxes) {
  // [{"a"}, {}] x [{}, {"b"}] with ([i, k], [k, j])->([i, j]) gives [{"a"}, {"b"}].
  ShardingProjection p{
      .operands = {row({{0, closed({ax("a")})}, {2, closed({})}}), row({{2, closed({})}, {1, closed({ax("b")})}})},
      .results = {row({{0, open({})}, {1, open({})}})}};
  UpdateTensorShardings u = run(p, {8, 16, 8});
  EXPECT_EQ(u.results, (std::vector<bool>{true}));
  EXPECT_EQ(u.operands, (std::vector<bool>{false, false}));
  EXPECT_EQ(p.results[0], row({{0, open({ax("a")})}, {1, open({ax("b")})}}));
}

TEST(BasicFactorPropagationTest, ConflictingAxesPropagateNothing) {
  ShardingProjection p{.operands = {row({{0, open({ax("a")})}}), row({{0, open({ax("b")})}})},
                       .results = {row({{0, open({})}})}};
  EXPECT_FALSE(run(p, {8}).any());
}

TEST(BasicFactorPropagationTest, LongerCompatibleAxesWin) {
  ShardingProjection p{.operands = {row({{0, open({ax("a")})}}), row({{0, open({ax("a"), ax("b")})}})},
                       .results = {row({{0, open({})}})}};
  UpdateTensorShardings u = run(p, {8});
  EXPECT_EQ(u.operands, (std::vector<bool>{true, false}));
  EXPECT_EQ(p.operands[0].factors.at(0).axes, (AxisRefList{ax("a"), ax("b")}));
  EXPECT_EQ(p.results[0].factors.at(0).axes, (AxisRefList{ax("a"), ax("b")}));
}

TEST(BasicFactorPropagationTest, ForwardIgnoresResultAxes) {
  ShardingProjection p{.operands = {row({{0, open({})}})}, .results = {row({{0, open({ax("a")})}})}};
  EXPECT_FALSE(run(p, {8}, PropagationDirection::Forward).any());
  EXPECT_TRUE(run(p, {8}, PropagationDirection::Backward).any());
  EXPECT_EQ(p.operands[0].factors.at(0).axes, (AxisRefList{ax("a")}));
}

TEST(BasicFactorPropagationTest, NoneDirectionPropagatesNothing) {
  ShardingProjection p{.operands = {row({{0, open({ax("a")})}})}, .results = {row({{0, open({})}})}};
  EXPECT_FALSE(run(p, {8}, PropagationDirection::None).any());
}

TEST(BasicFactorPropagationTest, ClosedTensorOnlyCuts) {
  // The closed result cannot take "a", so nobody gets it (basic needs agreement).
  ShardingProjection p{.operands = {row({{0, open({ax("a")})}}), row({{0, open({})}})},
                       .results = {row({{0, closed({})}})}};
  EXPECT_FALSE(run(p, {8}).any());
}

TEST(BasicFactorPropagationTest, NonMinorMostFactorNeedsDivisibility) {
  // Factor of size 3 that is not minor-most cannot take an axis of size 2.
  ShardingProjection p{.operands = {row({{0, open({ax("a")})}})}, .results = {row({{0, open({}, false)}})}};
  EXPECT_FALSE(run(p, {3}).any());
  // Minor-most factors may be padded.
  ShardingProjection q{.operands = {row({{0, open({ax("a")})}})}, .results = {row({{0, open({}, true)}})}};
  EXPECT_TRUE(run(q, {3}).any());
  EXPECT_EQ(q.results[0].factors.at(0).axes, (AxisRefList{ax("a")}));
}

TEST(BasicFactorPropagationTest, NonMinorMostFactorTakesGcdSubAxis) {
  // Factor of size 2 facing "x" (size 4): gets "x":(1)2.
  ShardingProjection p{.operands = {row({{0, open({ax("x")})}})}, .results = {row({{0, open({}, false)}})}};
  // The candidate "x" is cut to "x":(1)2 by the result; the operand keeps "x".
  run(p, {2});
  EXPECT_EQ(p.results[0].factors.at(0).axes, (AxisRefList{sub("x", 1, 2)}));
  EXPECT_EQ(p.operands[0].factors.at(0).axes, (AxisRefList{ax("x")}));
}

TEST(BasicFactorPropagationTest, GcdSubAxisExpandsEmptyTensors) {
  ShardingProjection p{.operands = {row({{0, open({ax("x")})}}), row({{0, open({}, false)}})},
                       .results = {row({{0, open({}, false)}})}};
  run(p, {2});
  // The candidate "x" is cut to "x":(1)2 by the non-minor-most tensors; the
  // operand holding "x" keeps it (its axes are not a prefix of the candidate).
  EXPECT_EQ(p.operands[1].factors.at(0).axes, (AxisRefList{sub("x", 1, 2)}));
  EXPECT_EQ(p.results[0].factors.at(0).axes, (AxisRefList{sub("x", 1, 2)}));
  EXPECT_EQ(p.operands[0].factors.at(0).axes, (AxisRefList{ax("x")}));
}

TEST(BasicFactorPropagationTest, ConservativeDoesNotSplitAxes) {
  ShardingProjection p{.operands = {row({{0, open({ax("x")})}}), row({{0, open({}, false)}})},
                       .results = {row({{0, open({}, false)}})}};
  EXPECT_FALSE(run(p, {2}, PropagationDirection::Both, /*conservative=*/true).any());
}

TEST(BasicFactorPropagationTest, ReplicatedAxesBlockOnlyMappedFactors) {
  // Result replicates "a": factor 0 cannot take it there.
  ShardingProjection p{.operands = {row({{0, open({ax("a")})}})},
                       .results = {row({{0, open({})}}, {ax("a")})}};
  EXPECT_FALSE(run(p, {8}).any());
}

TEST(BasicFactorPropagationTest, AxisUsedByAnotherFactorIsCut) {
  // Operand 1 uses "a" for factor 1, so factor 0 cannot be sharded by "a".
  ShardingProjection p{.operands = {row({{0, open({ax("a")})}}), row({{0, open({})}, {1, open({ax("a")})}})},
                       .results = {row({{0, open({})}})}};
  run(p, {8, 8});
  EXPECT_TRUE(p.results[0].factors.at(0).axes.empty());
  EXPECT_TRUE(p.operands[1].factors.at(0).axes.empty());
}

TEST(BasicFactorPropagationTest, AxisHeldForAnotherFactorBlocksEveryTensor) {
  // Operand 1 holds "a" for factor 1, so factor 0 cannot take "a" anywhere,
  // and the result cannot take it for factor 1 either (operand 0 uses it
  // for factor 0): basic leaves both factors alone.
  ShardingProjection p{.operands = {row({{0, open({ax("a")})}}), row({{1, open({ax("a")})}})},
                       .results = {row({{0, open({})}, {1, open({})}})}};
  EXPECT_FALSE(run(p, {8, 8}).any());
}

TEST(BasicFactorPropagationTest, FactorsUpdateIndependently) {
  // ([i], [j])->([i, j]): each factor brings its own axes to the result.
  ShardingProjection p{.operands = {row({{0, open({ax("a")})}}), row({{1, open({ax("b")})}})},
                       .results = {row({{0, open({})}, {1, open({})}})}};
  UpdateTensorShardings u = run(p, {8, 8});
  EXPECT_EQ(u.results, (std::vector<bool>{true}));
  EXPECT_EQ(p.results[0], row({{0, open({ax("a")})}, {1, open({ax("b")})}}));
}

TEST(BasicFactorPropagationTest, CompatibleMajorAxesFold) {
  ShardingProjection p{.operands = {row({{0, open({ax("a"), sub("x", 1, 2)})}})},
                       .results = {row({{0, open({ax("a"), ax("x")})}})}};
  // Sub-axis prefix replaced by the longer axis in last position.
  EXPECT_EQ(basic::compatibleMajorAxes(p, 0, PropagationDirection::Both), (AxisRefList{ax("a"), ax("x")}));
  // Forward: the result may only cut.
  EXPECT_EQ(basic::compatibleMajorAxes(p, 0, PropagationDirection::Forward),
            (AxisRefList{ax("a"), sub("x", 1, 2)}));
}

}  // namespace
}  // namespace shardscope::propagation
