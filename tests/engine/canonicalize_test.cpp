// `-canonicalize` (passes/canonicalize.h): the sdy patterns for collectives,
// reshards and manual computations, run to a fixed point.
#include "passes/canonicalize.h"

#include <gtest/gtest.h>

#include "ir/printer.h"
#include "parse_test_module.h"

namespace shardscope {
namespace {

const char* kMeshes =
    "sdy.mesh @mesh = <[\"x\"=2, \"y\"=2]>\n"
    "sdy.mesh @one = <[\"a\"=2, \"b\"=1]>\n";

// The body of @f after canonicalizing `body` (the lines between the braces).
std::string canonicalized(const std::string& signature, const std::string& body) {
  auto m = test_support::parseTestModule(std::string(kMeshes) + "func.func @f" + signature + " {\n" +
                                         body + "}\n");
  if (!m) return "";
  ir::DiagnosticSink diags;
  passes::canonical::canonicalize(*m, diags);
  std::string printed = ir::printModule(*m);
  size_t start = printed.find("func.func @f");
  start = printed.find('\n', start) + 1;
  size_t end = printed.rfind("  }\n");
  return printed.substr(start, end - start);
}

const char* kSig =
    "(%arg0: tensor<16x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"y\"}, {\"x\"}]>}) -> "
    "tensor<16x2xf32>";

TEST(Canonicalize, CollectiveMovingNoAxesIsItsOperand) {
  EXPECT_EQ(canonicalized(kSig,
                          "  %0 = sdy.all_gather [{}, {}] %arg0 out_sharding=<@mesh, [{\"y\"}, "
                          "{\"x\"}]> : tensor<16x2xf32>\n"
                          "  %1 = sdy.all_reduce {} %0 out_sharding=<@mesh, [{\"y\"}, {\"x\"}]> : "
                          "tensor<16x2xf32>\n"
                          "  return %1 : tensor<16x2xf32>\n"),
            "    return %arg0 : tensor<16x2xf32>\n");
}

TEST(Canonicalize, AllReduceThenAllSliceIsAReduceScatter) {
  EXPECT_EQ(canonicalized("(%arg0: tensor<16x2xf32>) -> tensor<16x2xf32>",
                          "  %0 = sdy.all_reduce {\"x\"} %arg0 out_sharding=<@mesh, [{}, {}]> : "
                          "tensor<16x2xf32>\n"
                          "  %1 = sdy.all_slice [{\"x\", \"y\"}, {}] %0 out_sharding=<@mesh, [{\"x\", "
                          "\"y\"}, {}]> : tensor<16x2xf32>\n"
                          "  return %1 : tensor<16x2xf32>\n"),
            "    %0 = sdy.reduce_scatter [{\"x\"}, {}] %arg0 out_sharding=<@mesh, [{\"x\"}, {}]> : "
            "tensor<16x2xf32>\n"
            "    %1 = sdy.all_slice [{\"y\"}, {}] %0 out_sharding=<@mesh, [{\"x\", \"y\"}, {}]> : "
            "tensor<16x2xf32>\n"
            "    return %1 : tensor<16x2xf32>\n");
}

TEST(Canonicalize, ReshardOfReshardAndCommonReshards) {
  EXPECT_EQ(canonicalized("(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)",
                          "  %0 = sdy.reshard %arg0 <@mesh, [{\"x\"}, {}]> : tensor<8x8xf32>\n"
                          "  %1 = sdy.reshard %0 <@mesh, [{}, {\"y\"}]> : tensor<8x8xf32>\n"
                          "  %2 = sdy.reshard %arg0 <@mesh, [{}, {\"y\"}]> : tensor<8x8xf32>\n"
                          "  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>\n"),
            "    %0 = sdy.reshard %arg0 <@mesh, [{}, {\"y\"}]> : tensor<8x8xf32>\n"
            "    return %0, %0 : tensor<8x8xf32>, tensor<8x8xf32>\n");
}

TEST(Canonicalize, ManualComputationOverSizeOneAxesIsInlined) {
  EXPECT_EQ(canonicalized("(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32>",
                          "  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@one, "
                          "[{\"b\"}]>, <@one, [{\"b\"}]>] out_shardings=[<@one, [{\"b\"}]>] "
                          "manual_axes={\"b\"} (%arg2: tensor<8xf32>, %arg3: tensor<8xf32>) {\n"
                          "    %1 = stablehlo.abs %arg2 : tensor<8xf32>\n"
                          "    sdy.return %1 : tensor<8xf32>\n"
                          "  } : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>\n"
                          "  return %0 : tensor<8xf32>\n"),
            "    %0 = stablehlo.abs %arg0 : tensor<8xf32>\n"
            "    return %0 : tensor<8xf32>\n");
}

}  // namespace
}  // namespace shardscope
