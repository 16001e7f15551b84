// Tests for engine/sharding/dimension_sharding.cpp.
#include "sharding/dimension_sharding.h"

#include <gtest/gtest.h>

namespace shardscope {
namespace {

AxisRef full(const std::string& name) { return AxisRef{name, std::nullopt}; }

TEST(DimensionShardingTest, Printing) {
  struct Case {
    DimensionSharding dim;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {{{}, true, std::nullopt}, "{}"},
      {{{}, false, std::nullopt}, "{?}"},
      {{{full("a"), full("b")}, true, std::nullopt}, "{\"a\", \"b\"}"},
      {{{full("a")}, false, std::nullopt}, "{\"a\", ?}"},
      {{{full("a")}, true, 1}, "{\"a\"}p1"},
      {{{full("a")}, false, 0}, "{\"a\", ?}p0"},
      {{{AxisRef{"b", SubAxisInfo{2, 2}}}, true, std::nullopt}, "{\"b\":(2)2}"},
      {{{}, true, 3}, "{}p3"},
  };
  for (const auto& c : cases) EXPECT_EQ(c.dim.str(), c.expected);
}

TEST(DimensionShardingTest, ShardCount) {
  Mesh mesh{{{"a", 2}, {"b", 4}}, {}};
  EXPECT_EQ((DimensionSharding{{full("a"), full("b")}, true, std::nullopt}).shardCount(mesh), 8);
  EXPECT_EQ((DimensionSharding{{AxisRef{"b", SubAxisInfo{1, 2}}}, true, {}}).shardCount(mesh), 2);
  EXPECT_EQ(DimensionSharding{}.shardCount(mesh), 1);
  EXPECT_TRUE((DimensionSharding{{}, false, {}}).isOpen());
}

}  // namespace
}  // namespace shardscope
