// CHLO ops in the pretty form MLIR prints them. Shardy's registry has no
// rule for CHLO (XLA lowers CHLO before propagating): none is given, with
// the registry's "unknown" warning.
#include <gtest/gtest.h>

#include "language_test_util.h"

namespace shardscope {
namespace {

using test_support::printedAgain;
using test_support::ruleOfFirst;

// `chlo.OP %x : T -> R`, also when R differs (is_inf gives i1).
TEST(LanguageChloOpsTest, UnaryFamily) {
  const std::string m = R"(module {
  func.func @main(%arg0: tensor<20x20xf32>, %arg1: tensor<4xcomplex<f64>>) -> tensor<20x20xf32> {
    %0 = chlo.acosh %arg0 : tensor<20x20xf32> -> tensor<20x20xf32>
    %1 = chlo.tan %0 : tensor<20x20xf32> -> tensor<20x20xf32>
    %2 = chlo.erf_inv %1 : tensor<20x20xf32> -> tensor<20x20xf32>
    %3 = chlo.lgamma %2 : tensor<20x20xf32> -> tensor<20x20xf32>
    %4 = chlo.digamma %3 : tensor<20x20xf32> -> tensor<20x20xf32>
    %5 = chlo.bessel_i1e %4 : tensor<20x20xf32> -> tensor<20x20xf32>
    %6 = chlo.is_inf %5 : tensor<20x20xf32> -> tensor<20x20xi1>
    %7 = chlo.conj %arg1 : tensor<4xcomplex<f64>> -> tensor<4xcomplex<f64>>
    %8 = chlo.asin %arg1 : tensor<4xcomplex<f64>> -> tensor<4xcomplex<f64>>
    return %5 : tensor<20x20xf32>
  }
}
)";
  EXPECT_EQ(printedAgain(m), m);
  EXPECT_EQ(ruleOfFirst(m, "chlo.acosh"), "<none>");
}

TEST(LanguageChloOpsTest, UnaryNeedsOneOperandType) {
  EXPECT_EQ(printedAgain(R"(func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.erf %arg0 : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
})"),
            "<test>:2:25: error: expected 1 operand types but got 2\n");
}

// `chlo.next_after %x, %y : T, U -> R` (no parentheses) and the
// broadcasting binary ops `chlo.broadcast_OP %x, %y : (T, U) -> R`.
TEST(LanguageChloOpsTest, BinaryForms) {
  const std::string m = R"(module {
  func.func @main(%arg0: tensor<20x20xbf16>, %arg1: tensor<20xbf16>, %arg2: tensor<20x20xi1>) -> tensor<20x20xbf16> {
    %0 = chlo.next_after %arg0, %arg0 : tensor<20x20xbf16>, tensor<20x20xbf16> -> tensor<20x20xbf16>
    %1 = chlo.polygamma %0, %arg0 : tensor<20x20xbf16>, tensor<20x20xbf16> -> tensor<20x20xbf16>
    %2 = chlo.zeta %1, %arg0 : tensor<20x20xbf16>, tensor<20x20xbf16> -> tensor<20x20xbf16>
    %3 = chlo.broadcast_add %2, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<20x20xbf16>, tensor<20xbf16>) -> tensor<20x20xbf16>
    %4 = chlo.broadcast_compare %3, %arg0 {comparison_direction = #chlo<comparison_direction LT>} : (tensor<20x20xbf16>, tensor<20x20xbf16>) -> tensor<20x20xi1>
    %5 = chlo.broadcast_select %arg2, %3, %arg0 : (tensor<20x20xi1>, tensor<20x20xbf16>, tensor<20x20xbf16>) -> tensor<20x20xbf16>
    return %5 : tensor<20x20xbf16>
  }
}
)";
  EXPECT_EQ(printedAgain(m), m);
  EXPECT_EQ(ruleOfFirst(m, "chlo.next_after"), "<none>");
}

// Two results, named as MLIR names them, `k` and the optional `is_stable`
// inside the parentheses.
TEST(LanguageChloOpsTest, TopK) {
  const std::string m = R"(module {
  func.func @main(%arg0: tensor<5x3xbf16>) -> (tensor<5x2xbf16>, tensor<5x2xi32>) {
    %values, %indices = chlo.top_k(%arg0, k = 2) : tensor<5x3xbf16> -> (tensor<5x2xbf16>, tensor<5x2xi32>)
    %values_0, %indices_1 = chlo.top_k(%arg0, k = 2, is_stable = true) : tensor<5x3xbf16> -> (tensor<5x2xbf16>, tensor<5x2xi32>)
    return %values, %indices_1 : tensor<5x2xbf16>, tensor<5x2xi32>
  }
}
)";
  EXPECT_EQ(printedAgain(m), m);
  EXPECT_EQ(ruleOfFirst(m, "chlo.top_k"), "<none>");
}

TEST(LanguageChloOpsTest, ConstantsAndGenericOnes) {
  const std::string m = R"(module {
  func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<2x4x5xf32>, %arg2: tensor<3x5x6xf32>, %arg3: tensor<3xi64>) -> tensor<2x4x6xf32> {
    %0 = chlo.constant dense<1.000000e+00> : tensor<f32>
    %1 = "chlo.constant_like"(%arg0) <{value = 1.000000e+00 : f32}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %2 = "chlo.ragged_dot"(%arg1, %arg2, %arg3) <{precision_config = [#chlo<precision DEFAULT>, #chlo<precision DEFAULT>], ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [1], rhs_group_dimensions = [0]>}> : (tensor<2x4x5xf32>, tensor<3x5x6xf32>, tensor<3xi64>) -> tensor<2x4x6xf32>
    return %2 : tensor<2x4x6xf32>
  }
}
)";
  EXPECT_EQ(printedAgain(m), m);
}

}  // namespace
}  // namespace shardscope
