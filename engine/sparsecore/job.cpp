#include "sparsecore/job.h"

#include <algorithm>
#include <functional>
#include <map>
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

namespace {

using FailFn = std::function<void(const std::string&, const std::string&)>;

// Explicit stack placement: all tables or none, sizes that hold the table,
// and members of one stack that neither overlap nor differ in width.
void validateStackSettings(const Job& job, const FailFn& fail) {
  const int64_t n = int64_t{job.devices} * job.sparseCoresPerDevice;
  const int64_t columnLimit = (int64_t{1} << 31) - 1;
  int given = -1;
  for (size_t i = 0; i < job.tables.size(); ++i)
    if (job.tables[i].settingInStack) given = static_cast<int>(i);
  if (given < 0) return;
  struct Rows {
    int64_t begin, end;
    size_t table;
  };
  std::map<std::string, std::vector<Rows>> stacks;
  std::map<std::string, int> stackWidth;
  for (size_t i = 0; i < job.tables.size(); ++i) {
    const TableSpec& t = job.tables[i];
    const std::string at = "tables[" + std::to_string(i) + "].setting_in_stack";
    if (!t.settingInStack)
      fail(at, "missing for table '" + t.name + "' while tables[" + std::to_string(given) +
                   "] gives one: give every table its place in a stack, or none");
    const TableSettingInStack& s = *t.settingInStack;
    if (s.stackName.empty()) fail(at + ".stack_name", "must not be empty");
    if (s.paddedVocabSize < t.vocabSize)
      fail(at + ".padded_vocab_size", std::to_string(s.paddedVocabSize) +
                                          " is smaller than the vocabulary of table '" + t.name +
                                          "' (" + std::to_string(t.vocabSize) + ")");
    if (s.paddedVocabSize % n != 0)
      fail(at + ".padded_vocab_size",
           std::to_string(s.paddedVocabSize) + " is not a multiple of the " + std::to_string(n) +
               " SparseCores (each shard holds the same number of rows)");
    if (s.paddedEmbeddingDim < t.width)
      fail(at + ".padded_embedding_dim", std::to_string(s.paddedEmbeddingDim) +
                                             " is smaller than the width of table '" + t.name +
                                             "' (" + std::to_string(t.width) + ")");
    if (s.rowOffsetInShard < 0) fail(at + ".row_offset_in_shard", "must not be negative");
    if (s.shardRotation < 0) fail(at + ".shard_rotation", "must not be negative");
    if (s.rowOffsetInShard > columnLimit / n ||
        s.rowOffsetInShard * n > columnLimit - s.paddedVocabSize)
      fail(at + ".row_offset_in_shard",
           "the table's rows end past 2^31 - 1 column ids (row_offset_in_shard " +
               std::to_string(s.rowOffsetInShard) + " x " + std::to_string(n) +
               " SparseCores + padded_vocab_size " + std::to_string(s.paddedVocabSize) + ")");
    auto [width, first] = stackWidth.emplace(s.stackName, s.paddedEmbeddingDim);
    if (!first && width->second != s.paddedEmbeddingDim)
      fail(at + ".padded_embedding_dim",
           std::to_string(s.paddedEmbeddingDim) + " differs from the other tables of stack '" +
               s.stackName + "' (" + std::to_string(width->second) +
               "): a stack has one row width");
    stacks[s.stackName].push_back({s.rowOffsetInShard, s.rowOffsetInShard + s.paddedVocabSize / n, i});
  }
  for (auto& [name, rows] : stacks) {
    std::sort(rows.begin(), rows.end(), [](const Rows& a, const Rows& b) { return a.begin < b.begin; });
    for (size_t k = 1; k < rows.size(); ++k)
      if (rows[k].begin < rows[k - 1].end)
        fail("tables[" + std::to_string(rows[k].table) + "].setting_in_stack.row_offset_in_shard",
             "rows " + std::to_string(rows[k].begin) + ".." + std::to_string(rows[k].end - 1) +
                 " of each shard overlap table '" + job.tables[rows[k - 1].table].name +
                 "' (rows " + std::to_string(rows[k - 1].begin) + ".." +
                 std::to_string(rows[k - 1].end - 1) + ") in stack '" + name + "'");
  }
}

void validateIdTransformation(const Job& job, const FeatureSpec& f, const std::string& at,
                              const FailFn& fail) {
  if (!f.idTransformation) return;
  const IdTransformation& x = *f.idTransformation;
  const std::string field = at + ".id_transformation";
  const int64_t n = int64_t{job.devices} * job.sparseCoresPerDevice;
  if (x.rowOffset < 0) fail(field + ".row_offset", "must not be negative");
  if (x.colOffset < 0) fail(field + ".col_offset", "must not be negative");
  if (x.colShift < 0) fail(field + ".col_shift", "must not be negative");
  const TableSpec* t = job.table(f.table);
  const int64_t vocabRows = (t->vocabSize + n - 1) / n * n;
  if (x.colOffset > (int64_t{1} << 31) - 1 - vocabRows)
    fail(field + ".col_offset", "columns of feature '" + f.name + "' would pass 2^31 - 1 (col_offset " +
                                    std::to_string(x.colOffset) + " + vocabulary " +
                                    std::to_string(vocabRows) + ")");
}

}  // namespace

void validateJobAndTables(const Job& job, const std::string& source) {
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
}

void validateJob(const Job& job, const std::string& source) {
  auto fail = [&](const std::string& field, const std::string& cause) {
    throw InputError(source + ": " + field + ": " + cause);
  };
  validateJobAndTables(job, source);
  if (job.features.empty()) fail("features", "at least one feature is required");
  validateStackSettings(job, fail);
  std::set<std::string> featureNames;
  for (size_t i = 0; i < job.features.size(); ++i) {
    const FeatureSpec& f = job.features[i];
    std::string at = "features[" + std::to_string(i) + "]";
    if (f.name.empty()) fail(at + ".name", "must not be empty");
    if (!featureNames.insert(f.name).second)
      fail(at + ".name", "duplicate feature name '" + f.name + "'");
    const TableSpec* t = job.table(f.table);
    if (!t) fail(at + ".table", "unknown table '" + f.table + "' for feature '" + f.name + "'");
    validateIdTransformation(job, f, at, fail);
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
