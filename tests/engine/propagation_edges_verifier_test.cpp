// The checks of an op's propagation edges against the op
// (verifier/propagation_edges_verifier.h), through the module verifier, with
// sdy_opt's messages.
#include "verifier/propagation_edges_verifier.h"

#include <gtest/gtest.h>

#include <string>

#include "ir/parser.h"

namespace shardscope {
namespace {

// The first error verifying `%0 = stablehlo.add %arg0, %arg0 {ATTRS}` where
// %arg0 has `argSharding` (none when empty), or "" when it verifies.
std::string firstError(const std::string& argSharding, const std::string& attrs) {
  const std::string text =
      "sdy.mesh @mesh = <[\"z\"=4]>\n"
      "sdy.mesh @other = <[\"w\"=2]>\n"
      "sdy.mesh @same = <[\"z\"=4]>\n"
      "func.func @f(%arg0: tensor<8x8xf32>" +
      (argSharding.empty() ? "" : " {sdy.sharding = #sdy.sharding<" + argSharding + ">}") +
      ") -> tensor<8x8xf32> {\n"
      "  %0 = stablehlo.add %arg0, %arg0 {" +
      attrs +
      "} : tensor<8x8xf32>\n"
      "  return %0 : tensor<8x8xf32>\n"
      "}\n";
  ir::DiagnosticSink diags;
  auto module = ir::parseModule(text, {}, diags);
  if (!module) return "parse: " + diags.formatAll("t");
  if (verifyModule(*module, diags)) return "";
  return diags.all().front().message;
}

std::string edges(const std::string& entry) {
  return "sdy.propagation_edges = #sdy.propagation_edges<[{step-22 = [" + entry + "]}]>";
}

const std::string kResultSharding =
    ", sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {\"z\"}]>]>";

TEST(PropagationEdgesVerifier, IndicesMustNameAnOperandOrAResult) {
  EXPECT_EQ(
      firstError("@mesh, [{}, {\"z\"}]", edges("{\"z\" = operand-1 -> [operand-0, result-0]}")),
      "");
  EXPECT_EQ(
      firstError("@mesh, [{}, {\"z\"}]", edges("{\"z\" = operand-1 -> [operand-0, result-1]}")),
      "'stablehlo.add' op expected a value ref to have a result index in range [0, 1), got: 1");
  EXPECT_EQ(firstError("@mesh, [{}, {\"z\"}]",
                       edges("{\"z\" = result-0 -> [operand-3]}") + kResultSharding),
            "'stablehlo.add' op expected a value ref to have an operand index in range [0, 2), "
            "got: 3");
  EXPECT_EQ(firstError("@mesh, [{}, {\"z\"}]",
                       edges("{\"z\" = operand--1 -> [result-0]}") + kResultSharding),
            "'stablehlo.add' op expected a value ref to have an operand index in range [0, 2), "
            "got: -1");
}

TEST(PropagationEdgesVerifier, EdgesMustReachAShardingOnOneMesh) {
  // Nothing they point at is sharded.
  EXPECT_EQ(firstError("", edges("{\"z\" = operand-1 -> [operand-0, result-0]}")),
            "'stablehlo.add' op expected propagation edges attr to reference a sharding.");
  // The op's own result sharding counts; a mesh with the same axes is the same mesh.
  EXPECT_EQ(firstError("@same, [{}, {\"z\"}]",
                       edges("{\"z\" = operand-1 -> [result-0]}") +
                           ", sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {\"z\"}]>]>"),
            "");
  EXPECT_EQ(firstError("@other, [{}, {\"w\"}]",
                       edges("{\"z\" = operand-1 -> [result-0]}") +
                           ", sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {\"z\"}]>]>"),
            "'stablehlo.add' op expected a common mesh for propagation edges attr.");
  // Checked before the op's own (invalid) sharding: attributes go in name order.
  EXPECT_EQ(firstError("@mesh, [{\"z\"}, {}]",
                       edges("{\"q\" = operand-1 -> [result-0]}") +
                           ", sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {\"q\"}]>]>"),
            "'stablehlo.add' op expected axis ref to be in one of the meshes");
}

TEST(PropagationEdgesVerifier, AttributesMustHaveTheirTypes) {
  EXPECT_EQ(firstError("", "sdy.propagation_edges = 64"),
            "'stablehlo.add' op should have a propagation edges attribute of type "
            "PropagationEdgesAttr for attr named 'sdy.propagation_edges'");
  const std::string listMessage =
      "'stablehlo.add' op should have a propagation edges attribute of type "
      "ArrayAttr<PropagationEdgesAttr> for attr named 'sdy.result_propagation_edges' or "
      "'sdy.block_arg_propagation_edges'";
  EXPECT_EQ(firstError("", "sdy.result_propagation_edges = 64"), listMessage);
  EXPECT_EQ(firstError("", "sdy.block_arg_propagation_edges = [1, 2]"), listMessage);
  EXPECT_EQ(firstError("", "sdy.result_propagation_edges = [#sdy.propagation_edges<[]>]"), "");
}

// A function data-flow edge's edges stand for the function's values: their
// indices are not checked against the op.
TEST(PropagationEdgesVerifier, FunctionDataFlowEdgesSkipTheIndexCheck) {
  const char* text =
      "sdy.mesh @mesh = <[\"z\"=4]>\n"
      "func.func @f(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>) {\n"
      "  %0 = sdy.func_data_flow_edge %arg0 {sdy.propagation_edges = #sdy.propagation_edges<[{"
      "step-22 = [{\"z\" = result-0 -> [operand-3]}]}]>, sdy.sharding = "
      "#sdy.sharding_per_value<[<@mesh, [{?}, {\"z\", ?}]>]>} : tensor<8x8xf32>\n"
      "  return %0 : tensor<8x8xf32>\n"
      "}\n";
  ir::DiagnosticSink diags;
  auto module = ir::parseModule(text, {}, diags);
  ASSERT_TRUE(module) << diags.formatAll("t");
  EXPECT_TRUE(verifyModule(*module, diags)) << diags.formatAll("t");
}

}  // namespace
}  // namespace shardscope
