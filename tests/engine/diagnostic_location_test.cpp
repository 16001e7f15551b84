// Verifier errors about a mesh axis point at the axis in the text.
#include "api/diagnostic_location.h"

#include <gtest/gtest.h>

#include "api/document.h"

namespace shardscope::api {
namespace {

TEST(DiagnosticLocation, AxisNamedInMessage) {
  EXPECT_EQ(axisNamedInMessage("'func.func' op arg 0 - unknown axis name: \"z\""), "z");
  EXPECT_EQ(axisNamedInMessage("'sdy.manual_computation' op unknown manual axis: \"w\""), "w");
  EXPECT_EQ(axisNamedInMessage("duplicate axis name: \"x\""), "x");
  EXPECT_EQ(axisNamedInMessage("expected '>'"), std::nullopt);
  EXPECT_EQ(axisNamedInMessage("axis name: \"\""), std::nullopt);
}

struct Case {
  const char* name;
  const char* text;
  unsigned line, col;  // where the error is shown
};

class UnknownAxis : public testing::TestWithParam<Case> {};

TEST_P(UnknownAxis, IsShownAtTheAxis) {
  const Case& c = GetParam();
  auto doc = parseDocument(c.text, "m.mlir");
  ASSERT_EQ(doc->failedStage, LoadStage::Verify);
  ASSERT_FALSE(doc->diagnostics.empty());
  const ir::Diagnostic& d = doc->diagnostics.front();
  EXPECT_NE(d.message.find("unknown axis name: \"z\""), std::string::npos) << d.message;
  EXPECT_EQ(d.loc.line, c.line) << d.message;
  EXPECT_EQ(d.loc.col, c.col) << d.message;
}

INSTANTIATE_TEST_SUITE_P(
    Api, UnknownAxis,
    testing::Values(
        Case{"FunctionArgument",
             "sdy.mesh @mesh = <[\"x\"=2]>\n"
             "func.func @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, "
             "[{\"z\"}]>}) -> tensor<4xf32> {\n"
             "  return %arg0 : tensor<4xf32>\n}\n",
             2, 77},
        Case{"ArgumentOnItsOwnLine",
             "sdy.mesh @mesh = <[\"x\"=2, \"z0\"=2]>\n"
             "func.func @main(%arg0: tensor<4xf32>,\n"
             "                %arg1: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, "
             "[{\"z\"}]>}) -> tensor<4xf32> {\n"
             "  return %arg0 : tensor<4xf32>\n}\n",
             3, 77},
        Case{"OpResult",
             "sdy.mesh @mesh = <[\"x\"=2]>\n"
             "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
             "  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = "
             "#sdy.sharding_per_value<[<@mesh, [{\"z\"}]>]>} : tensor<4xf32>\n"
             "  return %0 : tensor<4xf32>\n}\n",
             3, 86}),
    [](const testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

TEST(DiagnosticLocation, TheSearchStopsAtTheNextOp) {
  // Line 3's op has no "x" in its text; the next op's "x" is not its.
  auto doc = parseDocument(
      "sdy.mesh @mesh = <[\"x\"=2]>\n"
      "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>\n"
      "  %1 = stablehlo.add %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, "
      "[{\"x\"}]>]>} : tensor<4xf32>\n"
      "  return %1 : tensor<4xf32>\n}\n",
      "m.mlir");
  ASSERT_TRUE(doc->module);
  std::vector<ir::Diagnostic> diags{{ir::Severity::Error, {3, 3}, "unknown axis name: \"x\""},
                                    {ir::Severity::Error, {4, 3}, "unknown axis name: \"x\""}};
  pointDiagnosticsAtAxes(doc->text, *doc->module, diags);
  EXPECT_EQ(diags[0].loc, (ir::SourceLoc{3, 3}));
  EXPECT_EQ(diags[1].loc, (ir::SourceLoc{4, 80}));
}

}  // namespace
}  // namespace shardscope::api
