// A SparseCore embedding job: the hardware, how many devices and
// SparseCores, the tables with their compiled limits, the features that
// look tables up, and the host-preprocessing switches.
//
// Example (all omitted fields take the defaults below):
//   {"devices": 1, "sparse_cores_per_device": 4, "tables": [{"name": "t",
//    "vocab_size": 1000, "width": 8}], "features": [{"name": "f",
//    "table": "t", "samples": [[0, 1, 2], [5]]}]}
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sparsecore/chip_spec.h"
#include "sparsecore/id_batch.h"

namespace shardscope::sc {

// Defaults seen in keras-rs / jax-tpu-embedding.
inline constexpr int kDefaultMaxIdsPerPartition = 256;
inline constexpr int kDefaultMaxUniqueIdsPerPartition = 256;
inline constexpr int kDefaultMaxIdsPerChipPerSample = 64;
// Largest devices x SparseCores the model accepts (1024 chips of 4).
inline constexpr int64_t kMaxTotalSparseCores = 4096;

// A table's place in its stack, given explicitly (the reference's
// TableSettingInStack). Example, N = 8 SparseCores: a table of vocabulary 32
// padded to 48 rows (6 per shard) placed after a 16-row-per-shard table has
// row_offset_in_shard 16, so its columns start at 16 x 8 = 128.
struct TableSettingInStack {
  std::string stackName;
  int64_t paddedVocabSize = 0;  // rows over all shards, a multiple of N
  int paddedEmbeddingDim = 0;   // floats, at least the table's width
  int64_t rowOffsetInShard = 0;
  int shardRotation = 0;  // taken mod N
  bool operator==(const TableSettingInStack&) const = default;
};

// How a feature's ids become column ids of its stack (the reference's
// FeatureIdTransformation): col = ((id + col_shift) mod N) + (id - id mod N)
// + col_offset; row_offset is where the feature's samples start in the
// stacked batch. Derived from the table's setting when not given.
struct IdTransformation {
  int64_t rowOffset = 0;
  int64_t colOffset = 0;
  int colShift = 0;
  bool operator==(const IdTransformation&) const = default;
};

struct TableSpec {
  std::string name;
  int64_t vocabSize = 0;
  int width = 0;  // embedding dimension in floats
  int maxIdsPerPartition = kDefaultMaxIdsPerPartition;
  int maxUniqueIdsPerPartition = kDefaultMaxUniqueIdsPerPartition;
  // "sgd" (no slot), "adagrad" (1 slot), "adam" (2 slots): the slots are
  // tables of the same padded shape in HBM.
  std::string optimizer = "sgd";
  // Explicit place in a stack; when any table gives one, all do.
  std::optional<TableSettingInStack> settingInStack = std::nullopt;
  bool operator==(const TableSpec&) const = default;
};

// Synthetic ids for a feature (see id_generator.h).
struct GeneratorSpec {
  enum class Distribution { Uniform, Zipf };
  Distribution distribution = Distribution::Uniform;
  double exponent = 1.1;    // Zipf exponent s > 0
  int idsPerSample = 1;     // fixed length, or the minimum when max is set
  int idsPerSampleMax = 0;  // 0: fixed length; else uniform in [min, max]
  uint64_t seed = 1;
  int64_t hotIds = 0;        // ids 0..hotIds-1 are "hot"
  double hotFraction = 0.0;  // share of lookups that hit a hot id
  int64_t vocabSize = 0;     // 0: the table's vocabulary
  int64_t batchSize = 0;     // 0: the job's batch size
  bool operator==(const GeneratorSpec&) const = default;
};

struct FeatureSpec {
  std::string name;
  std::string table;
  IdBatch ids;
  std::optional<GeneratorSpec> generator = std::nullopt;  // filled into `ids` on load
  std::optional<IdTransformation> idTransformation = std::nullopt;
  bool operator==(const FeatureSpec&) const = default;
};

// Coefficients of the SPMEM model (memory.h); overridable, since the real
// allocation is inside the closed compiler.
struct SpmemModel {
  int cooEntryBytes = 12;  // embedding id, sample id, gain
  int buffering = 2;       // double-buffered staging
  bool operator==(const SpmemModel&) const = default;
};

struct Job {
  ChipSpec chip;
  int devices = 1;
  int sparseCoresPerDevice = 4;
  bool tableStacking = true;
  bool allowIdDropping = false;
  bool enableMinibatching = false;
  // Global batch per feature; 0 means "as many samples as the input has".
  int64_t batchSize = 0;
  int maxIdsPerChipPerSample = kDefaultMaxIdsPerChipPerSample;
  // Shard rotation between consecutive tables of a stack; default
  // sparseCoresPerDevice (as the reference).
  std::optional<int> stackRotation;
  // Limits of a stack holding more than one table (per-table limits are
  // then ignored, as in the reference).
  int stackedMaxIdsPerPartition = kDefaultMaxIdsPerPartition;
  int stackedMaxUniqueIdsPerPartition = kDefaultMaxUniqueIdsPerPartition;
  // For the HBM stack formula; 0 means one replica per device.
  int logicalReplicaCount = 0;
  // Input batches prefetched into the HBM heap.
  int maximumParallelIterations = 1;
  SpmemModel spmem;
  std::vector<TableSpec> tables;
  std::vector<FeatureSpec> features;

  int totalSparseCores() const { return devices * sparseCoresPerDevice; }
  int rotation() const { return stackRotation.value_or(sparseCoresPerDevice); }
  int replicas() const { return logicalReplicaCount > 0 ? logicalReplicaCount : devices; }
  const TableSpec* table(const std::string& name) const;
  bool operator==(const Job&) const = default;
};

// Checks what the preprocessing relies on: power-of-two SparseCore count,
// positive sizes, known tables, unique names, ids inside the vocabulary.
// Throws InputError "<source>: <field>: <cause>".
void validateJob(const Job& job, const std::string& source);

// The part of validateJob about the job's own settings and its tables,
// which the features' ids are made from: checked before a generator or a
// CSV file fills them, so that a table's vocab_size of -1 is the table's
// error and not that of the first feature generated from it.
void validateJobAndTables(const Job& job, const std::string& source);

// Number of optimizer slot tables for `optimizer` (sgd 0, adagrad 1, adam 2).
int optimizerSlots(const std::string& optimizer);

}  // namespace shardscope::sc
