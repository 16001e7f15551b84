// Verifier errors in an attribute point at the attribute (and at the axis or
// mesh in it) when the reader's attribute sites are given: by their own
// location (the GUI) or by a note after the error, which stays at its op as
// sdy_opt reports it (the CLI). Without sites: at the op only (issue 12
// item 10).
#include "ir/attribute_sites.h"

#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "ir/parser.h"
#include "verifier/verifier.h"

namespace shardscope {
namespace {

struct Verified {
  std::vector<ir::Diagnostic> diags;
  std::string text;
};

// Reads and verifies `text`, with attribute sites when `withSites`, errors
// placed by `placement`.
Verified verify(const std::string& text, bool withSites = true,
                SitePlacement placement = SitePlacement::Error) {
  Verified out;
  out.text = text;
  ir::DiagnosticSink sink;
  ir::AttributeSites sites;
  ir::ParseOptions opts;
  if (withSites) opts.attributeSites = &sites;
  std::unique_ptr<ir::Module> m = ir::parseModule(out.text, opts, sink);
  EXPECT_TRUE(m) << sink.formatAll("<test>");
  if (m) verifyModule(*m, sink, withSites ? &sites : nullptr, placement);
  out.diags = sink.all();
  return out;
}

// Line `line` (1-based) of `text`.
std::string lineOf(const std::string& text, uint32_t line) {
  std::istringstream in(text);
  std::string l;
  for (uint32_t i = 0; i < line && std::getline(in, l); ++i) {
  }
  return l;
}

// The 1-based column of the `occurrence`-th `what` on line `line`.
uint32_t columnOf(const std::string& text, uint32_t line, const std::string& what,
                  int occurrence = 1) {
  const std::string l = lineOf(text, line);
  size_t at = l.find(what);
  for (int n = 1; n < occurrence && at != std::string::npos; ++n) at = l.find(what, at + 1);
  EXPECT_NE(at, std::string::npos) << what << " not on line " << line;
  return static_cast<uint32_t>(at + 1);
}

// `text` has one verifier error, `message`, at the `occurrence`-th `token`
// on line `line`.
void expectErrorAt(const std::string& text, const std::string& message, uint32_t line,
                   const std::string& token, int occurrence = 1) {
  Verified v = verify(text);
  ASSERT_EQ(v.diags.size(), 1u);
  EXPECT_EQ(v.diags[0].message, message);
  EXPECT_EQ(v.diags[0].loc, (ir::SourceLoc{line, columnOf(text, line, token, occurrence)}));
}

const char kUnknownArgAxis[] =
    "sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n"
    "func.func @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"c\"}, "
    "{}]>}) -> tensor<4x8xf32> {\n"
    "  return %arg0 : tensor<4x8xf32>\n"
    "}\n";

TEST(AttributeSites, UnknownAxisOfAnArgumentIsShownAtTheAxis) {
  expectErrorAt(kUnknownArgAxis, "'func.func' op arg 0 - unknown axis name: \"c\"", 2, "\"c\"");
}

TEST(AttributeSites, WithoutSitesTheErrorIsAtItsOpAsSdyOptReportsIt) {
  Verified v = verify(kUnknownArgAxis, /*withSites=*/false);
  ASSERT_EQ(v.diags.size(), 1u);
  EXPECT_EQ(v.diags[0].loc, (ir::SourceLoc{2, 1}));
}

TEST(AttributeSites, AsANoteTheErrorStaysAtItsOp) {
  Verified v = verify(kUnknownArgAxis, /*withSites=*/true, SitePlacement::Note);
  ASSERT_EQ(v.diags.size(), 2u);
  EXPECT_EQ(v.diags[0].severity, ir::Severity::Error);
  EXPECT_EQ(v.diags[0].loc, (ir::SourceLoc{2, 1}));
  EXPECT_EQ(v.diags[1].severity, ir::Severity::Note);
  EXPECT_EQ(v.diags[1].loc, (ir::SourceLoc{2, columnOf(v.text, 2, "\"c\"")}));
  EXPECT_EQ(v.diags[1].message, "at \"c\" in 'sdy.sharding' of argument 0");
}

TEST(AttributeSites, ResultAttributeOfAFunction) {
  const std::string text =
      "sdy.mesh @mesh = <[\"a\"=2]>\n"
      "func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = "
      "#sdy.sharding<@nowhere, [{}]>}) {\n"
      "  return %arg0 : tensor<8xf32>\n"
      "}\n";
  expectErrorAt(text, "'func.func' op result 0 - unknown mesh: @nowhere", 2, "@nowhere");
}

TEST(AttributeSites, OneShardingOfAPerValueAttributeAndTheAxisInIt) {
  // "a" twice in the second sharding; the first sharding names "a" too.
  const std::string text =
      "sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n"
      "func.func @main(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> (tensor<4x8xf32>, "
      "tensor<4x8xf32>) {\n"
      "  %0:2 = stablehlo.optimization_barrier %arg0, %arg1 {sdy.sharding = "
      "#sdy.sharding_per_value<[<@mesh, [{\"a\"}, {}]>, <@mesh, [{\"a\", \"a\"}, {}]>]>} : "
      "tensor<4x8xf32>, tensor<4x8xf32>\n"
      "  return %0#0, %0#1 : tensor<4x8xf32>, tensor<4x8xf32>\n"
      "}\n";
  // The second "a" of the second sharding: the third "a" on the line.
  expectErrorAt(text, "'stablehlo.optimization_barrier' op result 1 - duplicate axis ref: \"a\"", 3,
                "\"a\"", 3);
}

TEST(AttributeSites, CustomSyntaxShardingOfAConstraint) {
  const std::string text =
      "sdy.mesh @mesh = <[\"a\"=2]>\n"
      "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  %0 = sdy.sharding_constraint %arg0 <@mesh, [{\"a\", \"q\"}]> : tensor<8xf32>\n"
      "  return %0 : tensor<8xf32>\n"
      "}\n";
  expectErrorAt(text, "'sdy.sharding_constraint' op unknown axis name: \"q\"", 3, "\"q\"");
}

TEST(AttributeSites, AnAttributeOverSeveralLines) {
  const std::string text =
      "sdy.mesh @mesh = <[\"a\"=2]>\n"
      "func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh,\n"
      "    [{\"a\":(1)2}]>}) -> tensor<8xf32> {\n"
      "  return %arg0 : tensor<8xf32>\n"
      "}\n";
  expectErrorAt(text,
                "'func.func' op arg 0 - sub-axis size is equal to the full axis size: \"a\":(1)2", 3,
                "\"a\"");
}

TEST(AttributeSites, LocateNarrowsToTheListElementIgnoringBracketsInNames) {
  const std::string text = "x = [<@m, [{\"]\"}]>, <@m, [{\"]\"}, {\"k\"}]>]";
  ir::AttributeSites sites(text);
  sites.add({1, 1}, "attr", 4, text.size(), {1, 5});
  ir::SiteTarget second;
  second.element = 1;
  second.token = "\"]\"";
  EXPECT_EQ(sites.locate({1, 1}, "attr", second).col, text.rfind("\"]\"") + 1);
  ir::SiteTarget missing;
  missing.element = 1;
  missing.token = "\"zz\"";
  // Not found: the element itself.
  EXPECT_EQ(sites.locate({1, 1}, "attr", missing).col, text.find("<@m, [{\"]\"}, ") + 1);
  EXPECT_FALSE(sites.locate({1, 1}, "other").known());
  EXPECT_FALSE(sites.locate({2, 1}, "attr").known());
}

}  // namespace
}  // namespace shardscope
