// Tests for engine/sharding/mesh.cpp.
#include "sharding/mesh.h"

#include <gtest/gtest.h>

namespace shardscope {
namespace {

struct MeshPrintCase {
  Mesh mesh;
  std::string expected;
};

TEST(MeshTest, PrintsLikeSdy) {
  const std::vector<MeshPrintCase> cases = {
      {Mesh{}, "<[]>"},
      {Mesh{{}, {0}}, "<[], device_ids=[0]>"},
      {Mesh{{}, {3}}, "<[], device_ids=[3]>"},
      {Mesh{{{"a", 1}}, {}}, "<[\"a\"=1]>"},
      {Mesh{{{"a", 1}}, {0}}, "<[\"a\"=1]>"},
      {Mesh{{{"a", 2}, {"b", 4}}, {}}, "<[\"a\"=2, \"b\"=4]>"},
      {Mesh{{{"a", 2}}, {1, 0}}, "<[\"a\"=2], device_ids=[1, 0]>"},
      {Mesh{{{"a", 2}, {"b", 2}}, {0, 1, 2, 3}}, "<[\"a\"=2, \"b\"=2]>"},
      {Mesh{{{"a", 2}, {"b", 2}}, {3, 2, 1, 0}}, "<[\"a\"=2, \"b\"=2], device_ids=[3, 2, 1, 0]>"},
  };
  for (const auto& c : cases) EXPECT_EQ(c.mesh.str(), c.expected);
}

TEST(MeshTest, TotalSizeSaturatesInsteadOfOverflowing) {
  // The verifier rejects this mesh; code that looks at it anyway (the GUI)
  // gets INT64_MAX, not a wrapped-around (undefined) product.
  Mesh mesh{{{"x", int64_t{1} << 40}, {"y", int64_t{1} << 40}}, {}};
  EXPECT_EQ(mesh.totalSize(), INT64_MAX);
  Mesh fits{{{"x", int64_t{1} << 31}, {"y", int64_t{1} << 31}}, {}};
  EXPECT_EQ(fits.totalSize(), int64_t{1} << 62);
}

TEST(MeshTest, Queries) {
  Mesh mesh{{{"a", 2}, {"c", 3}, {"b", 4}}, {}};
  EXPECT_EQ(mesh.totalSize(), 24);
  EXPECT_EQ(mesh.axisIndex("a"), 0);
  EXPECT_EQ(mesh.axisIndex("b"), 2);
  EXPECT_EQ(mesh.axisIndex("z"), -1);
  EXPECT_EQ(mesh.axisSize("c"), 3);
  EXPECT_EQ(mesh.axisSize("z"), -1);
  EXPECT_TRUE(mesh.hasAxis("b"));
  EXPECT_FALSE(mesh.hasAxis("d"));
  EXPECT_FALSE(mesh.hasCustomDeviceIds());
  EXPECT_EQ(mesh.deviceIdAt(5), 5);
  EXPECT_FALSE(mesh.empty());
  EXPECT_FALSE(mesh.isMaximal());
}

TEST(MeshTest, EmptyAndMaximal) {
  EXPECT_TRUE(Mesh{}.empty());
  EXPECT_FALSE(Mesh{}.isMaximal());
  EXPECT_EQ(Mesh{}.totalSize(), 1);
  Mesh maximal{{}, {7}};
  EXPECT_FALSE(maximal.empty());
  EXPECT_TRUE(maximal.isMaximal());
  EXPECT_EQ(maximal.deviceIdAt(0), 7);
}

TEST(MeshTest, CustomDeviceIds) {
  Mesh mesh{{{"a", 2}, {"b", 2}}, {3, 2, 1, 0}};
  EXPECT_TRUE(mesh.hasCustomDeviceIds());
  EXPECT_EQ(mesh.deviceIdAt(0), 3);
  EXPECT_EQ(mesh.deviceIdAt(3), 0);
  EXPECT_FALSE((Mesh{{{"a", 2}}, {0, 1}}).hasCustomDeviceIds());
}

}  // namespace
}  // namespace shardscope
