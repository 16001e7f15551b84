// Tests for engine/passes/pass.cpp: pass option parsing and lookup, and
// running a pipeline step.
#include <gtest/gtest.h>

#include "ir/parser.h"
#include "passes/pass.h"

namespace shardscope::passes {
namespace {

PassOptions parsed(const std::string& text) {
  PassOptions out;
  std::string error;
  EXPECT_TRUE(parsePassOptions(text, out, error)) << error;
  return out;
}

TEST(PassOptionsTest, ParsesQuotedAndBareValues) {
  PassOptions o = parsed(R"(a=1 b="x y" c='z' flag)");
  EXPECT_EQ(o.get("a"), "1");
  EXPECT_EQ(o.get("b"), "x y");
  EXPECT_EQ(o.get("c"), "z");
  EXPECT_TRUE(o.getBool("flag"));  // a bare key is true
  EXPECT_EQ(o.get("missing", "d"), "d");
}

TEST(PassOptionsTest, MalformedTextIsAnError) {
  PassOptions out;
  std::string error;
  EXPECT_FALSE(parsePassOptions(R"(a="open)", out, error));
  EXPECT_NE(error.find("unterminated quote"), std::string::npos) << error;
}

TEST(PassOptionsTest, IntegersTakeWholeNumbersOnly) {
  PassOptions o = parsed("n=12 neg=-3 word=two mixed=4x huge=123456789012345678901");
  EXPECT_EQ(o.getInt("n", 0), 12);
  EXPECT_EQ(o.getInt("neg", 0), -3);
  EXPECT_EQ(o.getInt("absent", 7), 7);
  EXPECT_EQ(o.getInt("word", 0), std::nullopt);
  EXPECT_EQ(o.getInt("mixed", 0), std::nullopt);
  EXPECT_EQ(o.getInt("huge", 0), std::nullopt);  // would not fit
}

TEST(PassOptionsTest, PipelineStepsRunRegisteredPassesAndSkipUnknownOnes) {
  ir::DiagnosticSink diags;
  auto module = ir::parseModule(R"(sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>}) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
)",
                                ir::ParseOptions{}, diags);
  ASSERT_TRUE(module);
  std::vector<PassTiming> timings;
  PassContext ctx{diags};
  ctx.timings = &timings;
  EXPECT_TRUE(runPipelineStep("no-such-pass", {}, *module, ctx));
  EXPECT_TRUE(runPipelineStep("sdy-close-shardings", {}, *module, ctx));
  ASSERT_EQ(timings.size(), 1u);
  EXPECT_EQ(timings[0].name, "sdy-close-shardings");
  EXPECT_EQ(timings[0].depth, 1);
}

}  // namespace
}  // namespace shardscope::passes
