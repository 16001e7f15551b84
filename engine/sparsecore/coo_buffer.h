// The COO input buffer a device allocates for one stacked table, as the
// reference's input preprocessing sizes it.
//
// Theoretical maximum: every SparseCore of the device may receive
// roundup8(max_ids_per_partition) ids from each of the N SparseCores, and
// with mini-batching all 64 buckets' mini-batches share the one buffer:
//   roundup8(max_ids) x SparseCores per device x N (x 64)
// e.g. max_ids 16, 1 device x 4 SparseCores: 16 x 4 x 4 = 256 entries.
// A suggested size (from FDO statistics) replaces it, rounded up so each
// local SparseCore's share stays 8-aligned (to 8 x SparseCores per device:
// 48 -> 64, 96 -> 96); a suggestion above the maximum is an error (1024 > 256).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace shardscope::sc {

// Entries; saturates at INT64_MAX instead of overflowing.
int64_t theoreticalMaxCooBufferSize(int64_t maxIdsPerPartition, int64_t globalDevices, int64_t scPerDevice,
                                    bool minibatching);

// The size the device allocates: the rounded suggestion, or the theoretical
// maximum without one. Throws LimitError with the reference's message
// ("Suggested Coo Buffer Size is larger than the theoretical max for table T:
// S vs M. Adjust the suggested size or the max_ids_per_partition values.")
// when the rounded suggestion passes the maximum, and InputError when the
// size is outside (0, INT_MAX), as the reference checks.
int64_t cooBufferSizePerDevice(const std::string& stackedTable, int64_t maxIdsPerPartition, int64_t globalDevices,
                               int64_t scPerDevice, bool minibatching, std::optional<int64_t> suggested);

}  // namespace shardscope::sc
