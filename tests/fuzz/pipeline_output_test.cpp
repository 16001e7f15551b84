// The form pipeline outputs are compared in (tests/fuzz/pipeline_output.h),
// on the spellings the propagation fuzzer found sdy changing from one run
// to the next, and on differences that must stay visible.
#include "pipeline_output.h"

#include <gtest/gtest.h>

namespace shardscope::fuzz {
namespace {

TEST(PipelineOutputTest, PrivateFunctionsAreRenamedInOrderOfMention) {
  const std::string once =
      "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  %0 = call @f0_0(%arg0) : (tensor<8xf32>) -> tensor<8xf32>\n"
      "  %1 = call @f1(%0) : (tensor<8xf32>) -> tensor<8xf32>\n"
      "func.func private @f1(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
      "func.func private @f0_0(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n";
  std::string twice = once;
  for (size_t at; (at = twice.find("@f0_0(")) != std::string::npos;) twice.replace(at, 6, "@f0_0_0(");
  EXPECT_EQ(comparable(once), comparable(twice));
  EXPECT_NE(comparable(once).find("call @fn0(%arg0)"), std::string::npos) << comparable(once);
  EXPECT_NE(comparable(once).find("@main("), std::string::npos);  // main keeps its name
  // Calls swapped between two functions are still a difference.
  std::string swapped = once;
  swapped.replace(swapped.find("@f0_0(%arg0)"), 12, "@f1(%arg0)");
  EXPECT_NE(comparable(once), comparable(swapped));
}

TEST(PipelineOutputTest, ClosedShardingsWithoutAxesMeanNone) {
  EXPECT_EQ(comparable("func.func private @f(%arg0: tensor<8x8xf32>) -> (tensor<8xf32> "
                       "{sdy.sharding = #sdy.sharding<@mesh_1, [{}]>}, tensor<f32> {sdy.sharding "
                       "= #sdy.sharding<@mesh, []>}) {"),
            "func.func private @fn0(%arg0: tensor<8x8xf32>) -> (tensor<8xf32>, tensor<f32>) {");
  // A single result left without attribute is written bare.
  EXPECT_EQ(comparable("func.func private @f(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding "
                       "= #sdy.sharding<@mesh, [{}]>}) {"),
            "func.func private @fn0(%arg0: tensor<8xf32>) -> tensor<8xf32> {");
  EXPECT_EQ(comparable("func.func private @f() -> (tensor<8xf32>, tensor<8xf32>) {"),
            "func.func private @fn0() -> (tensor<8xf32>, tensor<8xf32>) {");
  EXPECT_EQ(comparable("%0:2 = call @g(%a) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, "
                       "{}]>, <@mesh_1, []>]>} : (t) -> (u, v)"),
            "%0:2 = call @g(%a) : (t) -> (u, v)");
  EXPECT_EQ(comparable("%1:2 = stablehlo.while(%i = %0) : t attributes {sdy.sharding = "
                       "#sdy.sharding_per_value<[<@mesh, [{}]>]>}"),
            "%1:2 = stablehlo.while(%i = %0) : t");
  // One sharding with an axis keeps the attribute, its empty ones any mesh.
  EXPECT_EQ(comparable("%0:2 = call @g(%a) {sdy.sharding = #sdy.sharding_per_value<[<@mesh_1, "
                       "[{}, {}]>, <@mesh, [{\"x\"}]>]>}"),
            "%0:2 = call @g(%a) {sdy.sharding = #sdy.sharding_per_value<[<@*, [{}, {}]>, "
            "<@mesh, [{\"x\"}]>]>}");
  // Open, replicated or sharded dimensions are not "no sharding".
  for (const char* kept : {"{sdy.sharding = #sdy.sharding<@mesh, [{?}]>}",
                           "{sdy.sharding = #sdy.sharding<@mesh, [{}], replicated={\"x\"}>}",
                           "{sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {}]>}"}) {
    const std::string line = std::string("%arg0: tensor<8xf32> ") + kept;
    EXPECT_EQ(comparable(line), line);
  }
}

TEST(PipelineOutputTest, ReshardsCompareClosed) {
  EXPECT_EQ(comparable("%0 = sdy.reshard %arg0 <@mesh, [{?}, {\"x\", ?}]> : tensor<8x8xf32>"),
            "%0 = sdy.reshard %arg0 <@mesh, [{}, {\"x\"}]> : tensor<8x8xf32>");
  // Only reshards: an open dimension elsewhere stays open.
  const std::string constraint = "%0 = sdy.sharding_constraint %arg0 <@mesh, [{?}]> : t";
  EXPECT_EQ(comparable(constraint), constraint);
}

}  // namespace
}  // namespace shardscope::fuzz
