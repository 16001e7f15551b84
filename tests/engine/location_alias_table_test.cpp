// engine/ir/location_alias_table: `#locN` names in numbered slots, every
// other spelling by name, each found again as defined, and a module whose
// aliases mix both read as before.
#include "ir/location_alias_table.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ir/location.h"
#include "parse_test_module.h"

namespace shardscope::ir {
namespace {

using test_support::parseTestModule;

struct AliasCase {
  const char* name;
  std::vector<std::string> defined;  // in this order, each to its own location
  std::vector<std::string> absent;   // names that must not be found
};

class LocationAliasTableTest : public testing::TestWithParam<AliasCase> {};

TEST_P(LocationAliasTableTest, FindsWhatWasDefinedAndNothingElse) {
  const AliasCase& c = GetParam();
  LocationAliasTable table;
  std::vector<const Location*> locs;
  for (size_t i = 0; i < c.defined.size(); ++i) {
    locs.push_back(Location::fileLineCol("t.py", uint32_t(i + 1), 1));
    EXPECT_FALSE(table.contains(c.defined[i])) << c.defined[i];
    table.define(c.defined[i], locs.back());
  }
  for (size_t i = 0; i < c.defined.size(); ++i)
    EXPECT_EQ(table.find(c.defined[i]), locs[i]) << c.defined[i];
  for (const std::string& name : c.absent) EXPECT_EQ(table.find(name), nullptr) << name;
}

INSTANTIATE_TEST_SUITE_P(
    Names, LocationAliasTableTest,
    testing::Values(
        AliasCase{"numbered_in_order", {"loc", "loc1", "loc2", "loc3"}, {"loc4", "loc0", "loc01"}},
        // JAX's numbers start anywhere and leave gaps.
        AliasCase{"numbered_with_gaps", {"loc7", "loc3", "loc100"}, {"loc4", "loc8", "loc99"}},
        // A leading zero is another name than the number.
        AliasCase{"leading_zero", {"loc07", "loc7", "loc0"}, {"loc007", "loc00"}},
        // Far past the slots so far: by name, and found the same.
        AliasCase{"huge_number", {"loc1", "loc999999999", "loc4294967296"}, {"loc2", "loc99999999"}},
        // Not `loc` + digits at all.
        AliasCase{"other_names", {"my_loc", "loc_3", "locx", "LOC5", "l"}, {"loc3", "loc", "loc5"}},
        // A number first far away (in the map), later one close to the slots.
        AliasCase{"far_then_near", {"loc200000", "loc1", "loc2"}, {"loc199999", "loc3"}}),
    [](const testing::TestParamInfo<AliasCase>& info) { return std::string(info.param.name); });

// Through the reader: aliases under both kinds of name, some used before
// they are defined, nested in each other, and one used as an attribute.
TEST(LocationAliasTableReadTest, MixedAliasNamesResolve) {
  auto m = parseTestModule(R"(#loc = loc("top")
#loc05 = loc("five":5:5)
#loc1 = loc("one"(#loc05))
module {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.abs %arg0 : tensor<4xf32> loc(#loc3)
    %1 = stablehlo.abs %0 : tensor<4xf32> loc(#named)
    %2 = stablehlo.abs %1 : tensor<4xf32> loc(#loc05)
    %3 = stablehlo.abs %2 {note = #loc1, other = #loc05} : tensor<4xf32> loc(#loc900000)
    return %3 : tensor<4xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc2 = loc("m.py":3:8)
#loc3 = loc("jit(f)/abs"(#loc2))
#named = loc(callsite(#loc3 at #loc05))
#loc900000 = loc("far"(#named))
)");
  ASSERT_TRUE(m);
  const Block& body = m->functions().front()->region(0).front();
  std::vector<const Op*> ops;
  for (const auto& op : body.ops()) ops.push_back(op.get());
  const Location* file = Location::fileLineCol("m.py", 3, 8);
  const Location* abs = Location::name("jit(f)/abs", file);
  const Location* five = Location::fileLineCol("five", 5, 5);
  const Location* call = Location::callSite(abs, five);
  EXPECT_EQ(ops[0]->location(), abs);
  EXPECT_EQ(ops[1]->location(), call);
  EXPECT_EQ(ops[2]->location(), five);
  EXPECT_EQ(ops[3]->location(), Location::name("far", call));
  EXPECT_EQ(ops[4]->location(), Location::name("top"));
  // Used as an attribute (defined before, as attribute aliases must be) it
  // is the location's text.
  const Attribute* note = ops[3]->attr("note");
  const Attribute* other = ops[3]->attr("other");
  ASSERT_NE(note, nullptr);
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(note->str(), "loc(\"one\"(\"five\":5:5))");
  EXPECT_EQ(other->str(), "loc(\"five\":5:5)");
}

}  // namespace
}  // namespace shardscope::ir
