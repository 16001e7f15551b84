// engine/ir/location: MLIR locations read into shared values, every form
// kept, aliases resolved also when used before they are defined.
#include "ir/location.h"

#include <gtest/gtest.h>

#include "ir/parser.h"
#include "parse_test_module.h"

namespace shardscope::ir {
namespace {

using test_support::parseTestModule;

TEST(LocationTest, EqualLocationsAreOneObject) {
  EXPECT_EQ(Location::fileLineCol("a.py", 1, 2), Location::fileLineCol("a.py", 1, 2));
  EXPECT_NE(Location::fileLineCol("a.py", 1, 2), Location::fileLineCol("a.py", 1, 3));
  const Location* f = Location::fileLineCol("a.py", 1, 2);
  EXPECT_EQ(Location::name("x", f), Location::name("x", f));
  EXPECT_EQ(Location::name("x"), Location::name("x", Location::unknown()));
  EXPECT_EQ(Location::callSite(f, Location::unknown()), Location::callSite(f, nullptr));
}

TEST(LocationTest, FusedSimplifiesAsMlir) {
  const Location* a = Location::fileLineCol("a.py", 1, 2);
  const Location* b = Location::fileLineCol("b.py", 3, 4);
  EXPECT_EQ(Location::fused({}), Location::unknown());
  EXPECT_EQ(Location::fused({a}), a);
  EXPECT_EQ(Location::fused({a, Location::unknown(), a}), a);
  const Location* ab = Location::fused({a, b});
  EXPECT_EQ(ab->locations(), (std::vector<const Location*>{a, b}));
  EXPECT_EQ(Location::fused({ab, a}), ab);  // flattened, repeats dropped
  EXPECT_EQ(locationText(*Location::fused({a}, "\"CSE\"")), "fused<\"CSE\">[\"a.py\":1:2]");
  EXPECT_EQ(locationText(*Location::fused({}, "\"m\"")), "fused<\"m\">[unknown]");
}

// Texts are kept in the interner's arena: many names fill several of its
// blocks, a very long one gets a block of its own, and every text stays
// intact and found again by its spelling (the source text it was read from
// is gone by then).
TEST(LocationTest, TextsOutliveTheirSourceAcrossArenaBlocks) {
  struct Kept {
    std::string text;
    const Location* loc;
  };
  std::vector<Kept> kept;
  for (int i = 0; i < 3000; ++i) {  // about 3 MB of names: several blocks
    std::string text = "jit(f)/layer_" + std::to_string(i) + "/" + std::string(1000, char('a' + i % 26));
    std::string source = text;  // freed below, as a parsed file's text is
    kept.push_back({text, Location::name(source)});
    source.assign(source.size(), '#');
  }
  std::string longName(700000, 'x');  // over a quarter block: its own
  longName += "/end";
  const Location* longLoc = Location::name(longName);
  const Location* file = Location::fileLineCol(std::string(300000, 'p') + ".py", 7, 8);
  for (const Kept& k : kept) {
    EXPECT_EQ(k.loc->name(), k.text);
    EXPECT_EQ(Location::name(k.text), k.loc);
  }
  EXPECT_EQ(longLoc->name(), longName);
  EXPECT_EQ(Location::name(longName), longLoc);
  EXPECT_EQ(file->file(), std::string(300000, 'p') + ".py");
  EXPECT_EQ(file->line(), 7u);
  EXPECT_TRUE(Location::name("")->name().empty());
  EXPECT_EQ(Location::name(""), Location::name(std::string_view()));
  // Non-fused locations list nothing.
  EXPECT_TRUE(longLoc->locations().empty());
  EXPECT_EQ(locationText(*Location::fused({longLoc, file}, "\"m\"")).substr(0, 12), "fused<\"m\">[\"");
}

TEST(LocationTest, TextOfEachForm) {
  struct Case {
    const char* written;
    const char* text;
  };
  for (const Case& c : std::vector<Case>{
           {"unknown", "unknown"},
           {"\"model.py\":41:12", "\"model.py\":41:12"},
           {"\"<string>\":16:15 to :106", "\"<string>\":16:15 to :106"},
           {"\"a.py\":1:2 to 3:4", "\"a.py\":1:2 to 3:4"},
           {"\"x\"", "\"x\""},
           {"\"jit(f)/add\"(\"m.py\":3:8)", "\"jit(f)/add\"(\"m.py\":3:8)"},
           {"\"x\"(unknown)", "\"x\""},
           {"callsite(\"f\"(\"a.py\":1:2) at \"b.py\":5:1)", "callsite(\"f\"(\"a.py\":1:2) at \"b.py\":5:1)"},
           {"fused[\"a.py\":1:2, \"b.py\":3:4]", "fused[\"a.py\":1:2, \"b.py\":3:4]"},
           {"fused<\"CSE\">[\"a.py\":1:2, unknown]", "fused<\"CSE\">[\"a.py\":1:2]"},
           {"\"q\\\"uote\"", "\"q\\22uote\""},  // MLIR writes a quote as \22
       }) {
    SCOPED_TRACE(c.written);
    auto m = parseTestModule(std::string("func.func @main() {\n  return loc(") + c.written + ")\n}\n");
    ASSERT_TRUE(m);
    const Op* ret = m->functions().front()->region(0).front().terminator();
    ASSERT_NE(ret->location(), nullptr);
    EXPECT_EQ(locationText(*ret->location()), c.text);
  }
}

TEST(LocationTest, AliasesUsedBeforeTheyAreDefined) {
  auto m = parseTestModule(R"(#loc1 = loc("x")
module {
  func.func @main(%arg0: tensor<4xf32> loc("x"), %arg1: tensor<4xf32> loc(#loc1)) -> tensor<4xf32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<4xf32> loc(#loc4)
    %c = stablehlo.constant dense<0.0> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %c) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
     reducer(%a: tensor<f32> loc(#loc3), %b: tensor<f32>)  {
      stablehlo.return %a : tensor<f32> loc(#loc)
    } loc(#loc)
    return %0 : tensor<4xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("m.py":3:8)
#loc3 = loc("jit(f)/add"(#loc2))
#loc4 = loc(callsite(#loc3 at #loc2))
)");
  ASSERT_TRUE(m);
  Op* f = m->functions().front();
  const Block& body = f->region(0).front();
  EXPECT_EQ(body.argumentLocation(0), Location::name("x"));
  EXPECT_EQ(body.argumentLocation(1), Location::name("x"));
  const Location* file = Location::fileLineCol("m.py", 3, 8);
  const Location* named = Location::name("jit(f)/add", file);
  EXPECT_EQ(body.ops().front()->location(), Location::callSite(named, file));
  const Op* reduce = std::next(body.ops().begin(), 2)->get();
  EXPECT_EQ(reduce->region(0).front().argumentLocation(0), named);
  EXPECT_EQ(reduce->region(0).front().argumentLocation(1), nullptr);
  EXPECT_EQ(f->location(), Location::unknown());
  EXPECT_EQ(m->op->location(), Location::unknown());
}

TEST(LocationTest, OpsWithoutLocationHaveNone) {
  auto m = parseTestModule("func.func @main() {\n  return\n}\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->functions().front()->location(), nullptr);
}

std::string firstError(const std::string& text) {
  DiagnosticSink diags;
  auto m = parseModule(text, ParseOptions{}, diags);
  EXPECT_FALSE(m);
  return diags.formatAll("<test>");
}

TEST(LocationTest, MalformedLocationsAreErrorsWhereTheyAre) {
  struct Case {
    const char* loc;
    const char* error;
  };
  for (const Case& c : std::vector<Case>{
           {"loc(\"a.py\":x)", "<test>:2:21: error: expected integer line number in file location\n"},
           {"loc(\"a.py\":1:)", "<test>:2:23: error: expected integer column number in file location\n"},
           {"loc(\"a.py\":1:2 to)",
            "<test>:2:27: error: expected integer line number after 'to' in file location\n"},
           {"loc(callsite(\"a\" \"b\"))", "<test>:2:27: error: expected 'at' in callsite location\n"},
           {"loc(bogus)",
            "<test>:2:14: error: expected location instance: unknown, \"file\":line:col, \"name\", "
            "callsite(...), fused[...] or #alias\n"},
           {"loc(fused[\"a\" \"b\"])", "<test>:2:24: error: expected ']'\n"},
           {"loc(callsite(#nope at unknown))", "<test>:2:23: error: undefined symbol alias id 'nope'\n"},
           {"loc(\"a\"(\"b\")", "<test>:2:10: error: malformed location: expected 'loc(...)' with matching "
                              "brackets and quotes\n"},
       }) {
    SCOPED_TRACE(c.loc);
    EXPECT_EQ(firstError(std::string("func.func @main() {\n  return ") + c.loc + "\n}\n"), c.error);
  }
  // An alias definition naming an alias not defined yet.
  EXPECT_EQ(firstError("#loc1 = loc(\"f\"(#loc2))\nfunc.func @main() {\n  return\n}\n"),
            "<test>:1:17: error: undefined symbol alias id 'loc2'\n");
}

// The shapes JAX writes, `loc(#name)` and `loc("text"(#name))`, are read
// without the bracket scan; text close to them still gets the scan's answer.
TEST(LocationTest, NearlyJaxShapedLocationsGetTheBracketCheck) {
  struct Case {
    const char* loc;
    const char* error;
  };
  const char* malformed =
      "<test>:2:10: error: malformed location: expected 'loc(...)' with matching brackets and quotes\n";
  for (const Case& c : std::vector<Case>{
           {"loc(#a", malformed},
           {"loc(#a(", malformed},
           {"loc(\"a\"(#b)", malformed},
           {"loc(\"a\"(#b", malformed},
           {"loc(\"a\\\"(#b))", malformed},  // the quote is escaped: the string never ends
           {"loc(\"a\"(#b)) ", "<test>:2:18: error: undefined symbol alias id 'b'\n"},
           {"loc(\"a\\\"b\"(#b))", "<test>:2:21: error: undefined symbol alias id 'b'\n"},
           {"loc(#b c)", "<test>:2:17: error: expected ')'\n"},
           {"loc(#)", "<test>:2:14: error: expected location alias name after '#'\n"},
           {"loc(\"a\n\"(#b))", "<test>:2:14: error: unterminated string literal\n"},
       }) {
    SCOPED_TRACE(c.loc);
    EXPECT_EQ(firstError(std::string("func.func @main() {\n  return ") + c.loc + "\n}\n"), c.error);
  }
}

// An op's or a block argument's `loc(#name)` whose name is never defined is
// reported at the first such use in the text, whichever kind it is.
TEST(LocationTest, UndefinedLocationAliasIsReportedAtItsFirstUse) {
  EXPECT_EQ(firstError("func.func @f() {\n  return loc(#a)\n}\n"
                       "func.func @g(%x: f32 loc(#b)) {\n  return\n}\n"),
            "<test>:2:14: error: operation location alias was never defined\n");
  EXPECT_EQ(firstError("func.func @g(%x: f32 loc(#b)) {\n  return loc(#a)\n}\n"),
            "<test>:1:26: error: operation location alias was never defined\n");
  EXPECT_EQ(firstError("func.func @g(%x: f32 loc(#b)) {\n  return loc(#b)\n}\n#b = loc(\"x\")\n"
                       "func.func @h() {\n  return loc(#c)\n}\n"),
            "<test>:6:14: error: operation location alias was never defined\n");
}

}  // namespace
}  // namespace shardscope::ir
