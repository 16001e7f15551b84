// Tests for engine/propagation/aggressive_factor_propagation.cpp.
#include "propagation/aggressive_factor_propagation.h"

#include <gtest/gtest.h>

#include "propagation/basic_factor_propagation.h"

namespace shardscope::propagation {
namespace {

AxisRef ax(const std::string& name) { return AxisRef{.name = name, .subAxis = std::nullopt}; }
FactorSharding open(AxisRefList axes) {
  return FactorSharding{.axes = std::move(axes), .closed = false, .minorMost = true, .overflowAxes = {}};
}
TensorFactorShardings row(std::map<int64_t, FactorSharding> factors) {
  TensorFactorShardings r;
  r.factors = std::move(factors);
  return r;
}

const Mesh kMesh{.axes = {{"a", 2}, {"b", 2}, {"c", 2}}, .deviceIds = {}};

UpdateTensorShardings run(ShardingProjection& p, const std::vector<int64_t>& sizes, bool elementwise = false) {
  FactorPropagationContext ctx{sizes, kMesh, [](int64_t) { return PropagationDirection::Both; }, false,
                               elementwise};
  return AggressiveFactorPropagation().propagate(p, ctx);
}

TEST(AggressiveFactorPropagationTest, SameFactorDisagreementIsNotResolved) {
  // add(%a [{"a"}], %b [{"b"}]): the candidate of the factor is empty.
  ShardingProjection p{.operands = {row({{0, open({ax("a")})}}), row({{0, open({ax("b")})}})},
                       .results = {row({{0, open({})}})}};
  EXPECT_FALSE(run(p, {8}, true).any());
}

TEST(AggressiveFactorPropagationTest, TieBrokenBySourceIndex) {
  // ([i], [j])->([i, j]) {i=8, j=8}: both factors want "a" on the result;
  // the sources have the same size, so operand 0's factor i goes first.
  ShardingProjection p{.operands = {row({{0, open({ax("a")})}}), row({{1, open({ax("a")})}})},
                       .results = {row({{0, open({})}, {1, open({})}})}};
  UpdateTensorShardings u = run(p, {8, 8});
  EXPECT_EQ(u.results, (std::vector<bool>{true}));
  EXPECT_EQ(p.results[0].factors.at(0).axes, (AxisRefList{ax("a")}));
  EXPECT_TRUE(p.results[0].factors.at(1).axes.empty());
}

TEST(AggressiveFactorPropagationTest, LargerSourceWinsWhereBasicGivesUp) {
  // ([i], [j, k])->([i, j]) {i=8, j=8, k=2}: both factors want "a" on the
  // result; j's source (operand 1, size 16) is larger than i's (size 8).
  ShardingProjection p{.operands = {row({{0, open({ax("a")})}}), row({{1, open({ax("a")})}, {2, open({})}})},
                       .results = {row({{0, open({})}, {1, open({})}})}};
  ShardingProjection q = p;
  FactorPropagationContext ctx{{8, 8, 2}, kMesh, [](int64_t) { return PropagationDirection::Both; }, false, false};
  // Basic cannot decide: each factor's "a" conflicts with the other factor.
  EXPECT_FALSE(BasicFactorPropagation().propagate(q, ctx).any());
  run(p, {8, 8, 2});
  EXPECT_EQ(p.results[0].factors.at(1).axes, (AxisRefList{ax("a")}));
  EXPECT_TRUE(p.results[0].factors.at(0).axes.empty());
}

TEST(AggressiveFactorPropagationTest, ElementwiseOperandCappedAtResult) {
  // The result holds "a" only (closed), operand 1 is empty: the candidate
  // ["a", "b"] from operand 0 is capped at the result's ["a"] for operand 1.
  TensorFactorShardings res = row({{0, open({ax("a")})}});
  res.factors[0].closed = true;
  ShardingProjection p{.operands = {row({{0, open({ax("a"), ax("b")})}}), row({{0, open({})}})},
                       .results = {res}};
  run(p, {8}, true);
  EXPECT_EQ(p.operands[1].factors.at(0).axes, (AxisRefList{ax("a")}));
}

TEST(AggressiveFactorPropagationTest, NothingToPropagate) {
  ShardingProjection p{.operands = {row({{0, open({})}})}, .results = {row({{0, open({})}})}};
  EXPECT_FALSE(run(p, {8}).any());
}

}  // namespace
}  // namespace shardscope::propagation
