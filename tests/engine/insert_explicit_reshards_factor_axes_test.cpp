// The factor sharding `-sdy-insert-explicit-reshards` computes an op in
// (explicit_reshards/common_factor_axes.h, factor_axes_candidate.h,
// axis_lists.h): hand-built rules and shardings in, factor axes out.
#include <gtest/gtest.h>

#include "passes/explicit_reshards/axis_lists.h"
#include "passes/explicit_reshards/common_factor_axes.h"
#include "passes/explicit_reshards/factor_axes_candidate.h"
#include "propagation/sharding_projection.h"

using namespace shardscope;
using namespace shardscope::passes::explicit_reshards;

namespace {

AxisRef axis(const std::string& name) { return AxisRef{name, std::nullopt}; }
AxisRef sub(const std::string& name, int64_t pre, int64_t size) { return AxisRef{name, SubAxisInfo{pre, size}}; }

TensorSharding sharding(std::vector<AxisRefList> dims) {
  TensorSharding s;
  s.mesh = MeshRef{"mesh", std::nullopt};
  for (AxisRefList& axes : dims) s.dims.push_back(DimensionSharding{std::move(axes), true, std::nullopt});
  return s;
}

Mesh meshXY() { return Mesh{{{"x", 4}, {"y", 2}}, {}}; }

// ([i, j], [i, j])->([i, j]) on 8x8.
OpShardingRule elementwiseRule() {
  OpShardingRule r;
  r.factorSizes = {8, 8};
  r.operands = {TensorFactorMapping{{{0}, {1}}}, TensorFactorMapping{{{0}, {1}}}};
  r.results = {TensorFactorMapping{{{0}, {1}}}};
  return r;
}

// ([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}.
OpShardingRule dotRule() {
  OpShardingRule r;
  r.factorSizes = {8, 16, 32};
  r.operands = {TensorFactorMapping{{{0}, {2}}}, TensorFactorMapping{{{2}, {1}}}};
  r.results = {TensorFactorMapping{{{0}, {1}}}};
  r.reductionFactors = {2};
  return r;
}

AxesPerFactor choose(const OpShardingRule& rule, const std::vector<std::optional<TensorSharding>>& in,
                     const std::vector<std::optional<TensorSharding>>& out, const std::vector<int64_t>& sizes) {
  Mesh mesh = meshXY();
  auto projection = propagation::ShardingProjection::build(in, out, rule, mesh, true);
  return chooseCommonFactorAxes(projection, rule, sizes, mesh);
}

TEST(ExplicitReshardsFactorAxes, CompatibleShardingsAreKept) {
  AxesPerFactor axes = choose(dotRule(), {sharding({{axis("x")}, {axis("y")}}), sharding({{axis("y")}, {}})},
                              {sharding({{axis("x")}, {}})}, {256, 512, 128});
  EXPECT_EQ(axes, (AxesPerFactor{{axis("x")}, {}, {axis("y")}}));
}

TEST(ExplicitReshardsFactorAxes, AnAxisOnTwoNonContractingDimsGoesWhereTheLargerTensorsHaveIt) {
  // lhs [{"x"}, {"y"}] (256), rhs [{"y"}, {"x"}] (512), result [{"x"}, {}] (128).
  // k:["y"] is held by lhs and rhs (768) and wins first; then j:["x"]
  // (rhs, 512) beats i:["x"] (lhs and result, 384).
  AxesPerFactor axes = choose(dotRule(), {sharding({{axis("x")}, {axis("y")}}), sharding({{axis("y")}, {axis("x")}})},
                              {sharding({{axis("x")}, {}})}, {256, 512, 128});
  EXPECT_EQ(axes, (AxesPerFactor{{}, {axis("x")}, {axis("y")}}));
}

TEST(ExplicitReshardsFactorAxes, TiesGoToTheLaterFactor) {
  // The example of factor_axes_candidate.h: i:["x"] and j:["x"] tie.
  AxesPerFactor axes = choose(elementwiseRule(), {sharding({{axis("x")}, {}}), sharding({{}, {axis("x")}})},
                              {sharding({{}, {}})}, {64, 64, 64});
  EXPECT_EQ(axes, (AxesPerFactor{{}, {axis("x")}}));
}

TEST(ExplicitReshardsFactorAxes, UnaryOpKeepsTheMoreShardedTensor) {
  // transpose-like ([i, j])->([j, i]): operand [{"x"}, {"y"}], result [{}, {"x"}].
  OpShardingRule r;
  r.factorSizes = {8, 16};
  r.operands = {TensorFactorMapping{{{0}, {1}}}};
  r.results = {TensorFactorMapping{{{1}, {0}}}};
  AxesPerFactor axes = choose(r, {sharding({{axis("x")}, {axis("y")}})}, {sharding({{}, {axis("x")}})}, {128, 128});
  EXPECT_EQ(axes, (AxesPerFactor{{axis("x")}, {axis("y")}}));
}

TEST(ExplicitReshardsFactorAxes, GreedyCandidatesPreferLargerSourceTensors) {
  Mesh mesh = meshXY();
  OpShardingRule rule = elementwiseRule();
  // Operand 0 is much larger than the others (a broadcast-like size vector).
  auto projection = propagation::ShardingProjection::build(
      {sharding({{axis("x")}, {}}), sharding({{}, {axis("x")}})}, {sharding({{}, {axis("x")}})}, rule, mesh, true);
  AxesPerFactor axes = chooseFactorAxesGreedily(projection, rule, {1000, 10, 10}, mesh);
  EXPECT_EQ(axes, (AxesPerFactor{{axis("x")}, {}}));
}

TEST(ExplicitReshardsAxisLists, CutAtOverlapKeepsTheFreePrefixOfAnAxis) {
  AxisRefList axes = {axis("y"), axis("x")};
  EXPECT_TRUE(cutAtOverlap(axes, {sub("x", 2, 2)}));
  EXPECT_EQ(axes, (AxisRefList{axis("y"), sub("x", 1, 2)}));
  AxisRefList untouched = {axis("y")};
  EXPECT_FALSE(cutAtOverlap(untouched, {axis("x")}));
}

TEST(ExplicitReshardsAxisLists, SetDifferenceSplitsAxes) {
  EXPECT_EQ(axisSetDiff({axis("x"), axis("y")}, {sub("x", 1, 2)}, meshXY()),
            (AxisRefList{sub("x", 2, 2), axis("y")}));
  EXPECT_EQ(axisSetDiff({axis("x")}, {axis("x")}, meshXY()), AxisRefList{});
}

TEST(ExplicitReshardsAxisLists, CandidateOrderOnAxes) {
  // A full axis sorts before its sub-axes that start later, after those at its start.
  EXPECT_TRUE(axisLess(axis("x"), sub("x", 2, 2)));
  EXPECT_TRUE(axisLess(sub("x", 1, 2), axis("x")));
  EXPECT_TRUE(axisLess(axis("x"), axis("y")));
  EXPECT_TRUE(axisListLess({axis("y")}, {axis("x"), axis("y")}));
}

}  // namespace
