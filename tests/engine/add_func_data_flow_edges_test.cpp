// `-sdy-add-func-data-flow-edges` and import-func-calls'
// `add-data-flow-edges-on-named-computations` (passes/import_passes.h).
#include <gtest/gtest.h>

#include "ir/printer.h"
#include "parse_test_module.h"
#include "passes/import_passes.h"

namespace shardscope {
namespace {

const char* kModule =
    "sdy.mesh @mesh = <[\"x\"=2]>\n"
    "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
    "  %0 = call @bar(%arg0) : (tensor<8xf32>) -> tensor<8xf32>\n"
    "  return %0 : tensor<8xf32>\n"
    "}\n"
    "func.func private @bar(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>}) "
    "-> tensor<8xf32> {\n"
    "  %0 = stablehlo.negate %arg0 : tensor<8xf32>\n"
    "  return %0 : tensor<8xf32>\n"
    "}\n";

TEST(AddFuncDataFlowEdges, EdgesAfterCalleeArgumentsAndCallResults) {
  auto m = test_support::parseTestModule(kModule);
  ASSERT_TRUE(m);
  ir::DiagnosticSink diags;
  ASSERT_TRUE(passes::addFuncDataFlowEdges(*m, diags));
  std::string printed = ir::printModule(*m);
  // The main function's argument gets none; the call result and @bar's
  // argument (with its sharding) do.
  EXPECT_NE(printed.find("%0 = call @bar(%arg0) : (tensor<8xf32>) -> tensor<8xf32>\n"
                         "    %1 = sdy.func_data_flow_edge %0 : tensor<8xf32>\n"
                         "    return %1"),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("%0 = sdy.func_data_flow_edge %arg0 {sdy.sharding = "
                         "#sdy.sharding_per_value<[<@mesh, [{\"x\"}]>]>} : tensor<8xf32>\n"
                         "    %1 = stablehlo.negate %0"),
            std::string::npos)
      << printed;
}

TEST(ImportFuncCalls, NamedComputationsWithoutDataFlowEdgesWhenAsked) {
  for (bool edges : {true, false}) {
    auto m = test_support::parseTestModule(kModule);
    ASSERT_TRUE(m);
    ir::DiagnosticSink diags;
    ASSERT_TRUE(passes::importFuncCallsWithEdges(*m, diags, edges));
    std::string printed = ir::printModule(*m);
    EXPECT_NE(printed.find("sdy.named_computation<\"bar\">"), std::string::npos) << printed;
    EXPECT_EQ(printed.find("sdy.data_flow_edge") != std::string::npos, edges) << printed;
  }
}

}  // namespace
}  // namespace shardscope
