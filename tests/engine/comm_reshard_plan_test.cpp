// planReshard: the collectives between two shardings, hand-derived.
#include <gtest/gtest.h>

#include "passes/reshard_to_collectives.h"

using namespace shardscope;
using passes::CollectiveKind;
using passes::PlannedCollective;

namespace {

AxisRef ax(const std::string& name) { return AxisRef{name, std::nullopt}; }
AxisRef sub(const std::string& name, int64_t pre, int64_t size) { return AxisRef{name, SubAxisInfo{pre, size}}; }

TensorSharding sharding(std::vector<AxisRefList> dims, AxisRefList unreduced = {}) {
  TensorSharding s;
  s.mesh = MeshRef{"mesh", std::nullopt};
  for (auto& d : dims) s.dims.push_back(DimensionSharding{std::move(d), true, std::nullopt});
  s.unreduced = std::move(unreduced);
  return s;
}

Mesh mesh(std::vector<std::pair<std::string, int64_t>> axes) {
  Mesh m;
  for (auto& [n, s] : axes) m.axes.push_back(MeshAxis{n, s});
  return m;
}

}  // namespace

TEST(CommReshardPlan, SameShardingNeedsNothing) {
  Mesh m = mesh({{"x", 2}, {"y", 2}});
  EXPECT_TRUE(passes::planReshard(sharding({{ax("x")}, {}}), sharding({{ax("x")}, {}}), m, {8, 8}).empty());
}

TEST(CommReshardPlan, GatherOneAxis) {
  Mesh m = mesh({{"x", 4}});
  auto plan = passes::planReshard(sharding({{ax("x")}, {}}), sharding({{}, {}}), m, {8, 8});
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].kind, CollectiveKind::AllGather);
  EXPECT_EQ(plan[0].axesPerDim, (std::vector<AxisRefList>{{ax("x")}, {}}));
  EXPECT_EQ(plan[0].out, sharding({{}, {}}));
}

TEST(CommReshardPlan, MoveAnAxisBetweenDimensionsIsOneAllToAll) {
  Mesh m = mesh({{"x", 2}, {"y", 2}});
  auto plan = passes::planReshard(sharding({{ax("x")}, {}}), sharding({{}, {ax("x")}}), m, {8, 8});
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].kind, CollectiveKind::AllToAll);
  EXPECT_EQ(plan[0].param, (passes::AllToAllParam{{ax("x")}, 0, 1}));
}

TEST(CommReshardPlan, SwappingAxesIsOnePermute) {
  Mesh m = mesh({{"x", 2}, {"y", 2}});
  auto plan = passes::planReshard(sharding({{ax("x")}, {ax("y")}}), sharding({{ax("y")}, {ax("x")}}), m, {16, 8});
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].kind, CollectiveKind::CollectivePermute);
  EXPECT_EQ(plan[0].out, sharding({{ax("y")}, {ax("x")}}));
}

// [{"x"}, {}] to [{}, {"y"}]: slice "y" on dim 1 first (it shrinks the
// shard and moves nothing), then gather "x" on dim 0.
TEST(CommReshardPlan, SliceThenGather) {
  Mesh m = mesh({{"x", 2}, {"y", 2}});
  auto plan = passes::planReshard(sharding({{ax("x")}, {}}), sharding({{}, {ax("y")}}), m, {16, 8});
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[0].kind, CollectiveKind::AllSlice);
  EXPECT_EQ(plan[0].axesPerDim, (std::vector<AxisRefList>{{}, {ax("y")}}));
  EXPECT_EQ(plan[0].out, sharding({{ax("x")}, {ax("y")}}));
  EXPECT_EQ(plan[1].kind, CollectiveKind::AllGather);
  EXPECT_EQ(plan[1].out, sharding({{}, {ax("y")}}));
}

// Gathering the minor half of "x"=4: "x" splits into "x":(1)2 (kept) and
// "x":(2)2 (gathered).
TEST(CommReshardPlan, GatherASubAxis) {
  Mesh m = mesh({{"x", 4}});
  auto plan = passes::planReshard(sharding({{ax("x")}}), sharding({{sub("x", 1, 2)}}), m, {16});
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].kind, CollectiveKind::AllGather);
  EXPECT_EQ(plan[0].axesPerDim, (std::vector<AxisRefList>{{sub("x", 2, 2)}}));
  EXPECT_EQ(plan[0].out, sharding({{sub("x", 1, 2)}}));
}

TEST(CommReshardPlan, UnreducedAxesAreCarriedThrough) {
  Mesh m = mesh({{"x", 2}, {"y", 2}});
  auto plan = passes::planReshard(sharding({{ax("y")}, {}}, {ax("x")}), sharding({{}, {}}, {ax("x")}), m, {8, 8});
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].out.unreduced, (AxisRefList{ax("x")}));
}

TEST(CommReshardPlan, DeviceOrderChangeIsAPermute) {
  Mesh m = mesh({{"x", 2}, {"y", 2}});
  TensorSharding out = sharding({{ax("x")}, {}});
  out.mesh.name = "mesh_non_iota";
  auto plan = passes::planReshard(sharding({{ax("x")}, {}}), out, m, {8, 8});
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].kind, CollectiveKind::CollectivePermute);
  EXPECT_EQ(plan[0].out, out);
}
