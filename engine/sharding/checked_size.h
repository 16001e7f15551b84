// Products of sizes (mesh axes, sub-axes, factors) that cannot overflow.
//
// The verifier rejects a mesh whose device count does not fit in int64, and
// every product of distinct axes of a valid mesh divides that count, so on a
// verified module these products never overflow. The engine also looks at
// modules the verifier rejected (the GUI shows them, with their errors), so
// sizes multiply with a check instead of wrapping around (undefined
// behaviour for int64_t):
//
//   checkedMul(int64_t{1} << 40, int64_t{1} << 40)    == std::nullopt
//   saturatingMul(int64_t{1} << 40, int64_t{1} << 40) == INT64_MAX
#pragma once
#include <cstdint>
#include <limits>
#include <optional>

namespace shardscope {

// `a * b`, or nullopt when it does not fit in int64.
inline std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
  return product;
}

// `a * b`, or the int64 limit of the true product's sign when it does not
// fit (for code that only needs a size to compare, not an exact one).
inline int64_t saturatingMul(int64_t a, int64_t b) {
  int64_t product = 0;
  if (!__builtin_mul_overflow(a, b, &product)) return product;
  return (a < 0) != (b < 0) ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
}

}  // namespace shardscope
