// Memory model: HBM used by padded tables, SPMEM buffers sized from the
// limits, the HBM stack of the SparseCore programs and the prefetch heap.
//
// HBM tables: vocabulary padded to 8 x N rows, width to 8 floats (32 B), one
// copy per optimizer slot; width 1 wastes 7/8 of its rows.
//
// SPMEM (per tile, an approximation: the real allocator is inside the closed
// compiler; coefficients in Job::spmem):
//   ids staging   = buffering x roundup8(max_ids)        x coo_entry_bytes
//   unique rows   = buffering x roundup8(max_unique_ids) x padded_width x 4
//   fixed / tile  = (ids staging + unique rows) / tiles
//   gather / tile = samples per SparseCore x padded_width x 4 / tiles
// fixed > TileSpmem fails like "Fixed size allocations (...) do not fit in
// TileSpmem (...)"; fixed + gather > TileSpmem like "Gather operand too large".
//
// HBM stack per stack (guide formula, padded width):
//   forward  = (2 x width + 1) x max_unique_nz_per_row x replicas x 4
//   backward = 3 x width x max_unique_nz_per_row x replicas x 4
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sharding/checked_size.h"
#include "sparsecore/job.h"
#include "sparsecore/preprocessing.h"

namespace shardscope::sc {

struct TableMemory {
  std::string name;
  int64_t vocabSize = 0;
  int width = 0;
  int64_t paddedVocab = 0;
  int paddedWidth = 0;
  int optimizerSlots = 0;
  int64_t usefulBytes = 0;     // vocab x width x 4 x (1 + slots)
  int64_t allocatedBytes = 0;  // padded x (1 + slots), all chips together
  int64_t wasteBytes = 0;
  int64_t bytesPerChip = 0;
  double wasteFraction = 0;
  bool operator==(const TableMemory&) const = default;
};

struct SpmemEstimate {
  int64_t idsStagingBytes = 0;
  int64_t uniqueRowsBytes = 0;
  int64_t fixedBytesPerTile = 0;
  int64_t gatherBytesPerTile = 0;
  int64_t capacityPerTile = 0;
  double occupancy = 0;  // (fixed + gather) / capacity
  std::optional<std::string> error;
  bool operator==(const SpmemEstimate&) const = default;
};

struct StackMemory {
  std::string name;
  SpmemEstimate spmem;
  int64_t hbmStackForwardBytes = 0;
  int64_t hbmStackBackwardBytes = 0;
  // COO input buffer per device, entries: theoretical maximum from the
  // limit (roundup8(max_ids) x cores x N, x64 with mini-batching) and what
  // this batch needs (sum of required_buffer over local SparseCores).
  int64_t cooBufferEntriesPerDevice = 0;
  int64_t requiredEntriesPerDevice = 0;
  bool operator==(const StackMemory&) const = default;
};

struct MemoryReport {
  std::vector<TableMemory> tables;
  std::vector<StackMemory> stacks;  // parallel to PreprocessResult::stats
  int64_t hbmTablesPerChip = 0;
  int64_t hbmStackPerChip = 0;  // all stacks live at once (no serialization)
  int64_t hbmHeapPerChip = 0;   // prefetched input batches
  int64_t hbmCapacityPerChip = 0;
  std::vector<std::string> warnings;
  int64_t hbmTotalPerChip() const {
    return saturatingAdd(saturatingAdd(hbmTablesPerChip, hbmStackPerChip), hbmHeapPerChip);
  }
  bool operator==(const MemoryReport&) const = default;
};

TableMemory tableMemory(const TableSpec& table, int totalSparseCores, int devices);

// SPMEM estimate for a stack with the given limits and per-SparseCore samples.
SpmemEstimate spmemEstimate(const ChipSpec& chip, const SpmemModel& model,
                            const std::string& stackName, int64_t maxIds, int64_t maxUniqueIds,
                            int paddedWidth, int64_t samplesPerSparseCore);

MemoryReport estimateMemory(const Job& job, const PreprocessResult& pre);

}  // namespace shardscope::sc
