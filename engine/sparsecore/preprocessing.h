// Host preprocessing as the reference does it, reduced to what sizing needs:
// statistics, dropped ids and the mini-batch split (no output buffers).
//
// For every stack and every source SparseCore s (device d, local core c):
//  1. s takes its contiguous slice of each feature's batch
//     (batch / (devices x SparseCores per device) samples per feature);
//  2. ids become column ids (stacking: offset + rotation, stacking.h) and a
//     repeated id inside one sample is merged and counted once;
//  3. column id mod N gives the destination partition p;
//  4. ids(s,p) counts merged entries, unique(s,p) distinct column ids.
// Reported: max over s of ids(s,p) and unique(s,p) per partition, and per
// local SparseCore the buffer sum over p of roundup8(ids(s,p)) (max over
// devices). Example (vectors.json): 8 samples [0,1,2,3] on 4 SparseCores
// give ids 2, unique 1 on every partition and a buffer of 4 x 8 = 32.
//
// When a count passes its limit: with allow_id_dropping the ids beyond it
// are dropped in sorted (column, sample) order, per (s,p) (per bucket when
// mini-batching); otherwise `limitError` carries the reference's message.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sparsecore/job.h"
#include "sparsecore/minibatching.h"
#include "sparsecore/stacking.h"

namespace shardscope::sc {

struct StackStats {
  std::string name;                 // stack name (the table name when alone)
  std::vector<std::string> tables;  // member tables in stack order
  int partitions = 0;               // N = devices x SparseCores per device
  int sparseCoresPerDevice = 0;
  int64_t maxIdsLimit = 0;
  int64_t maxUniqueIdsLimit = 0;
  // Row-major N x N: [source SparseCore (d x cores + c)][partition].
  std::vector<int64_t> idsPerSourcePartition;
  std::vector<int64_t> uniqueIdsPerSourcePartition;
  std::vector<int64_t> maxIdsPerPartition;           // size N, max over sources
  std::vector<int64_t> maxUniqueIdsPerPartition;     // size N
  std::vector<int64_t> requiredBufferPerSparseCore;  // size cores per device
  // [member][partition]: merged ids summed over sources (load bars by table).
  std::vector<std::vector<int64_t>> memberIdsPerPartition;
  int64_t inputIds = 0;  // before the in-sample merge
  int64_t idsAfterMerge = 0;
  int64_t droppedIds = 0;
  int64_t samplesPerSparseCore = 0;  // all features of the stack
  int maxUniqueIdsPerSample = 0;     // "max_unique_nz_per_row"
  // Largest single-bucket counts (only with mini-batching).
  int64_t maxIdsPerBucket = 0;
  int64_t maxUniqueIdsPerBucket = 0;
  // This stack's own contribution to the shared split.
  MinibatchingSplit split = 0;
  std::vector<std::string> warnings;

  int64_t observedMaxIds() const;
  int64_t observedMaxUniqueIds() const;
  bool operator==(const StackStats&) const = default;
};

struct PreprocessResult {
  std::vector<StackPlan> stacks;
  std::vector<StackStats> stats;  // parallel to `stacks`
  bool minibatchingRequired = false;
  MinibatchingSplit split = 0;  // OR over all stacks
  int minibatches = 1;
  // Per sample, ids summed over all features (max_ids_per_chip_per_sample).
  int64_t maxIdsPerSample = 0;
  int64_t samplesOverChipLimit = 0;
  std::vector<std::string> warnings;
  // Set when a limit is exceeded and allow_id_dropping is false.
  std::optional<std::string> limitError;
};

struct PreprocessOptions {
  int threads = 0;  // 0: hardware concurrency
};

// Runs the preprocessing model over a validated job (validateJob). Throws
// InputError only for inputs validateJob cannot see (stack too large).
PreprocessResult preprocess(const Job& job, const PreprocessOptions& options = {});

// Samples each SparseCore gets from a feature of `samples` samples: the
// batch is padded with empty samples up to a multiple of the SparseCore
// count (and to the job's batch size), then split evenly.
int64_t samplesPerSparseCore(int64_t samples, const Job& job);

}  // namespace shardscope::sc
