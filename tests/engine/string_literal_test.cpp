// MLIR spelling of names and strings: what the printers write reads back.
#include "sharding/string_literal.h"

#include <gtest/gtest.h>

namespace shardscope {
namespace {

std::string quoted(std::string_view s) {
  std::string out;
  appendQuoted(out, s);
  return out;
}

std::string name(std::string_view s) {
  std::string out;
  appendName(out, s);
  return out;
}

TEST(StringLiteral, EscapesQuotesBackslashesAndControlBytes) {
  EXPECT_EQ(quoted("x"), "\"x\"");
  EXPECT_EQ(quoted("a\\b"), "\"a\\\\b\"");
  EXPECT_EQ(quoted("e\"f"), "\"e\\22f\"");
  EXPECT_EQ(quoted("c\nd\te"), "\"c\\0Ad\\09e\"");
  EXPECT_EQ(quoted(std::string_view("\x01\x7f\xc3", 3)), "\"\\01\\7F\\C3\"");
}

TEST(StringLiteral, NamesAreBareOnlyWhenTheyAreIdentifiers) {
  EXPECT_EQ(name("sdy.sharding"), "sdy.sharding");
  EXPECT_EQ(name("_x$1"), "_x$1");
  EXPECT_EQ(name(",y"), "\",y\"");
  EXPECT_EQ(name("a b"), "\"a b\"");
  EXPECT_EQ(name("1a"), "\"1a\"");
  EXPECT_EQ(name(""), "\"\"");
  EXPECT_FALSE(isBareIdentifier("c:(1)4"));
}

}  // namespace
}  // namespace shardscope
