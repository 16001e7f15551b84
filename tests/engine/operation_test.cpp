// The in-memory IR's bookkeeping: live op counts per name (which let passes
// skip modules without the ops they act on), use-list rewiring, and the
// per-pass tags kept on ops.
#include "ir/operation.h"

#include <gtest/gtest.h>

namespace shardscope::ir {
namespace {

TEST(OperationTest, AnyLiveFollowsCreationRenamingAndDestruction) {
  EXPECT_FALSE(Op::anyLive("test.census_a"));
  EXPECT_FALSE(Op::anyLive("test.census_b"));
  {
    Module module = makeEmptyModule();
    Op* a = module.body().append(std::make_unique<Op>("test.census_a"));
    Op* a2 = module.body().append(std::make_unique<Op>("test.census_a"));
    EXPECT_TRUE(Op::anyLive("test.census_a"));
    a->setName("test.census_b");
    EXPECT_TRUE(Op::anyLive("test.census_a"));  // a2 still has the name
    EXPECT_TRUE(Op::anyLive("test.census_b"));
    module.body().erase(a2);
    EXPECT_FALSE(Op::anyLive("test.census_a"));
    a->setName("test.census_b");  // renaming to its own name changes nothing
    EXPECT_TRUE(Op::anyLive("test.census_b"));
  }
  // Tearing the module down releases its ops' names too.
  EXPECT_FALSE(Op::anyLive("test.census_b"));
  EXPECT_FALSE(Op::anyLive("test.never_made"));
}

TEST(OperationTest, ReplaceAllUsesWithMovesEveryUseInOrder) {
  Module module = makeEmptyModule();
  Block& body = module.body();
  Value* x = body.addArgument(Type::tensor({4}, "f32"));
  Value* y = body.addArgument(Type::tensor({4}, "f32"));
  std::vector<Op*> users;
  for (int i = 0; i < 5; ++i) {
    auto op = std::make_unique<Op>("test.user");
    op->addOperand(x);
    op->addOperand(i % 2 ? x : y);
    users.push_back(body.append(std::move(op)));
  }
  ASSERT_EQ(x->uses().size(), 7u);
  x->replaceUsesWithIf(y, [&](const Use& u) { return u.user != users[0]; });
  // users[0] keeps operand 0 on x; every other use of x moved to y, after
  // y's own uses, in x's former order.
  ASSERT_EQ(x->uses().size(), 1u);
  EXPECT_EQ(x->uses()[0], (Use{users[0], 0}));
  for (Op* u : users) EXPECT_EQ(u->operand(1), y);
  for (size_t i = 1; i < users.size(); ++i) EXPECT_EQ(users[i]->operand(0), y);
  std::vector<Use> expected = {{users[0], 1}, {users[2], 1}, {users[4], 1}, {users[1], 0},
                               {users[1], 1}, {users[2], 0}, {users[3], 0}, {users[3], 1}, {users[4], 0}};
  EXPECT_EQ(std::vector<Use>(y->uses().begin(), y->uses().end()), expected);
  // Erasing a user removes exactly its uses.
  body.erase(users[3]);
  EXPECT_EQ(y->uses().size(), 7u);
  for (const Use& u : y->uses()) EXPECT_NE(u.user, users[3]);
}

}  // namespace
}  // namespace shardscope::ir

namespace shardscope::ir {
namespace {

TEST(OperationTest, OpTagsStartEmptyAndANewerOneTakesOver) {
  Module module = makeEmptyModule();
  Op* a = module.body().append(std::make_unique<Op>("test.tagged"));
  Op* b = module.body().append(std::make_unique<Op>("test.tagged"));
  {
    OpTags first;
    EXPECT_EQ(first.get(*a), 0u);
    first.set(*a, 7);
    EXPECT_EQ(first.get(*a), 7u);
    EXPECT_EQ(first.get(*b), 0u);
    first.set(*a, 3);  // retagging replaces
    EXPECT_EQ(first.get(*a), 3u);

    OpTags second;  // a new one sees nothing of the old one's tags
    EXPECT_EQ(second.get(*a), 0u);
    second.set(*b, 5);
    EXPECT_EQ(second.get(*b), 5u);
    EXPECT_EQ(first.get(*b), 0u);
    EXPECT_EQ(first.get(*a), 3u);  // untouched by `second`
    second.set(*a, 1);
    EXPECT_EQ(first.get(*a), 0u);  // taken over
  }
  // An op made where an erased tagged op was starts untagged.
  OpTags third;
  third.set(*b, 9);
  module.body().erase(b);
  Op* c = module.body().append(std::make_unique<Op>("test.tagged"));
  EXPECT_EQ(third.get(*c), 0u);
}

TEST(OperationTest, AttributeNamesAreSharedAndReadAsStrings) {
  Op a("test.names");
  Op b("test.names");
  a.setAttr("broadcast_dimensions", Attribute(UnitAttr{}));
  b.setAttr(std::string("broadcast_") + "dimensions", Attribute(UnitAttr{}));
  const AttrName& na = a.attrs().front().name;
  const AttrName& nb = b.attrs().front().name;
  EXPECT_EQ(&na.str(), &nb.str());  // one stored name for both ops
  EXPECT_TRUE(na == "broadcast_dimensions");
  EXPECT_TRUE(na == std::string("broadcast_dimensions"));
  EXPECT_TRUE(na == std::string_view("broadcast_dimensions"));
  EXPECT_FALSE(na == "broadcast");
  const std::string& asString = na;
  EXPECT_EQ(asString, "broadcast_dimensions");
  EXPECT_NE(a.attr("broadcast_dimensions"), nullptr);
  a.removeAttr("broadcast_dimensions");
  EXPECT_EQ(a.attr("broadcast_dimensions"), nullptr);
  EXPECT_TRUE(AttrName("a") < AttrName("b"));
}

}  // namespace
}  // namespace shardscope::ir
