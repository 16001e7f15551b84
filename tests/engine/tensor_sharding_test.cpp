// Tests for engine/sharding/tensor_sharding.cpp.
#include "sharding/tensor_sharding.h"

#include <gtest/gtest.h>

namespace shardscope {
namespace {

AxisRef full(const std::string& name) { return AxisRef{name, std::nullopt}; }
AxisRef sub(const std::string& name, int64_t pre, int64_t size) {
  return AxisRef{name, SubAxisInfo{pre, size}};
}
DimensionSharding closed(AxisRefList axes) { return DimensionSharding{std::move(axes), true, {}}; }
DimensionSharding open(AxisRefList axes) { return DimensionSharding{std::move(axes), false, {}}; }
MeshRef ref(const std::string& name) { return MeshRef{name, std::nullopt}; }

TEST(TensorShardingTest, Printing) {
  struct Case {
    TensorSharding sharding;
    std::string expected;
  };
  TensorSharding maxUnreduced{ref("foo"), {closed({}), closed({})}, {}, {full("a")}};
  maxUnreduced.unreducedReduction = "max";
  const std::vector<Case> cases = {
      {{ref("mesh"), {closed({full("a")}), closed({})}, {}, {}}, "<@mesh, [{\"a\"}, {}]>"},
      {{ref("mesh"), {closed({full("a")}), closed({})}, {full("b")}, {full("c")}},
       "<@mesh, [{\"a\"}, {}], replicated={\"b\"}, unreduced={\"c\"}>"},
      {{ref("foo"), {}, {full("b")}, {}}, "<@foo, [], replicated={\"b\"}>"},
      {{ref("foo"), {closed({}), closed({})}, {}, {sub("b", 2, 2)}},
       "<@foo, [{}, {}], unreduced={\"b\":(2)2}>"},
      {{ref("foo"), {open({full("a")}), open({})}, {}, {}}, "<@foo, [{\"a\", ?}, {?}]>"},
      {{MeshRef{"", Mesh{{{"a", 2}, {"b", 4}}, {}}}, {closed({full("a")}), closed({})}, {}, {}},
       "<mesh<[\"a\"=2, \"b\"=4]>, [{\"a\"}, {}]>"},
      {{MeshRef{"", Mesh{{{"x", 2}}, {1, 0}}}, {closed({full("x")})}, {}, {}},
       "<mesh<[\"x\"=2], device_ids=[1, 0]>, [{\"x\"}]>"},
      {maxUnreduced, "<@foo, [{}, {}], unreduced=max{\"a\"}>"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(c.sharding.strBody(), c.expected);
    EXPECT_EQ(c.sharding.str(), "#sdy.sharding" + c.expected);
  }
}

TEST(TensorShardingTest, PerValuePrinting) {
  TensorShardingPerValue none;
  EXPECT_EQ(none.str(), "#sdy.sharding_per_value<[]>");
  TensorShardingPerValue two{{TensorSharding{ref("m"), {closed({full("a")})}, {}, {}},
                              TensorSharding{ref("m"), {closed({})}, {}, {}}}};
  EXPECT_EQ(two.str(), "#sdy.sharding_per_value<[<@m, [{\"a\"}]>, <@m, [{}]>]>");
}

TEST(TensorShardingTest, Queries) {
  TensorSharding s{ref("m"), {closed({full("a"), full("b")}), open({full("c")})}, {}, {}};
  EXPECT_EQ(s.rank(), 2);
  EXPECT_FALSE(s.isFullyReplicated());
  EXPECT_EQ(s.dimAxes(), (AxisRefList{full("a"), full("b"), full("c")}));
  TensorSharding r = TensorSharding::replicatedOf(ref("m"), 3, false);
  EXPECT_EQ(r.strBody(), "<@m, [{?}, {?}, {?}]>");
  EXPECT_TRUE(r.isFullyReplicated());
  EXPECT_EQ(TensorSharding::replicatedOf(ref("m"), 1, true).strBody(), "<@m, [{}]>");
  TensorSharding withReplicated{ref("m"), {closed({})}, {full("a")}, {}};
  EXPECT_FALSE(withReplicated.isFullyReplicated());
}

TEST(TensorShardingTest, LocalDimSize) {
  struct Case {
    int64_t dim, shards, local, padding;
  };
  const std::vector<Case> cases = {
      {8, 2, 4, 0}, {8, 1, 8, 0}, {7, 2, 4, 1}, {10, 4, 3, 2},
      {1, 4, 1, 3}, {0, 2, 0, 0}, {16, 16, 1, 0}, {3, 8, 1, 5},
  };
  for (const auto& c : cases) {
    int64_t padding = -7;
    EXPECT_EQ(localDimSize(c.dim, c.shards, &padding), c.local) << c.dim << "/" << c.shards;
    EXPECT_EQ(padding, c.padding) << c.dim << "/" << c.shards;
  }
  EXPECT_EQ(localDimSize(-1, 4), -1);  // dynamic stays dynamic
  EXPECT_EQ(localDimSize(INT64_MAX, INT64_MAX), 1);  // no overflow in the rounding
}

TEST(TensorShardingTest, LocalShape) {
  Mesh mesh{{{"a", 2}, {"b", 4}, {"c", 3}}, {}};
  struct Case {
    std::vector<int64_t> global;
    TensorSharding sharding;
    std::vector<int64_t> expected;
  };
  const std::vector<Case> cases = {
      {{8, 8}, {ref("m"), {closed({full("a")}), closed({})}, {}, {}}, {4, 8}},
      {{8, 8}, {ref("m"), {closed({full("a"), full("b")}), closed({})}, {}, {}}, {1, 8}},
      {{10, 7}, {ref("m"), {closed({full("b")}), open({full("c")})}, {}, {}}, {3, 3}},
      {{8, 8}, {ref("m"), {closed({}), closed({sub("b", 1, 2)})}, {full("a")}, {full("c")}}, {8, 4}},
      {{}, {ref("m"), {}, {full("a")}, {}}, {}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.sharding.strBody());
    EXPECT_EQ(localShape(c.global, c.sharding, mesh), c.expected);
  }
}

}  // namespace
}  // namespace shardscope
