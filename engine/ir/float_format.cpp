// Floats as MLIR prints them (see float_format.h). MLIR writes decimal digits
// with LLVM's APFloat::toString, whose rounding we follow digit for digit:
// from the exact value (a small big-number product, mantissa times a power
// of 5 or 2) it first truncates the digits well below the precision, then
// rounds half up on the first digit dropped. No digit depends on the C
// library's rounding.
#include "ir/float_format.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace shardscope::ir {

namespace {

struct FormatInfo {
  int precision;    // significand bits, the implicit one included
  int minExponent;  // frexp exponent of the smallest normal value
  int maxExponent;  // frexp exponent of the first overflowing power of two
  int totalBits;
};

FormatInfo infoOf(FloatFormat f) {
  switch (f) {
    case FloatFormat::F64: return {53, -1021, 1024, 64};
    case FloatFormat::F32: return {24, -125, 128, 32};
    case FloatFormat::F16: return {11, -13, 16, 16};
    case FloatFormat::BF16: return {8, -125, 128, 16};
  }
  return {53, -1021, 1024, 64};
}

// `v` rounded to the nearest value of `f` (ties to even), infinite past its range.
double roundTo(double v, FloatFormat f) {
  if (f == FloatFormat::F64 || v == 0 || !std::isfinite(v)) return v;
  const FormatInfo info = infoOf(f);
  int e;
  std::frexp(v, &e);
  // The spacing of `f`'s values around v: fixed below the normal range.
  const int quantum = (e < info.minExponent ? info.minExponent : e) - info.precision;
  const double r = std::ldexp(std::nearbyint(std::ldexp(v, -quantum)), quantum);
  if (std::fabs(r) >= std::ldexp(1.0, info.maxExponent)) return v < 0 ? -HUGE_VAL : HUGE_VAL;
  return r;
}

// The bits of `v` (a value of `f`) as an unsigned integer.
uint64_t bitsOf(double v, FloatFormat f) {
  switch (f) {
    case FloatFormat::F64: {
      uint64_t b;
      std::memcpy(&b, &v, sizeof b);
      return b;
    }
    case FloatFormat::F32:
    case FloatFormat::BF16: {
      const float x = static_cast<float>(v);
      uint32_t b;
      std::memcpy(&b, &x, sizeof b);
      return f == FloatFormat::F32 ? b : b >> 16;  // a bf16 value is an f32 with a short significand
    }
    case FloatFormat::F16: {
      const uint64_t sign = std::signbit(v) ? 0x8000 : 0;
      const double a = std::fabs(v);
      if (std::isnan(v)) return sign | 0x7E00;
      if (std::isinf(v)) return sign | 0x7C00;
      if (a == 0) return sign;
      int e;
      std::frexp(a, &e);
      if (e < -13) return sign | static_cast<uint64_t>(std::ldexp(a, 24));  // subnormal
      const uint64_t significand = static_cast<uint64_t>(std::ldexp(a, 11 - e));
      return sign | static_cast<uint64_t>(e + 14) << 10 | (significand - 1024);
    }
  }
  return 0;
}

// The value of bits `b` of format `f`.
double valueOfBits(uint64_t b, FloatFormat f) {
  switch (f) {
    case FloatFormat::F64: {
      double d;
      std::memcpy(&d, &b, sizeof d);
      return d;
    }
    case FloatFormat::F32:
    case FloatFormat::BF16: {
      const uint32_t w = f == FloatFormat::F32 ? static_cast<uint32_t>(b) : static_cast<uint32_t>(b) << 16;
      float x;
      std::memcpy(&x, &w, sizeof x);
      return x;
    }
    case FloatFormat::F16: {
      const double sign = (b & 0x8000) ? -1.0 : 1.0;
      const int exponent = static_cast<int>((b >> 10) & 0x1F);
      const double fraction = static_cast<double>(b & 0x3FF);
      if (exponent == 0x1F) return fraction != 0 ? std::nan("") : sign * HUGE_VAL;
      if (exponent == 0) return sign * std::ldexp(fraction, -24);
      return sign * std::ldexp(1024 + fraction, exponent - 25);
    }
  }
  return 0;
}

// `0x7FC00000`: how MLIR prints the bits of a value it cannot write in decimal
// (an APInt in C-literal form: upper-case digits, no leading zeros).
std::string hexOfBits(uint64_t bits) {
  static const char kDigits[] = "0123456789ABCDEF";
  std::string digits;
  do {
    digits.insert(digits.begin(), kDigits[bits & 15]);
    bits >>= 4;
  } while (bits);
  return "0x" + digits;
}

// An unsigned big number, 32-bit limbs, least significant first.
class BigNumber {
 public:
  explicit BigNumber(uint64_t v) {
    for (; v; v >>= 32) limbs_.push_back(static_cast<uint32_t>(v));
  }
  bool isZero() const { return limbs_.empty(); }
  void multiply(uint32_t factor) {
    uint64_t carry = 0;
    for (uint32_t& limb : limbs_) {
      const uint64_t x = uint64_t{limb} * factor + carry;
      limb = static_cast<uint32_t>(x);
      carry = x >> 32;
    }
    if (carry) limbs_.push_back(static_cast<uint32_t>(carry));
  }
  // Divides in place (truncating) and returns the remainder.
  uint32_t divide(uint32_t divisor) {
    uint64_t rem = 0;
    for (size_t i = limbs_.size(); i-- > 0;) {
      const uint64_t x = rem << 32 | limbs_[i];
      limbs_[i] = static_cast<uint32_t>(x / divisor);
      rem = x % divisor;
    }
    while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
    return static_cast<uint32_t>(rem);
  }
  unsigned activeBits() const {
    if (limbs_.empty()) return 0;
    unsigned top = 32;
    while (top > 0 && !(limbs_.back() >> (top - 1) & 1)) --top;
    return static_cast<unsigned>(limbs_.size() - 1) * 32 + top;
  }
  std::string decimal() {
    std::string out;
    while (!isZero()) {
      uint32_t chunk = divide(1000000000);
      for (int k = 0; k < 9 && (chunk || !isZero()); ++k, chunk /= 10) out += static_cast<char>('0' + chunk % 10);
    }
    return {out.rbegin(), out.rend()};
  }

 private:
  std::vector<uint32_t> limbs_;
};

// The same operations on one 128-bit integer, for the values whose exact
// product fits (every f32 between about 1e-16 and 1e38, most f64 near one):
// a dense literal of millions of them then allocates nothing per digit.
class WideNumber {
 public:
  __extension__ using Bits = unsigned __int128;
  explicit WideNumber(uint64_t v) : v_(v) {}
  bool isZero() const { return v_ == 0; }
  void multiply(uint32_t factor) { v_ *= factor; }
  uint32_t divide(uint32_t divisor) {
    if (fitsIn64()) {  // a 64-bit division is several times cheaper
      const uint64_t v = static_cast<uint64_t>(v_);
      v_ = v / divisor;
      return static_cast<uint32_t>(v % divisor);
    }
    const uint32_t rem = static_cast<uint32_t>(v_ % divisor);
    v_ /= divisor;
    return rem;
  }
  unsigned activeBits() const {
    const uint64_t high = static_cast<uint64_t>(v_ >> 64), low = static_cast<uint64_t>(v_);
    if (high) return 128 - static_cast<unsigned>(__builtin_clzll(high));
    return low ? 64 - static_cast<unsigned>(__builtin_clzll(low)) : 0;
  }
  std::string decimal() const {
    // Nineteen digits at a time (10^19 < 2^64), the last chunk padded.
    constexpr uint64_t kChunk = 10'000'000'000'000'000'000ull;
    char buf[48];
    char* p = buf + sizeof buf;
    Bits v = v_;
    while (v >> 64) {
      uint64_t chunk = static_cast<uint64_t>(v % kChunk);
      v /= kChunk;
      for (int k = 0; k < 19; ++k, chunk /= 10) *--p = static_cast<char>('0' + chunk % 10);
    }
    for (uint64_t rest = static_cast<uint64_t>(v); rest; rest /= 10)
      *--p = static_cast<char>('0' + rest % 10);
    return std::string(p, buf + sizeof buf);
  }

 private:
  bool fitsIn64() const { return (v_ >> 64) == 0; }
  Bits v_;
};

// decimalDigits (below) on the exact value `n` times 10^`exponent`.
template <typename Number>
void digitsOfExact(Number n, int exponent, int twos, unsigned formatPrecision, std::string& digits,
                   int& outExponent) {
  if (twos >= 0) {
    for (int left = twos; left > 0; left -= 31) n.multiply(uint32_t{1} << (left < 31 ? left : 31));
  } else {
    for (int left = -twos; left > 0; left -= 13) {
      uint32_t power = 1;
      for (int k = 0; k < (left < 13 ? left : 13); ++k) power *= 5;
      n.multiply(power);
    }
  }
  // 196/59 slightly overestimates log2(10): tens that are surely below the precision go.
  const unsigned bits = n.activeBits();
  const unsigned bitsRequired = (formatPrecision * 196 + 58) / 59;
  if (bits > bitsRequired) {
    unsigned tens = (bits - bitsRequired) * 59 / 196;
    exponent += static_cast<int>(tens);
    for (; tens >= 9; tens -= 9) n.divide(1000000000);
    uint32_t rest = 1;
    for (; tens > 0; --tens) rest *= 10;
    if (rest > 1) n.divide(rest);
  }
  digits = n.decimal();
  while (digits.size() > 1 && digits.back() == '0') {
    digits.pop_back();
    ++exponent;
  }
  outExponent = exponent;
}

// The decimal digits of a finite `a` > 0 (most significant first, trailing
// zeros dropped) and the power of ten of the last one, exactly as APFloat
// finds them before rounding for `formatPrecision` digits: the exact value
// a = m * 2^e as m * 5^-e * 10^e, with the decimal digits well below the
// precision cut off (truncated) first.
void decimalDigits(double a, unsigned formatPrecision, std::string& digits, int& exponent) {
  int e;
  const double fraction = std::frexp(a, &e);
  uint64_t mantissa = static_cast<uint64_t>(std::ldexp(fraction, 53));
  int twos = e - 53;
  while ((mantissa & 1) == 0) {
    mantissa >>= 1;
    ++twos;
  }
  const int startExponent = twos >= 0 ? 0 : twos;
  // Bits of the exact product: the mantissa's, plus twos, or plus -twos
  // times log2(5) < 19/8.
  const int productBits = 64 - __builtin_clzll(mantissa) + (twos >= 0 ? twos : (-twos * 19 + 7) / 8);
  if (productBits <= 127)
    digitsOfExact(WideNumber(mantissa), startExponent, twos, formatPrecision, digits, exponent);
  else
    digitsOfExact(BigNumber(mantissa), startExponent, twos, formatPrecision, digits, exponent);
}

// LLVM's APFloat::toString for a finite value of a format with `precisionBits`.
// The digits are cut to formatPrecision rounding half up on the first digit
// dropped (after decimalDigits' truncation).
std::string apfloatToString(double v, int precisionBits, unsigned formatPrecision, unsigned maxPadding,
                            bool truncateZero) {
  std::string out;
  if (std::signbit(v)) out += '-';
  if (v == 0) {
    if (maxPadding) return out + "0";
    if (truncateZero) return out + "0.0E+0";
    out += "0.0";
    if (formatPrecision > 1) out.append(formatPrecision - 1, '0');
    return out + "e+00";
  }
  if (formatPrecision == 0) formatPrecision = 2 + static_cast<unsigned>(precisionBits) * 59 / 196;
  std::string digits;
  int exp;
  decimalDigits(std::fabs(v), formatPrecision, digits, exp);
  // Down to formatPrecision digits: half up on the first digit dropped.
  if (digits.size() > formatPrecision) {
    const bool up = digits[formatPrecision] >= '5';
    exp += static_cast<int>(digits.size() - formatPrecision);
    digits.resize(formatPrecision);
    if (up) {
      size_t i = digits.size();
      while (i > 0 && digits[i - 1] == '9') --i;
      if (i == 0) {
        exp += static_cast<int>(digits.size());
        digits = "1";
      } else {
        ++digits[i - 1];
        exp += static_cast<int>(digits.size() - i);
        digits.resize(i);
      }
    }
    while (digits.size() > 1 && digits.back() == '0') {
      digits.pop_back();
      ++exp;
    }
  }
  const unsigned nDigits = static_cast<unsigned>(digits.size());
  bool scientific;
  if (!maxPadding) {
    scientific = true;
  } else if (exp >= 0) {
    scientific = static_cast<unsigned>(exp) > maxPadding || nDigits + static_cast<unsigned>(exp) > formatPrecision;
  } else {
    const int msd = exp + static_cast<int>(nDigits) - 1;
    scientific = msd < 0 && static_cast<unsigned>(-msd) > maxPadding;
  }
  if (scientific) {
    exp += static_cast<int>(nDigits) - 1;
    out += digits[0];
    out += '.';
    if (nDigits == 1 && truncateZero) out += '0';
    else out.append(digits, 1, std::string::npos);
    if (!truncateZero && formatPrecision > nDigits - 1) out.append(formatPrecision - nDigits + 1, '0');
    out += truncateZero ? 'E' : 'e';
    out += exp >= 0 ? '+' : '-';
    std::string e = std::to_string(exp >= 0 ? exp : -exp);
    if (!truncateZero && e.size() < 2) e.insert(e.begin(), '0');
    return out + e;
  }
  if (exp >= 0) return out + digits + std::string(static_cast<size_t>(exp), '0');
  const int whole = exp + static_cast<int>(nDigits);
  if (whole > 0) {
    out.append(digits, 0, static_cast<size_t>(whole));
    out += '.';
    out.append(digits, static_cast<size_t>(whole), std::string::npos);
  } else {
    out += "0.";
    out.append(static_cast<size_t>(-whole), '0');
    out += digits;
  }
  return out;
}

// `text` read into format `f` (round to nearest). std::from_chars rounds as
// strtof/strtod do and is much faster; what it leaves (a leading '+', values
// out of range) goes to the C library.
double parseAs(std::string_view text, FloatFormat f) {
  const char* first = text.data();
  const char* last = first + text.size();
  if (f == FloatFormat::F32) {
    float v;
    const auto [end, ec] = std::from_chars(first, last, v);
    if (ec == std::errc() && end != first) return v;
    return std::strtof(std::string(text).c_str(), nullptr);
  }
  double v;
  const auto [end, ec] = std::from_chars(first, last, v);
  if (ec != std::errc() || end == first) v = std::strtod(std::string(text).c_str(), nullptr);
  return roundTo(v, f);
}

}  // namespace

std::optional<FloatFormat> floatFormatOf(std::string_view elementType) {
  if (elementType == "f32") return FloatFormat::F32;
  if (elementType == "f64") return FloatFormat::F64;
  if (elementType == "bf16") return FloatFormat::BF16;
  if (elementType == "f16") return FloatFormat::F16;
  return std::nullopt;
}

std::string formatMlirFloat(double v, FloatFormat format) {
  v = roundTo(v, format);
  if (std::isnan(v)) {
    switch (format) {
      case FloatFormat::F64: return "0x7FF8000000000000";
      case FloatFormat::F32: return "0x7FC00000";
      case FloatFormat::F16: return "0x7E00";
      case FloatFormat::BF16: return "0x7FC0";
    }
  }
  if (std::isinf(v)) return hexOfBits(bitsOf(v, format));
  const int precisionBits = infoOf(format).precision;
  // Six digits in exponent form when they read back to the same value.
  std::string shortForm = apfloatToString(v, precisionBits, 6, 0, false);
  const double back = parseAs(shortForm, format);
  if (back == v && std::signbit(back) == std::signbit(v)) return shortForm;
  std::string natural = apfloatToString(v, precisionBits, 0, 3, true);
  if (natural.find('.') != std::string::npos) return natural;
  return hexOfBits(bitsOf(v, format));
}

std::string formatMlirFloatLiteral(std::string_view text, FloatFormat format) {
  const bool negative = !text.empty() && text[0] == '-';
  const size_t digits = negative ? 1 : 0;
  if (text.size() > digits + 2 && text[digits] == '0' &&
      (text[digits + 1] == 'x' || text[digits + 1] == 'X')) {
    // A hex literal is the value's bits; a NaN keeps them (its payload).
    const std::string s(text);
    const uint64_t bits = std::strtoull(s.c_str() + digits + 2, nullptr, 16);
    const double v = valueOfBits(bits, format);
    if (std::isnan(v)) return hexOfBits(bits);
    return formatMlirFloat(negative ? -v : v, format);
  }
  return formatMlirFloat(parseAs(text, format), format);
}

}  // namespace shardscope::ir
