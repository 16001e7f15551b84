// What one source SparseCore observed for one stack, and how those counts
// become the reported statistics. Both the in-memory preprocessing
// (preprocessing.h) and the CSV streaming one (csv_stream.h) fill the same
// counts, so both report the same numbers.
//
// Example: 1 device x 2 SparseCores, one table, samples {4, 4, 6} and {1}:
// source 0 counts ids [2, 0] (4 and 6 on partition 0; the repeated 4 is
// merged), unique [2, 0]; source 1 counts [0, 1]. The summary reports
// max_ids_per_partition [2, 1] and a buffer of roundup8(2) = 8 per SparseCore.
#pragma once
#include <cstdint>
#include <vector>

#include "sparsecore/preprocessing.h"

namespace shardscope::sc {

struct SourceCounts {
  std::vector<int64_t> ids, unique;              // [partition]
  std::vector<int64_t> bucketIds, bucketUnique;  // [partition x 64], mini-batching only
  std::vector<int64_t> memberIds;                // [member x partition]
  int64_t inputIds = 0;
  int maxUniquePerSample = 0;

  // Zeroed counters for a stack of `members` tables over n partitions.
  void reset(int n, size_t members, bool buckets);
};

// Counts of every (stack, source): index stack x N + source.
using StackSourceCounts = std::vector<SourceCounts>;

// Fills result.stats from the counts (maxima over sources, buffers, member
// loads, bucket maxima) and decides mini-batching. `samplesOfFeature[f]` is
// feature f's batch. result.stacks must be set.
void summarizeCounts(const Job& job, const std::vector<int64_t>& samplesOfFeature,
                     const StackSourceCounts& counts, PreprocessResult& result);

// A (stack, source) whose counts pass a limit, with the partitions that do.
struct OverLimitSource {
  size_t task = 0;  // stack x N + source
  std::vector<char> partitions;
};

// Checks the limits after summarizeCounts: sets result.limitError when
// dropping is off, adds the dropping warnings when on, and returns what
// must be dropped (per bucket when mini-batching is required).
std::vector<OverLimitSource> checkLimits(const Job& job, const StackSourceCounts& counts,
                                         PreprocessResult& result);

// Padding warnings: a feature whose batch is not a multiple of N.
void warnAboutPadding(const Job& job, const std::vector<int64_t>& samplesOfFeature,
                      PreprocessResult& result);

// The warning for samples over max_ids_per_chip_per_sample, once
// result.maxIdsPerSample and result.samplesOverChipLimit are set.
void warnAboutChipLimit(const Job& job, PreprocessResult& result);

// Rejects stacks whose column ids would not fit 32 bits.
void checkColumnSpace(const std::vector<StackPlan>& stacks);

}  // namespace shardscope::sc
