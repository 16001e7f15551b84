// Tests for engine/verifier/dominance.cpp, through verifyModule.
#include "verifier/dominance.h"

#include <gtest/gtest.h>

#include "ir/parser.h"

namespace shardscope {
namespace {

std::string verifyText(const std::string& text) {
  ir::DiagnosticSink diags;
  std::unique_ptr<ir::Module> m = ir::parseModule(text, ir::ParseOptions{}, diags);
  if (m) verifyModule(*m, diags);
  return diags.formatAll("<test>");
}

TEST(DominanceTest, UseBeforeDefinitionInABlockIsAnError) {
  // This used to verify and run through the whole pipeline.
  EXPECT_EQ(verifyText(R"(func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %1 = stablehlo.add %0, %arg0 : tensor<8xf32>
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %1 : tensor<8xf32>
})"),
            "<test>:2:3: error: operand #0 does not dominate this use\n"
            "<test>:3:3: note: operand defined here (op in the same block)\n");
}

TEST(DominanceTest, UseInANestedRegionOfALaterDefinition) {
  EXPECT_EQ(verifyText(R"(func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.optimization_barrier %arg0 : tensor<8xf32>
  %1 = "stablehlo.reduce"(%0, %arg0) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %2 = stablehlo.add %a, %3 : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) {dimensions = array<i64>} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %3 = stablehlo.constant dense<1.0> : tensor<f32>
  return %1 : tensor<8xf32>
})"),
            "<test>:5:5: error: operand #1 does not dominate this use\n"
            "<test>:8:3: note: operand defined here (op in a parent region)\n");
}

TEST(DominanceTest, DefinitionsBeforeUsesAreFine) {
  EXPECT_EQ(verifyText(R"(func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<8xf32>
  return %1 : tensor<8xf32>
})"),
            "");
}

}  // namespace
}  // namespace shardscope
