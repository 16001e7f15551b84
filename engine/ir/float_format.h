// Floats spelled as MLIR prints them, per element type. MLIR first tries six
// digits in exponent form and keeps them when they read back to the same
// value *of that type*; otherwise it writes the type's natural precision
// (9 digits for f32, 17 for f64, 4 for bf16), trailing zeros cut, and when
// even that has no '.', the bits in hex:
//
//   f32 3.14159274      -> 3.14159274        (not 3.1415927410125732)
//   f32 0.1             -> 1.000000e-01
//   f64 0.1             -> 1.000000e-01
//   f64 0.30000001192092896 -> 0.30000001192092896
//   bf16 1.3            -> 1.296880e+00
//   f64 123456789.0     -> 0x419D6F3454000000
//   f32 NaN             -> 0x7FC00000
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace shardscope::ir {

// The IEEE formats MLIR's float element types use.
enum class FloatFormat { F64, F32, F16, BF16 };

// The format of `f64`, `f32`, `f16`, `bf16` (nullopt for other types, whose
// values are kept as written).
std::optional<FloatFormat> floatFormatOf(std::string_view elementType);

// `v` rounded to `format` (nearest, ties to even) and spelled as MLIR prints it.
std::string formatMlirFloat(double v, FloatFormat format);

// `text` (a decimal literal as written) read as `format` and spelled as MLIR prints it.
std::string formatMlirFloatLiteral(std::string_view text, FloatFormat format);

}  // namespace shardscope::ir
