// StableHLO ops in the pretty form MLIR prints them: each family reads,
// verifies and prints back unchanged, and gets the sharding rule Shardy's
// registry gives it (none, with a warning, for the ops it does not know).
#include <gtest/gtest.h>

#include "language_test_util.h"

namespace shardscope {
namespace {

using test_support::printedAgain;
using test_support::ruleOfFirst;

// Ops with real operands and a complex result: the single type written is
// the result's, the operands are its real parts.
TEST(LanguageStablehloOpsTest, ComplexTakesRealOperands) {
  const std::string m = R"(module {
  func.func @main(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>, %arg2: tensor<4x8xf64>) -> (tensor<4x8xcomplex<f32>>, tensor<4x8xcomplex<f32>>) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<4x8xcomplex<f32>>
    %1 = stablehlo.real %0 : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xf32>
    %2 = stablehlo.imag %0 : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xf32>
    %3 = stablehlo.complex %1, %2 : tensor<4x8xcomplex<f32>>
    return %0, %3 : tensor<4x8xcomplex<f32>>, tensor<4x8xcomplex<f32>>
  }
}
)";
  EXPECT_EQ(printedAgain(m), m);
  EXPECT_EQ(ruleOfFirst(m, "stablehlo.complex"), "([i, j], [i, j])->([i, j]) {i=4, j=8}");
}

TEST(LanguageStablehloOpsTest, ComplexWithOtherOperandTypesIsFunctional) {
  // Not the real part of the result (f64 operands, complex<f32> result):
  // the functional type, which MLIR prints in that case.
  const std::string m = R"(module {
  func.func @main(%arg0: tensor<4xf64>) -> tensor<4xcomplex<f32>> {
    %0 = stablehlo.complex %arg0, %arg0 : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xcomplex<f32>>
    return %0 : tensor<4xcomplex<f32>>
  }
}
)";
  EXPECT_EQ(printedAgain(m), m);
}

TEST(LanguageStablehloOpsTest, ComplexSingleTypeMustBeComplex) {
  EXPECT_EQ(printedAgain(R"(func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.complex %arg0, %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
})"),
            "<test>:2:41: error: expected tensor with complex element type\n");
}

TEST(LanguageStablehloOpsTest, ReducePrecisionFormat) {
  const std::string m = R"(module {
  func.func @main(%arg0: tensor<2x3xbf16>) -> tensor<2x3xbf16> {
    %0 = stablehlo.reduce_precision %arg0, format = e5m10 : tensor<2x3xbf16>
    %1 = stablehlo.reduce_precision %0, format = e11m52 : tensor<2x3xbf16>
    return %1 : tensor<2x3xbf16>
  }
}
)";
  EXPECT_EQ(printedAgain(m), m);
  EXPECT_EQ(ruleOfFirst(m, "stablehlo.reduce_precision"), "([i, j])->([i, j]) {i=2, j=3}");
  EXPECT_EQ(printedAgain(R"(func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.reduce_precision %arg0, format = e5x10 : tensor<2xf32>
  return %0 : tensor<2xf32>
})"),
            "<test>:2:51: error: expected exponent mantissa in format e#m#, saw e5x10\n");
}

// Quantized types and the quantize ops, in their element-wise form.
TEST(LanguageStablehloOpsTest, UniformQuantizeAndDequantize) {
  const std::string m = R"(module {
  func.func @main(%arg0: tensor<1x2xf32>) -> tensor<1x2xf32> {
    %0 = stablehlo.uniform_quantize %arg0 : (tensor<1x2xf32>) -> tensor<1x2x!quant.uniform<i8:f32, 0.0039068778355916345:-128>>
    %1 = stablehlo.add %0, %0 : tensor<1x2x!quant.uniform<i8:f32, 0.0039068778355916345:-128>>
    %2 = stablehlo.uniform_dequantize %1 : (tensor<1x2x!quant.uniform<i8:f32, 0.0039068778355916345:-128>>) -> tensor<1x2xf32>
    return %2 : tensor<1x2xf32>
  }
}
)";
  EXPECT_EQ(printedAgain(m), m);
  // Shardy's registry has no rule for them.
  EXPECT_EQ(ruleOfFirst(m, "stablehlo.uniform_quantize"), "<none>");
  EXPECT_EQ(ruleOfFirst(m, "stablehlo.add"), "([i, j], [i, j])->([i, j]) {i=1, j=2}");
}

// Enum keywords print with two spaces after `=`, as MLIR's enum printer does.
TEST(LanguageStablehloOpsTest, FftRngAndEinsumKeywords) {
  const std::string m = R"(module {
  func.func @main(%arg0: tensor<4x17xf32>, %arg1: tensor<f32>, %arg2: tensor<2xi64>, %arg3: tensor<3x4xf32>) -> (tensor<4x9xcomplex<f32>>, tensor<3x3xf32>, tensor<3x3xf32>) {
    %0 = stablehlo.fft %arg0, type =  RFFT, length = [17] : (tensor<4x17xf32>) -> tensor<4x9xcomplex<f32>>
    %1 = stablehlo.rng %arg1, %arg1, %arg2, distribution =  UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x3xf32>
    %2 = stablehlo.einsum %arg3, %arg3, config = "ab,cb->ac" : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x3xf32>
    return %0, %1, %2 : tensor<4x9xcomplex<f32>>, tensor<3x3xf32>, tensor<3x3xf32>
  }
}
)";
  EXPECT_EQ(printedAgain(m), m);
  // The fft dimension needs replication and, truncated by RFFT, blocks propagation.
  EXPECT_EQ(ruleOfFirst(m, "stablehlo.fft"),
            "([i, j])->([i, j]) {i=4, j=17} need_replication={j} blocked_propagation={j}");
}

TEST(LanguageStablehloOpsTest, BroadcastAndSetDimensionSize) {
  const std::string m = R"(module {
  func.func @main(%arg0: tensor<3xf32>, %arg1: tensor<i32>) -> tensor<2x3xf32> {
    %0 = stablehlo.broadcast %arg0, sizes = [2] : (tensor<3xf32>) -> tensor<2x3xf32>
    %1 = stablehlo.set_dimension_size %0, %arg1, dim = 1 : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
    %2 = stablehlo.get_dimension_size %1, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>
    return %1 : tensor<2x3xf32>
  }
}
)";
  EXPECT_EQ(printedAgain(m), m);
}

// The convolution format always spells the window, empty or not.
TEST(LanguageStablehloOpsTest, ConvolutionWithEmptyWindow) {
  const std::string m = R"(module {
  func.func @main(%arg0: tensor<2x3x10xf32>, %arg1: tensor<3x3x5xf32>) -> tensor<2x3x6xf32> {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x10xf32>, tensor<3x3x5xf32>) -> tensor<2x3x6xf32>
    return %0 : tensor<2x3x6xf32>
  }
}
)";
  EXPECT_EQ(printedAgain(m), m);
}

// compare's format is functional-type: i1 operands and an i1 result keep it.
TEST(LanguageStablehloOpsTest, CompareIsAlwaysFunctional) {
  const std::string m = R"(module {
  func.func @main(%arg0: tensor<4xi1>) -> tensor<4xi1> {
    %0 = stablehlo.compare  GT, %arg0, %arg0,  UNSIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
    return %0 : tensor<4xi1>
  }
}
)";
  EXPECT_EQ(printedAgain(m), m);
}

TEST(LanguageStablehloOpsTest, IsFiniteIsFunctional) {
  const std::string m = R"(module {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xi1> {
    %0 = stablehlo.is_finite %arg0 : (tensor<4xf32>) -> tensor<4xi1>
    return %0 : tensor<4xi1>
  }
}
)";
  EXPECT_EQ(printedAgain(m), m);
  EXPECT_EQ(ruleOfFirst(m, "stablehlo.is_finite"), "([i])->([i]) {i=4}");
}

}  // namespace
}  // namespace shardscope
