// Tests for engine/sharding/axis_ref.cpp.
#include "sharding/axis_ref.h"

#include <gtest/gtest.h>

namespace shardscope {
namespace {

AxisRef full(const std::string& name) { return AxisRef{name, std::nullopt}; }
AxisRef sub(const std::string& name, int64_t pre, int64_t size) {
  return AxisRef{name, SubAxisInfo{pre, size}};
}

const Mesh kMesh{{{"a", 2}, {"x", 8}, {"b", 4}}, {}};

TEST(AxisRefTest, Printing) {
  EXPECT_EQ(full("a").str(), "\"a\"");
  EXPECT_EQ(sub("a", 2, 4).str(), "\"a\":(2)4");
  EXPECT_EQ(strAxisList({}), "{}");
  EXPECT_EQ(strAxisList({full("a"), sub("b", 1, 2)}), "{\"a\", \"b\":(1)2}");
}

TEST(AxisRefTest, Sizes) {
  EXPECT_EQ(full("x").size(kMesh), 8);
  EXPECT_EQ(sub("x", 2, 2).size(kMesh), 2);
  EXPECT_EQ(sub("x", 2, 2).preSize(), 2);
  EXPECT_EQ(full("x").preSize(), 1);
  EXPECT_EQ(axesSize({full("a"), sub("x", 1, 4), full("b")}, kMesh), 32);
  EXPECT_EQ(axesSize({}, kMesh), 1);
}

struct RelationCase {
  AxisRef lhs;
  AxisRef rhs;
  bool contains;
  bool overlaps;
  bool prefixOf;
  bool strictPrefixOf;
};

TEST(AxisRefTest, Relations) {
  const std::vector<RelationCase> cases = {
      // lhs, rhs, contains, overlaps, prefix, strict prefix
      {full("x"), full("x"), true, true, true, false},
      {full("x"), sub("x", 2, 2), true, true, false, false},
      {sub("x", 2, 2), full("x"), false, true, false, false},
      {sub("x", 1, 2), full("x"), false, true, true, true},
      {sub("x", 1, 2), sub("x", 1, 4), false, true, true, true},
      {sub("x", 1, 4), sub("x", 1, 2), true, true, false, false},
      {sub("x", 1, 4), sub("x", 2, 2), true, true, false, false},
      {sub("x", 1, 2), sub("x", 2, 4), false, false, false, false},
      {sub("x", 1, 4), sub("x", 2, 4), false, true, false, false},
      {sub("x", 2, 2), sub("x", 4, 2), false, false, false, false},
      {full("x"), full("a"), false, false, false, false},
      {sub("x", 1, 2), sub("b", 1, 2), false, false, false, false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.lhs.str() + " vs " + c.rhs.str());
    EXPECT_EQ(c.lhs.contains(c.rhs, kMesh), c.contains);
    EXPECT_EQ(c.lhs.overlaps(c.rhs, kMesh), c.overlaps);
    EXPECT_EQ(c.rhs.overlaps(c.lhs, kMesh), c.overlaps);
    EXPECT_EQ(c.lhs.prefixOf(c.rhs, kMesh), c.prefixOf);
    EXPECT_EQ(c.lhs.strictPrefixOf(c.rhs, kMesh), c.strictPrefixOf);
  }
}

TEST(AxisRefTest, MergeAndCanonical) {
  EXPECT_TRUE(sub("x", 1, 2).canMerge(sub("x", 2, 2)));
  EXPECT_FALSE(sub("x", 2, 2).canMerge(sub("x", 1, 2)));
  EXPECT_FALSE(sub("x", 1, 2).canMerge(sub("x", 4, 2)));
  EXPECT_FALSE(full("x").canMerge(sub("x", 8, 1)));
  EXPECT_FALSE(sub("x", 1, 2).canMerge(sub("b", 2, 2)));
  EXPECT_EQ(sub("x", 1, 2).merge(sub("x", 2, 2), kMesh), sub("x", 1, 4));
  EXPECT_EQ(sub("x", 1, 2).merge(sub("x", 2, 4), kMesh), full("x"));
  EXPECT_EQ(sub("x", 2, 2).merge(sub("x", 4, 2), kMesh), sub("x", 2, 4));
  EXPECT_EQ(sub("x", 1, 8).canonical(kMesh), full("x"));
  EXPECT_EQ(sub("x", 2, 4).canonical(kMesh), sub("x", 2, 4));
  EXPECT_EQ(full("a").canonical(kMesh), full("a"));
}

TEST(AxisRefTest, MergeAdjacent) {
  EXPECT_EQ(mergeAdjacent({sub("x", 1, 2), sub("x", 2, 2), sub("x", 4, 2)}, kMesh),
            AxisRefList{full("x")});
  EXPECT_EQ(mergeAdjacent({sub("x", 1, 2), full("a"), sub("x", 2, 2)}, kMesh),
            (AxisRefList{sub("x", 1, 2), full("a"), sub("x", 2, 2)}));
  EXPECT_EQ(mergeAdjacent({sub("x", 2, 2), sub("x", 4, 2)}, kMesh), AxisRefList{sub("x", 2, 4)});
  EXPECT_EQ(mergeAdjacent({}, kMesh), AxisRefList{});
}

struct CanonicalCase {
  AxisRefList input;
  AxisRefList expected;
};

TEST(AxisRefTest, CanonicalAxisSet) {
  const std::vector<CanonicalCase> cases = {
      {{full("b"), full("a")}, {full("a"), full("b")}},
      {{full("b"), full("x"), full("a")}, {full("a"), full("x"), full("b")}},
      {{sub("x", 4, 2), full("a"), sub("x", 1, 4)}, {full("a"), full("x")}},
      {{sub("x", 4, 2), sub("x", 1, 2)}, {sub("x", 1, 2), sub("x", 4, 2)}},
      {{sub("b", 2, 2), sub("x", 2, 2), sub("b", 1, 2)}, {sub("x", 2, 2), full("b")}},
      {{}, {}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(strAxisList(c.input));
    EXPECT_EQ(canonicalAxisSet(c.input, kMesh), c.expected);
  }
}

TEST(AxisRefTest, LessInMesh) {
  EXPECT_TRUE(full("a").lessInMesh(full("x"), kMesh));
  EXPECT_FALSE(full("b").lessInMesh(full("x"), kMesh));
  EXPECT_TRUE(sub("x", 1, 2).lessInMesh(sub("x", 2, 2), kMesh));
  EXPECT_TRUE(sub("x", 1, 2).lessInMesh(full("x"), kMesh));
  EXPECT_FALSE(full("x").lessInMesh(full("x"), kMesh));
}

}  // namespace
}  // namespace shardscope
