// One NumPy `.npy` array of integers, as the reference's FDO clients save
// statistics (`np.savez` writes one `.npy` entry per key into an `.npz` zip).
//
// The format: the magic "\x93NUMPY", a version (1.0, 2.0 or 3.0), a header
// length (2 bytes in 1.0, 4 bytes after), a Python dict literal such as
//   {'descr': '<i8', 'fortran_order': False, 'shape': (3, 4), }
// padded with spaces to a multiple of 64 bytes, then the raw elements.
// Only integer dtypes are accepted (`i1`..`i8`, `u1`..`u8`, either byte
// order); statistics are counts, so a float array is a wrong file.
//
// Example: a (2, 4) int64 array read from "table_a_max_ids.npy" gives
//   shape = {2, 4}, values = row-major 8 numbers.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::sc {

struct NpyArray {
  std::vector<int64_t> shape;  // () for a scalar
  std::vector<int64_t> values;  // row-major (C order)
};

// Parses `bytes` as a `.npy` file. `where` names it in errors
// ("stats.npz: entry 'a_max_ids.npy'"); throws InputError
// "<where>: <cause>" for a bad magic, header, dtype or a truncated body.
NpyArray parseNpy(std::string_view bytes, const std::string& where);

}  // namespace shardscope::sc
