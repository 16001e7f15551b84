#include "sparsecore/job.h"

#include <set>

#include "sparsecore/errors.h"

namespace shardscope::sc {

const TableSpec* Job::table(const std::string& name) const {
  for (const TableSpec& t : tables)
    if (t.name == name) return &t;
  return nullptr;
}

int optimizerSlots(const std::string& optimizer) {
  if (optimizer == "adagrad" || optimizer == "momentum") return 1;
  if (optimizer == "adam" || optimizer == "ftrl") return 2;
  return 0;
}

static bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

void validateJob(const Job& job, const std::string& source) {
  auto fail = [&](const std::string& field, const std::string& cause) {
    throw InputError(source + ": " + field + ": " + cause);
  };
  if (job.devices < 1) fail("devices", "must be at least 1, got " + std::to_string(job.devices));
  if (job.sparseCoresPerDevice < 1)
    fail("sparse_cores_per_device",
         "must be at least 1, got " + std::to_string(job.sparseCoresPerDevice));
  // Mod sharding masks the low bits of the column id: the count must be 2^k.
  if (!isPowerOfTwo(int64_t{job.devices} * job.sparseCoresPerDevice))
    fail("sparse_cores_per_device",
         "total SparseCores (devices x sparse_cores_per_device = " +
             std::to_string(int64_t{job.devices} * job.sparseCoresPerDevice) +
             ") must be a power of two");
  // The model keeps (source x partition) matrices per stack: N^2 counters.
  if (int64_t{job.devices} * job.sparseCoresPerDevice > kMaxTotalSparseCores)
    fail("devices", "total SparseCores (" +
                        std::to_string(int64_t{job.devices} * job.sparseCoresPerDevice) +
                        ") above this model's limit of " + std::to_string(kMaxTotalSparseCores));
  if (job.chip.tilesPerSparseCore < 1) fail("chip.tiles_per_sparse_core", "must be at least 1");
  if (job.chip.tileSpmemBytes < 1) fail("chip.tile_spmem_bytes", "must be positive");
  if (job.stackedMaxIdsPerPartition < 1 || job.stackedMaxUniqueIdsPerPartition < 1)
    fail("stacked_limits", "limits must be positive");
  if (job.maximumParallelIterations < 0)
    fail("maximum_parallel_iterations", "must not be negative");
  if (job.tables.empty()) fail("tables", "at least one table is required");
  if (job.features.empty()) fail("features", "at least one feature is required");
  std::set<std::string> names;
  for (size_t i = 0; i < job.tables.size(); ++i) {
    const TableSpec& t = job.tables[i];
    std::string at = "tables[" + std::to_string(i) + "]";
    if (t.name.empty()) fail(at + ".name", "must not be empty");
    if (!names.insert(t.name).second) fail(at + ".name", "duplicate table name '" + t.name + "'");
    if (t.vocabSize < 1) fail(at + ".vocab_size", "must be positive for table '" + t.name + "'");
    // Column ids are 32-bit in the reference's COO format.
    if (t.vocabSize > (int64_t{1} << 31) - 1)
      fail(at + ".vocab_size", "must be below 2^31 for table '" + t.name + "'");
    if (t.width < 1) fail(at + ".width", "must be positive for table '" + t.name + "'");
    if (t.maxIdsPerPartition < 1) fail(at + ".max_ids_per_partition", "must be positive");
    if (t.maxUniqueIdsPerPartition < 1)
      fail(at + ".max_unique_ids_per_partition", "must be positive");
  }
  std::set<std::string> featureNames;
  for (size_t i = 0; i < job.features.size(); ++i) {
    const FeatureSpec& f = job.features[i];
    std::string at = "features[" + std::to_string(i) + "]";
    if (f.name.empty()) fail(at + ".name", "must not be empty");
    if (!featureNames.insert(f.name).second)
      fail(at + ".name", "duplicate feature name '" + f.name + "'");
    const TableSpec* t = job.table(f.table);
    if (!t) fail(at + ".table", "unknown table '" + f.table + "' for feature '" + f.name + "'");
    if (job.batchSize > 0 && static_cast<int64_t>(f.ids.sampleCount()) > job.batchSize)
      fail(at + ".samples", "feature '" + f.name + "' has " + std::to_string(f.ids.sampleCount()) +
                                " samples, more than batch_size " + std::to_string(job.batchSize));
    for (size_t k = 0; k < f.ids.ids.size(); ++k)
      if (f.ids.ids[k] >= static_cast<uint64_t>(t->vocabSize)) {
        size_t sample = 0;
        while (f.ids.rowStarts[sample + 1] <= k) ++sample;
        fail(at + ".samples[" + std::to_string(sample) + "]",
             "id " + std::to_string(f.ids.ids[k]) + " is outside the vocabulary of table '" +
                 t->name + "' (vocab_size " + std::to_string(t->vocabSize) + ")");
      }
  }
}

}  // namespace shardscope::sc
