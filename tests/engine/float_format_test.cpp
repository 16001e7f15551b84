// Floats spelled as MLIR prints them (engine/ir/float_format.cpp). The
// expected spellings are MLIR's own prints of these values (from modules
// that stablehlo-opt and JAX wrote), and reading one back gives it again.
#include "ir/float_format.h"

#include <gtest/gtest.h>

#include <cmath>

#include "language_test_util.h"

namespace shardscope::ir {
namespace {

struct Case {
  const char* written;
  FloatFormat format;
  const char* printed;
};

TEST(FloatFormatTest, MlirSpellings) {
  const Case cases[] = {
      // Six digits in exponent form when they read back to the same value of the type.
      {"1.0", FloatFormat::F32, "1.000000e+00"},
      {"0.1", FloatFormat::F32, "1.000000e-01"},
      {"0.1", FloatFormat::F64, "1.000000e-01"},
      {"0", FloatFormat::F64, "0.000000e+00"},
      {"-0.0", FloatFormat::F32, "-0.000000e+00"},
      // Otherwise the type's natural precision: 9 digits for f32, 17 for f64.
      {"3.14159274", FloatFormat::F32, "3.14159274"},
      {"-2.5417707", FloatFormat::F32, "-2.5417707"},
      {"-1259.13916", FloatFormat::F32, "-1259.13916"},
      {"7.85386146E-5", FloatFormat::F32, "7.85386146E-5"},
      {"-8.0101937E-4", FloatFormat::F32, "-8.0101937E-4"},
      {"-0.094901097048047639", FloatFormat::F64, "-0.094901097048047639"},
      {"-3.425485619677219E-16", FloatFormat::F64, "-3.425485619677219E-16"},
      {"1.2345678", FloatFormat::F64, "1.2345678"},
      {"0.3", FloatFormat::F32, "3.000000e-01"},
      {"0.30000001192092896", FloatFormat::F64, "0.30000001192092896"},
      // bf16 and f16: few bits, the six-digit form almost always.
      {"-1.150390e+00", FloatFormat::F16, "-1.150390e+00"},
      {"-8.364250e-01", FloatFormat::F16, "-8.364250e-01"},  // truncated, not rounded up
      {"8.984370e-01", FloatFormat::BF16, "8.984370e-01"},
      {"1.3", FloatFormat::BF16, "1.296880e+00"},
      // No '.' in the natural form: the bits in hex.
      {"123456789.0", FloatFormat::F64, "0x419D6F3454000000"},
      // Special values are hex; a NaN keeps its payload.
      {"0x7FC00000", FloatFormat::F32, "0x7FC00000"},
      {"0x7F800000", FloatFormat::F32, "0x7F800000"},
      {"0xFF800000", FloatFormat::F32, "0xFF800000"},
      {"0x7FF8000000000001", FloatFormat::F64, "0x7FF8000000000001"},
      {"0x3F800000", FloatFormat::F32, "1.000000e+00"},
      {"0x7C00", FloatFormat::F16, "0x7C00"},
      {"0x3C00", FloatFormat::F16, "1.000000e+00"},
      {"1e40", FloatFormat::F32, "0x7F800000"},  // past f32's range
  };
  for (const Case& c : cases) {
    EXPECT_EQ(formatMlirFloatLiteral(c.written, c.format), c.printed) << c.written;
    // A fixed point: what is printed reads back as itself.
    EXPECT_EQ(formatMlirFloatLiteral(c.printed, c.format), c.printed) << c.printed;
  }
}

TEST(FloatFormatTest, RoundsToTheType) {
  EXPECT_EQ(formatMlirFloat(M_PI, FloatFormat::F32), "3.14159274");
  EXPECT_EQ(formatMlirFloat(M_PI, FloatFormat::F64), "3.1415926535897931");
  EXPECT_EQ(formatMlirFloat(M_PI, FloatFormat::BF16), "3.140630e+00");
  EXPECT_EQ(formatMlirFloat(M_PI, FloatFormat::F16), "3.140630e+00");
  EXPECT_EQ(formatMlirFloat(1e-45, FloatFormat::F32), "1.401300e-45");  // the smallest subnormal
  EXPECT_EQ(formatMlirFloat(std::nan(""), FloatFormat::BF16), "0x7FC0");
}

TEST(FloatFormatTest, TypeNames) {
  EXPECT_EQ(floatFormatOf("f32"), FloatFormat::F32);
  EXPECT_EQ(floatFormatOf("bf16"), FloatFormat::BF16);
  EXPECT_EQ(floatFormatOf("f8E4M3FN"), std::nullopt);
  EXPECT_EQ(floatFormatOf("complex<f32>"), std::nullopt);
}

// Constants print their elements in their type's digits.
TEST(FloatFormatTest, DenseConstants) {
  const std::string m = R"(module {
  func.func @main() -> (tensor<2xf32>, tensor<2xf64>, tensor<bf16>) {
    %cst = stablehlo.constant dense<[3.14159274, -2.72349977]> : tensor<2xf32>
    %cst_0 = stablehlo.constant dense<[3.1415926535897931, 1.000000e-01]> : tensor<2xf64>
    %cst_1 = stablehlo.constant dense<1.296880e+00> : tensor<bf16>
    return %cst, %cst_0, %cst_1 : tensor<2xf32>, tensor<2xf64>, tensor<bf16>
  }
}
)";
  EXPECT_EQ(test_support::printedAgain(m), m);
  EXPECT_EQ(test_support::printedAgain(R"(func.func @main() -> tensor<2xf32> {
  %cst = stablehlo.constant dense<[3.1415926535897931, 0.1]> : tensor<2xf32>
  return %cst : tensor<2xf32>
})"),
            R"(module {
  func.func @main() -> tensor<2xf32> {
    %cst = stablehlo.constant dense<[3.14159274, 1.000000e-01]> : tensor<2xf32>
    return %cst : tensor<2xf32>
  }
}
)");
}

}  // namespace
}  // namespace shardscope::ir
