// The collectives' verifier: each kind's rule for what its axes do to the
// operand's sharding, with sdy_opt's messages (verifier/collective_verifier).
#include "verifier/collective_verifier.h"

#include <gtest/gtest.h>

#include "ir/parser.h"

namespace shardscope {
namespace {

// The first error verifying a function whose %arg0 has `inSharding` and
// whose body is `line` (defining %0), or "" when it verifies.
std::string firstError(const std::string& inSharding, const std::string& line,
                       const std::string& type = "tensor<16x8xf32>") {
  std::string text =
      "sdy.mesh @mesh = <[\"x\"=2, \"y\"=2, \"z\"=4]>\n"
      "sdy.mesh @other = <[\"a\"=2, \"b\"=2]>\n"
      "func.func @f(%arg0: " + type +
      (inSharding.empty() ? "" : " {sdy.sharding = #sdy.sharding<" + inSharding + ">}") + ") -> " +
      type + " {\n  %0 = " + line + "\n  return %0 : " + type + "\n}\n";
  ir::DiagnosticSink diags;
  auto module = ir::parseModule(text, {}, diags);
  if (!module) return "parse: " + diags.formatAll("t");
  if (verifyModule(*module, diags)) return "";
  return diags.all().front().message;
}

TEST(CollectiveVerifier, AllGatherTakesASuffixOffEachDimension) {
  EXPECT_EQ(firstError("@mesh, [{\"y\"}, {\"x\"}]",
                       "sdy.all_gather [{}, {\"x\"}] %arg0 out_sharding=<@mesh, [{\"y\"}, {}]> : "
                       "tensor<16x8xf32>"),
            "");
  EXPECT_EQ(firstError("@mesh, [{\"y\"}, {\"x\"}]",
                       "sdy.all_gather [{}, {\"y\"}] %arg0 out_sharding=<@mesh, [{\"y\"}, {}]> : "
                       "tensor<16x8xf32>"),
            "'sdy.all_gather' op can't apply gathering axis \"y\" to operand sharding on "
            "dimension 1");
  // Gathering the minor half of "z" leaves its major half.
  EXPECT_EQ(firstError("@mesh, [{}, {\"z\"}]",
                       "sdy.all_gather [{}, {\"z\":(2)2}] %arg0 out_sharding=<@mesh, [{}, {}]> : "
                       "tensor<16x8xf32>"),
            "'sdy.all_gather' op result sharding doesn't match expected sharding [\"z\":(1)2] on "
            "dimension 1");
}

TEST(CollectiveVerifier, CommonChecks) {
  EXPECT_EQ(firstError("", "sdy.all_gather [{}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : "
                           "tensor<16x8xf32>"),
            "'sdy.all_gather' op collective on operand without sharding");
  // All-slice reads a missing operand sharding as replicated.
  EXPECT_EQ(firstError("", "sdy.all_slice [{\"x\"}, {}] %arg0 out_sharding=<@mesh, [{\"x\"}, {}]> : "
                           "tensor<16x8xf32>"),
            "");
  EXPECT_EQ(firstError("@other, [{\"a\"}, {}]",
                       "sdy.all_gather [{\"a\"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : "
                       "tensor<16x8xf32>"),
            "'sdy.all_gather' op result mesh does not match operand mesh");
}

TEST(CollectiveVerifier, AllToAllParams) {
  EXPECT_EQ(firstError("@mesh, [{\"x\"}, {}]",
                       "sdy.all_to_all [{\"x\"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {\"x\"}]> : "
                       "tensor<16x8xf32>"),
            "");
  EXPECT_EQ(firstError("@mesh, [{\"x\"}, {}]",
                       "sdy.all_to_all [{\"x\"}: 0->2] %arg0 out_sharding=<@mesh, [{}, {\"x\"}]> : "
                       "tensor<16x8xf32>"),
            "'sdy.all_to_all' op target dimension 2 is out of range [0, 2)");
  EXPECT_EQ(firstError("@mesh, [{\"x\"}, {}]",
                       "sdy.all_to_all [] %arg0 out_sharding=<@mesh, [{}, {\"x\"}]> : tensor<16x8xf32>"),
            "'sdy.all_to_all' op parameter list is empty");
}

TEST(CollectiveVerifier, CollectivePermuteKeepsShardedSizes) {
  EXPECT_EQ(firstError("@mesh, [{\"x\", \"y\"}, {}]",
                       "sdy.collective_permute %arg0 out_sharding=<@mesh, [{\"z\"}, {}]> : "
                       "tensor<16x8xf32>"),
            "");
  EXPECT_EQ(firstError("@mesh, [{\"x\"}, {}]",
                       "sdy.collective_permute %arg0 out_sharding=<@mesh, [{\"z\"}, {}]> : "
                       "tensor<16x8xf32>"),
            "'sdy.collective_permute' op sharded size of result doesn't match operand on "
            "dimension 0: 4 != 2");
}

TEST(CollectiveVerifier, AllReduceAxes) {
  EXPECT_EQ(firstError("@mesh, [{\"x\"}, {}]",
                       "sdy.all_reduce {\"y\", \"z\"} %arg0 out_sharding=<@mesh, [{\"x\"}, {}]> : "
                       "tensor<16x8xf32>"),
            "");
  EXPECT_EQ(firstError("@mesh, [{\"x\"}, {}]",
                       "sdy.all_reduce {\"z\", \"y\"} %arg0 out_sharding=<@mesh, [{\"x\"}, {}]> : "
                       "tensor<16x8xf32>"),
            "'sdy.all_reduce' op reduction axes are not ordered w.r.t. mesh");
  EXPECT_EQ(firstError("@mesh, [{\"x\"}, {}]",
                       "sdy.all_reduce {\"x\"} %arg0 out_sharding=<@mesh, [{\"x\"}, {}]> : "
                       "tensor<16x8xf32>"),
            "'sdy.all_reduce' op reduction axis \"x\" overlaps with operand dimension sharding or "
            "replicated axes");
  // A max all-reduce cannot reduce sum-unreduced axes.
  EXPECT_EQ(firstError("@mesh, [{}, {}], unreduced={\"y\"}",
                       "sdy.all_reduce max {\"y\"} %arg0 out_sharding=<@mesh, [{}, {}]> : "
                       "tensor<16x8xf32>"),
            "'sdy.all_reduce' op cannot reduce 'sum' unreduced axes. Expected 'max'.");
}

TEST(CollectiveVerifier, UnreducedConversions) {
  EXPECT_EQ(firstError("@mesh, [{\"x\"}, {}]",
                       "sdy.sharded_to_unreduced [{\"x\"}, {}] %arg0 out_sharding=<@mesh, [{}, {}], "
                       "unreduced={\"x\"}> : tensor<16x8xf32>"),
            "");
  EXPECT_EQ(firstError("@mesh, [{\"x\"}, {}]",
                       "sdy.replicated_to_unreduced {\"x\"} %arg0 out_sharding=<@mesh, [{\"x\"}, {}], "
                       "unreduced={\"y\"}> : tensor<16x8xf32>"),
            "'sdy.replicated_to_unreduced' op r2u axis \"x\" overlaps with operand dimension "
            "sharding");
}

}  // namespace
}  // namespace shardscope
