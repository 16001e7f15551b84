// Tests for engine/propagation/sharding_projection.cpp and axis_algebra.cpp.
#include "propagation/sharding_projection.h"

#include <gtest/gtest.h>

#include "propagation/axis_algebra.h"

namespace shardscope::propagation {
namespace {

AxisRef ax(const std::string& name) { return AxisRef{.name = name, .subAxis = std::nullopt}; }
AxisRef sub(const std::string& name, int64_t pre, int64_t size) {
  return AxisRef{.name = name, .subAxis = SubAxisInfo{.preSize = pre, .size = size}};
}
Mesh mesh(std::vector<MeshAxis> axes) { return Mesh{.axes = std::move(axes), .deviceIds = {}}; }
DimensionSharding dim(AxisRefList axes, bool closed = true) {
  return DimensionSharding{.axes = std::move(axes), .closed = closed, .priority = std::nullopt};
}
TensorSharding sharding(std::vector<DimensionSharding> dims, AxisRefList replicated = {}) {
  TensorSharding s;
  s.mesh.name = "mesh";
  s.dims = std::move(dims);
  s.replicated = std::move(replicated);
  return s;
}

// --- axis algebra -----------------------------------------------------------

TEST(AxisAlgebraTest, PrefixAndContainment) {
  EXPECT_TRUE(prefixOf(sub("x", 1, 2), ax("x")));
  EXPECT_TRUE(prefixOf(sub("x", 1, 2), sub("x", 1, 4)));
  EXPECT_FALSE(prefixOf(sub("x", 2, 2), ax("x")));
  EXPECT_TRUE(contains(ax("x"), sub("x", 2, 2)));
  EXPECT_FALSE(contains(sub("x", 1, 2), ax("x")));
  EXPECT_TRUE(strictPrefixOf(sub("x", 1, 2), ax("x")));
  EXPECT_FALSE(strictPrefixOf(ax("x"), ax("x")));
}

TEST(AxisAlgebraTest, PrefixWithoutOverlap) {
  // "x" without "x":(2)2 keeps the major part "x":(1)2.
  EXPECT_EQ(prefixWithoutOverlap(ax("x"), sub("x", 2, 2)), sub("x", 1, 2));
  // Nothing of "x":(2)2 survives next to the full axis.
  EXPECT_EQ(prefixWithoutOverlap(sub("x", 2, 2), ax("x")), std::nullopt);
  // Different axes never overlap.
  EXPECT_EQ(prefixWithoutOverlap(ax("x"), ax("y")), ax("x"));
  // Sub-axes that cannot coexist ("a":(1)2 and "a":(3)2 on a=6).
  EXPECT_FALSE(canCoexist(sub("a", 1, 2), sub("a", 3, 2)));
  EXPECT_EQ(prefixWithoutOverlap(sub("a", 1, 2), sub("a", 3, 2)), std::nullopt);
  EXPECT_EQ(prefixWithoutOverlap(sub("x", 1, 8), sub("x", 8, 2)), sub("x", 1, 8));
}

TEST(AxisAlgebraTest, ListPrefixStatus) {
  EXPECT_EQ(listPrefixStatus({}, {}), PrefixStatus::Equal);
  EXPECT_EQ(listPrefixStatus({}, {ax("a")}), PrefixStatus::StrictPrefix);
  EXPECT_EQ(listPrefixStatus({ax("a"), sub("b", 1, 2)}, {ax("a"), ax("b")}), PrefixStatus::StrictPrefix);
  EXPECT_EQ(listPrefixStatus({sub("b", 1, 2), ax("a")}, {ax("b"), ax("a")}), PrefixStatus::NotAPrefix);
  EXPECT_EQ(listPrefixStatus({ax("b")}, {ax("a")}), PrefixStatus::NotAPrefix);
}

TEST(AxisAlgebraTest, AppendOrMergeMergesConsecutiveSubAxes) {
  Mesh m = mesh({{"x", 4}});
  AxisRefList l{sub("x", 1, 2)};
  appendOrMerge(l, sub("x", 2, 2), m);
  EXPECT_EQ(l, (AxisRefList{ax("x")}));
}

// --- projection -------------------------------------------------------------

// ([ij])->([i, j]) {i=2, j=4}
OpShardingRule splitRule() {
  OpShardingRule r;
  r.factorSizes = {2, 4};
  r.operands = {TensorFactorMapping{.dims = {{0, 1}}}};
  r.results = {TensorFactorMapping{.dims = {{0}, {1}}}};
  return r;
}

TEST(ShardingProjectionTest, SplitsAxesOverCompoundDimension) {
  Mesh m = mesh({{"x", 4}, {"y", 2}});
  OpShardingRule rule = splitRule();
  ShardingProjection p =
      ShardingProjection::build({sharding({dim({ax("x"), ax("y")})})}, {std::nullopt}, rule, m);
  EXPECT_EQ(p.operands[0].factors.at(0),
            (FactorSharding{.axes = {sub("x", 1, 2)}, .closed = true, .minorMost = false, .overflowAxes = {}}));
  EXPECT_EQ(p.operands[0].factors.at(1),
            (FactorSharding{.axes = {sub("x", 2, 2), ax("y")}, .closed = true, .minorMost = true, .overflowAxes = {}}));
  // An unsharded tensor projects to empty, open factors.
  EXPECT_EQ(p.results[0].factors.at(0), (FactorSharding{.axes = {}, .closed = false, .minorMost = true, .overflowAxes = {}}));
  EXPECT_EQ(p.results[0].factors.at(1), (FactorSharding{.axes = {}, .closed = false, .minorMost = true, .overflowAxes = {}}));
}

TEST(ShardingProjectionTest, CoprimeAxisOverflows) {
  // ([ij]) {i=3, j=4} with [{"x"}] on x=2: 2 shares nothing with 3.
  Mesh m = mesh({{"x", 2}});
  OpShardingRule rule;
  rule.factorSizes = {3, 4};
  rule.operands = {TensorFactorMapping{.dims = {{0, 1}}}};
  rule.results = {TensorFactorMapping{.dims = {{0}, {1}}}};
  ShardingProjection p = ShardingProjection::build({sharding({dim({ax("x")}, false)})}, {std::nullopt}, rule, m);
  EXPECT_EQ(p.operands[0].factors.at(0),
            (FactorSharding{.axes = {}, .closed = false, .minorMost = false, .overflowAxes = {ax("x")}}));
  EXPECT_EQ(p.operands[0].factors.at(1), (FactorSharding{.axes = {}, .closed = true, .minorMost = true, .overflowAxes = {}}));
  // Back to dimensions: the overflow axes end the dimension (the closed j
  // after them is not visited, so the dimension stays open).
  TensorSharding back = unprojectTensor(p.operands[0], rule.operands[0], rule.factorSizes, MeshRef{"mesh", {}}, m);
  EXPECT_EQ(back.dims[0].axes, (AxisRefList{ax("x")}));
  EXPECT_FALSE(back.dims[0].closed);
}

TEST(ShardingProjectionTest, UnprojectMergesSubAxesAndStopsAtPartialFactor) {
  Mesh m = mesh({{"x", 4}, {"y", 2}});
  OpShardingRule rule = splitRule();
  TensorFactorShardings row;
  row.factors[0] = FactorSharding{.axes = {sub("x", 1, 2)}, .closed = false, .minorMost = false, .overflowAxes = {}};
  row.factors[1] = FactorSharding{.axes = {sub("x", 2, 2)}, .closed = false, .minorMost = true, .overflowAxes = {}};
  TensorSharding s = unprojectTensor(row, rule.operands[0], rule.factorSizes, MeshRef{"mesh", {}}, m);
  EXPECT_EQ(s.dims[0].axes, (AxisRefList{ax("x")}));
  EXPECT_FALSE(s.dims[0].closed);
  // i sharded by nothing (less than its size 2) ends the dimension: j is not printed.
  row.factors[0].axes = {};
  s = unprojectTensor(row, rule.operands[0], rule.factorSizes, MeshRef{"mesh", {}}, m);
  EXPECT_TRUE(s.dims[0].axes.empty());
}

TEST(ShardingProjectionTest, RoundTripKeepsReplicatedAxesAndDropsPriority) {
  Mesh m = mesh({{"a", 2}, {"b", 2}});
  OpShardingRule rule;
  rule.factorSizes = {8};
  rule.operands = {TensorFactorMapping{.dims = {{0}}}};
  rule.results = {TensorFactorMapping{.dims = {{0}}}};
  TensorSharding in = sharding({dim({ax("a")}, false)}, {ax("b")});
  in.dims[0].priority = 2;
  ShardingProjection p = ShardingProjection::build({in}, {std::nullopt}, rule, m);
  EXPECT_EQ(p.operands[0].replicated, (AxisRefList{ax("b")}));
  TensorSharding out = unprojectTensor(p.operands[0], rule.operands[0], rule.factorSizes, in.mesh, m);
  in.dims[0].priority.reset();
  EXPECT_EQ(out, in);
}

TEST(ShardingProjectionTest, ExpandOnlyStrictPrefixes) {
  Mesh m = mesh({{"a", 2}, {"b", 2}});
  OpShardingRule rule;
  rule.factorSizes = {8};
  rule.operands = {TensorFactorMapping{.dims = {{0}}}, TensorFactorMapping{.dims = {{0}}}};
  rule.results = {TensorFactorMapping{.dims = {{0}}}};
  ShardingProjection p = ShardingProjection::build(
      {sharding({dim({ax("a")}, false)}), sharding({dim({ax("b")}, false)})}, {std::nullopt}, rule, m);
  UpdateTensorShardings u = p.expandSharding(0, {ax("a"), ax("b")});
  EXPECT_EQ(u.operands, (std::vector<bool>{true, false}));
  EXPECT_EQ(u.results, (std::vector<bool>{true}));
  EXPECT_EQ(p.results[0].factors.at(0).axes, (AxisRefList{ax("a"), ax("b")}));
  EXPECT_EQ(p.operands[1].factors.at(0).axes, (AxisRefList{ax("b")}));
}

TEST(ShardingProjectionTest, SizeOneAxesAreTakenByNonMinorFactor) {
  // [{"a", "b", "c"}] on a=1, b=2, c=1 with (8)->(2x1x4): rule ([ijk])->([i], [j], [k]).
  Mesh m = mesh({{"a", 1}, {"b", 2}, {"c", 1}});
  OpShardingRule rule;
  rule.factorSizes = {2, 1, 4};
  rule.operands = {TensorFactorMapping{.dims = {{0, 1, 2}}}};
  rule.results = {TensorFactorMapping{.dims = {{0}, {1}, {2}}}};
  ShardingProjection p =
      ShardingProjection::build({sharding({dim({ax("a"), ax("b"), ax("c")})})}, {std::nullopt}, rule, m);
  EXPECT_EQ(p.operands[0].factors.at(0).axes, (AxisRefList{ax("a"), ax("b"), ax("c")}));
}

}  // namespace
}  // namespace shardscope::propagation
