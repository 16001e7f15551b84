// Reading an `.npz` file (a zip of `.npy` arrays, as `np.savez` writes it)
// with libzip. Entries may be stored or deflated (`np.savez_compressed`).
//
// Example: `fdo_stats_0_1700000000.npz` holding `t_max_ids.npy` and
// `t_max_unique_ids.npy` reads as two named arrays, "t_max_ids" and
// "t_max_unique_ids" (the `.npy` suffix dropped).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "sparsecore/npy_array.h"

namespace shardscope::sc {

struct NpzEntry {
  std::string name;  // the entry's name without ".npy"
  NpyArray array;
};

// Reads every `.npy` entry of `path`, in the zip's order. Throws InputError
// "<path>: <cause>" when the file is missing or not a zip (a truncated
// download), and "<path>: entry '<name>': <cause>" for a bad entry.
// Entries larger than `maxEntryBytes` are refused rather than read.
std::vector<NpzEntry> readNpzFile(const std::string& path, size_t maxEntryBytes = size_t{1} << 30);

}  // namespace shardscope::sc
