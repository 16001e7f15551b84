// StableHLO's dynamic-shape ops in the pretty form MLIR prints: they read,
// verify and print back unchanged. Shardy's registry has no rule for them
// (and its propagation refuses dynamic shapes), so none is given.
#include <gtest/gtest.h>

#include "language_test_util.h"

namespace shardscope {
namespace {

using test_support::printedAgain;
using test_support::ruleOfFirst;

TEST(LanguageDynamicOpsTest, BroadcastIotaReshape) {
  const std::string m = R"(module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<3xi32>, %arg2: tensor<2xi64>) -> (tensor<1x?x4xf32>, tensor<?x2x1xi32>, tensor<?x?xf32>) {
    %0 = stablehlo.dynamic_broadcast_in_dim %arg0, %arg1, dims = [1, 2] : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<1x?x4xf32>
    %1 = stablehlo.dynamic_broadcast_in_dim %arg0, %arg1, dims = [1, 2] {known_expanding_dimensions = array<i64: 0>, known_nonexpanding_dimensions = array<i64: 1>} : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<1x?x4xf32>
    %2 = stablehlo.dynamic_iota %arg1, dim = 0 : (tensor<3xi32>) -> tensor<?x2x1xi32>
    %3 = stablehlo.dynamic_reshape %arg0, %arg2 : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    return %0, %2, %3 : tensor<1x?x4xf32>, tensor<?x2x1xi32>, tensor<?x?xf32>
  }
}
)";
  EXPECT_EQ(printedAgain(m), m);
  EXPECT_EQ(ruleOfFirst(m, "stablehlo.dynamic_broadcast_in_dim"), "<none>");
  EXPECT_EQ(ruleOfFirst(m, "stablehlo.dynamic_iota"), "<none>");
}

TEST(LanguageDynamicOpsTest, SlicesAndPad) {
  const std::string m = R"(module {
  func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<2xi64>, %arg2: tensor<f32>, %arg3: tensor<i64>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<1x2xf32>) {
    %0 = stablehlo.real_dynamic_slice %arg0, %arg1, %arg1, %arg1 : (tensor<?x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
    %1 = stablehlo.dynamic_pad %arg0, %arg2, %arg1, %arg1, %arg1 : (tensor<?x4xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
    %2 = stablehlo.dynamic_slice %arg0, %arg3, %arg3, sizes = [1, 2] : (tensor<?x4xf32>, tensor<i64>, tensor<i64>) -> tensor<1x2xf32>
    return %0, %1, %2 : tensor<?x?xf32>, tensor<?x?xf32>, tensor<1x2xf32>
  }
}
)";
  EXPECT_EQ(printedAgain(m), m);
}

// No pretty form in StableHLO: MLIR prints them generically, and so do we.
TEST(LanguageDynamicOpsTest, GatherAndConvAreGeneric) {
  const std::string m = R"(module {
  func.func @main(%arg0: tensor<3x4x2xi32>, %arg1: tensor<2x3x2xi64>, %arg2: tensor<3xi64>) -> tensor<2x3x2x2xi32> {
    %0 = "stablehlo.dynamic_gather"(%arg0, %arg1, %arg2) <{dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, indices_are_sorted = false}> : (tensor<3x4x2xi32>, tensor<2x3x2xi64>, tensor<3xi64>) -> tensor<2x3x2x2xi32>
    return %0 : tensor<2x3x2x2xi32>
  }
}
)";
  EXPECT_EQ(printedAgain(m), m);
}

}  // namespace
}  // namespace shardscope
