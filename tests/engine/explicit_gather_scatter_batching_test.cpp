// `-sdy-explicit-gather-scatter-batching`
// (engine/passes/explicit_gather_scatter_batching.cpp): an iota-indexed
// dimension 0 becomes an explicit batching dimension.
#include <gtest/gtest.h>

#include <string>

#include "ir/printer.h"
#include "parse_test_module.h"
#include "passes/pass.h"

namespace shardscope::passes {
namespace {

// The body of @f after the pass, one op per line without indentation.
std::string afterPass(const std::string& signature, const std::string& body) {
  auto module = test_support::parseTestModule("func.func @f" + signature + " {\n" + body + "}\n");
  if (!module) return "parse failed";
  const PassInfo* pass = lookupPass("sdy-explicit-gather-scatter-batching");
  if (!pass) return "not registered";
  ir::DiagnosticSink diags;
  PassContext ctx{diags};
  if (!pass->run(*module, {}, ctx)) return "failed: " + diags.formatAll("t");
  const std::string printed = ir::printModule(*module);
  std::string out;
  size_t start = printed.find('\n', printed.find("func.func @f")) + 1;
  const size_t end = printed.rfind("  }\n");
  while (start < end) {
    const size_t eol = printed.find('\n', start);
    const std::string line = printed.substr(start, eol - start);
    out += line.substr(line.find_first_not_of(' ')) + "\n";
    start = eol + 1;
  }
  return out;
}

const char kGatherSig[] =
    "(%operand: tensor<4x8x16xf32>, %a: tensor<4x1xi32>, %b: tensor<4x1xi32>) -> tensor<4x1xf32>";

std::string gatherOf(const std::string& indices, const std::string& indicesType,
                     const std::string& dims) {
  return "  %r = \"stablehlo.gather\"(%operand, " + indices +
         ") {dimension_numbers = " + "#stablehlo.gather<" + dims +
         ">, slice_sizes = array<i64: 1, 1, 1>, indices_are_sorted = false} : "
         "(tensor<4x8x16xf32>, " +
         indicesType + ") -> tensor<4x1xf32>\n  return %r : tensor<4x1xf32>\n";
}

TEST(ExplicitGatherScatterBatching, IotaComponentLeavesTheConcatenation) {
  const std::string out = afterPass(
      kGatherSig,
      "  %iota = stablehlo.iota dim = 0 : tensor<4x1xi32>\n"
      "  %idx = stablehlo.concatenate %a, %iota, %b, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>, "
      "tensor<4x1xi32>) -> tensor<4x3xi32>\n" +
          gatherOf("%idx", "tensor<4x3xi32>",
                   "offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [1, 0, 2], "
                   "index_vector_dim = 1"));
  EXPECT_EQ(out,
            "%0 = stablehlo.concatenate %arg1, %arg2, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) "
            "-> tensor<4x2xi32>\n"
            "%1 = \"stablehlo.gather\"(%arg0, %0) <{dimension_numbers = #stablehlo.gather<"
            "offset_dims = [1], collapsed_slice_dims = [1], operand_batching_dims = [0], "
            "start_indices_batching_dims = [0], start_index_map = [1, 2], index_vector_dim = 1>, "
            "indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : "
            "(tensor<4x8x16xf32>, tensor<4x2xi32>) -> tensor<4x1xf32>\n"
            "return %1 : tensor<4x1xf32>\n");
}

// Indices that are no concatenation: the other components are sliced out;
// the iota is reached through a reshape.
TEST(ExplicitGatherScatterBatching, OtherComponentsAreSlicedOut) {
  const std::string out = afterPass(
      kGatherSig,
      "  %iota = stablehlo.iota dim = 0 : tensor<12xi32>\n"
      "  %idx = stablehlo.reshape %iota : (tensor<12xi32>) -> tensor<4x3xi32>\n" +
          gatherOf("%idx", "tensor<4x3xi32>",
                   "offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [1, 0, 2], "
                   "index_vector_dim = 1"));
  EXPECT_NE(out.find("%2 = stablehlo.slice %1 [0:4, 0:1] : (tensor<4x3xi32>) -> tensor<4x1xi32>\n"
                     "%3 = stablehlo.slice %1 [0:4, 2:3] : (tensor<4x3xi32>) -> tensor<4x1xi32>\n"
                     "%4 = stablehlo.concatenate %2, %3, dim = 1"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("operand_batching_dims = [0]"), std::string::npos) << out;
}

TEST(ExplicitGatherScatterBatching, GathersThatAreNotBatchedStay) {
  const std::string concat =
      "  %iota = stablehlo.iota dim = 0 : tensor<4x1xi32>\n"
      "  %idx = stablehlo.concatenate %iota, %a, %b, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>, "
      "tensor<4x1xi32>) -> tensor<4x3xi32>\n";
  // Dimension 0 is not collapsed, so its slice is not of size 1.
  EXPECT_EQ(afterPass(kGatherSig, concat + gatherOf("%idx", "tensor<4x3xi32>",
                                                    "offset_dims = [1], collapsed_slice_dims = "
                                                    "[1, 2], start_index_map = [0, 1, 2], "
                                                    "index_vector_dim = 1"))
                .find("batching"),
            std::string::npos);
  // The component indexing dimension 0 is not the iota.
  EXPECT_EQ(afterPass(kGatherSig, concat + gatherOf("%idx", "tensor<4x3xi32>",
                                                    "offset_dims = [1], collapsed_slice_dims = "
                                                    "[0, 1], start_index_map = [1, 0, 2], "
                                                    "index_vector_dim = 1"))
                .find("batching"),
            std::string::npos);
}

TEST(ExplicitGatherScatterBatching, ScatterGetsInputBatchingDims) {
  const std::string out = afterPass(
      "(%operand: tensor<32x8xi32>, %offset: tensor<32x1xi32>, %updates: tensor<32xi32>) -> "
      "tensor<32x8xi32>",
      "  %iota = stablehlo.iota dim = 0 : tensor<32x1xi32>\n"
      "  %indices = stablehlo.concatenate %iota, %offset, dim = 1 : (tensor<32x1xi32>, "
      "tensor<32x1xi32>) -> tensor<32x2xi32>\n"
      "  %result = \"stablehlo.scatter\"(%operand, %indices, %updates) <{indices_are_sorted = "
      "false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], "
      "scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = false}> ({\n"
      "  ^bb0(%arg0: tensor<i32>, %arg1: tensor<i32>):\n"
      "    stablehlo.return %arg1 : tensor<i32>\n"
      "  }) : (tensor<32x8xi32>, tensor<32x2xi32>, tensor<32xi32>) -> tensor<32x8xi32>\n"
      "  return %result : tensor<32x8xi32>\n");
  EXPECT_NE(out.find("\"stablehlo.scatter\"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, "
                     "scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], "
                     "input_batching_dims = [0], scatter_indices_batching_dims = [0], "
                     "scatter_dims_to_operand_dims = [1], index_vector_dim = 1>"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("stablehlo.iota"), std::string::npos) << out;
}

// As MLIR's greedy driver: constants gather at the top of the function,
// equal ones merge, dead ones go.
TEST(ExplicitGatherScatterBatching, ConstantsAreGatheredAndMerged) {
  const std::string out = afterPass("(%arg0: tensor<i32>) -> (tensor<i32>, tensor<i32>)",
                                    "  %0 = stablehlo.abs %arg0 : tensor<i32>\n"
                                    "  %c = stablehlo.constant dense<1> : tensor<i32>\n"
                                    "  %1 = stablehlo.add %0, %c : tensor<i32>\n"
                                    "  %c2 = stablehlo.constant dense<2> : tensor<i32>\n"
                                    "  %c3 = stablehlo.constant dense<1> : tensor<i32>\n"
                                    "  %dead = stablehlo.constant dense<7> : tensor<i32>\n"
                                    "  %2 = stablehlo.add %c2, %c3 : tensor<i32>\n"
                                    "  return %1, %2 : tensor<i32>, tensor<i32>\n");
  EXPECT_EQ(out,
            "%c = stablehlo.constant dense<2> : tensor<i32>\n"
            "%c_0 = stablehlo.constant dense<1> : tensor<i32>\n"
            "%0 = stablehlo.abs %arg0 : tensor<i32>\n"
            "%1 = stablehlo.add %0, %c_0 : tensor<i32>\n"
            "%2 = stablehlo.add %c, %c_0 : tensor<i32>\n"
            "return %1, %2 : tensor<i32>, tensor<i32>\n");
}

}  // namespace
}  // namespace shardscope::passes
