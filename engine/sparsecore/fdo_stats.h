// Input statistics as the reference's feedback-directed-optimization (FDO)
// file clients write them, and the limits they suggest.
//
// A training process records, per stacked table and per batch, the maximum
// number of ids and of unique ids each partition received (maximum over the
// source SparseCores), the COO buffer each SparseCore needed, and how many
// ids were dropped. Its file client publishes them as
// `fdo_stats_<process>_<nanoseconds>.npz` (one array per key, `np.savez`) or
// `.csv` (`key,values` rows, values space-separated, one row per batch),
// with keys `<table><suffix>`:
//
//   t_max_ids             (batches x partitions)
//   t_max_unique_ids      (batches x partitions)
//   t_required_buffer_size (batches x SparseCores)
//   t_id_drop_counters    (batches, or one number)
//
// A 1-D array is a single batch. Loading several files (one per process)
// takes the element-wise maximum over every row of every file, as the
// reference's load does: files {t_max_ids: [10 20 30 40]} and
// {t_max_ids: [20 10 40 30]} give [20 20 40 40]. One file keeps its rows.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::sc {

enum class StatKind { MaxIds, MaxUniqueIds, RequiredBufferSize, IdDropCounters };
inline constexpr StatKind kStatKinds[] = {StatKind::MaxIds, StatKind::MaxUniqueIds,
                                          StatKind::RequiredBufferSize, StatKind::IdDropCounters};

// "_max_ids", "_max_unique_ids", "_required_buffer_size", "_id_drop_counters".
const char* statSuffix(StatKind kind);
// "max ids per partition", ... for tables and charts.
const char* statTitle(StatKind kind);

// Splits "t_one_max_ids" into {"t_one", MaxIds}; the suffixes are tried in
// the order above, as the reference does. nullopt for an unknown key.
std::optional<std::pair<std::string, StatKind>> splitStatKey(std::string_view key);

// Rows are batches, columns partitions (or SparseCores, or 1).
struct StatMatrix {
  size_t cols = 0;
  std::vector<int64_t> values;  // row-major

  size_t rows() const { return cols == 0 ? 0 : values.size() / cols; }
  int64_t at(size_t row, size_t col) const { return values[row * cols + col]; }
  int64_t max() const;
  // The maximum of each row (over partitions): one number per batch.
  std::vector<int64_t> rowMaxima() const;
  bool operator==(const StatMatrix&) const = default;
};

struct TableStats {
  std::string table;  // the stacked table's name, e.g. "t_one"
  std::optional<StatMatrix> series[4];  // by StatKind

  const std::optional<StatMatrix>& of(StatKind k) const { return series[static_cast<int>(k)]; }
  std::optional<StatMatrix>& of(StatKind k) { return series[static_cast<int>(k)]; }
};

struct FdoStatsFile {
  std::string path;
  std::vector<TableStats> tables;  // in the order keys first appear
};

// Reads one statistics file, NPZ or CSV (told by its first bytes, not its
// name). Throws InputError naming the file and the entry or line: a
// truncated zip, a non-integer dtype, an unknown key, rows of unequal length.
FdoStatsFile readFdoStatsFile(const std::string& path);

// The files a directory holds in the reference's naming, the newest file of
// each process, in the reference's order (process descending, compared as
// text). Other files are ignored; InputError when none matches.
std::vector<std::string> latestStatsFilesPerProcess(const std::string& directory);
// The same choice over a list of names (exposed for tests).
std::vector<std::string> latestStatsFilesPerProcess(const std::vector<std::string>& files);

// What the reference's load returns for these files (see the header comment).
// Tables in the order they first appear.
std::vector<TableStats> loadFdoStats(const std::vector<FdoStatsFile>& files);

// The history over batches of several processes' files: row b is the
// element-wise maximum of row b of every file that has it (the charts' view;
// the load above keeps no history once it merges files).
std::vector<TableStats> mergeHistories(const std::vector<FdoStatsFile>& files);

// The overview of every table: row t = table t's maximum over batches of
// `kind`, per partition (tables with fewer partitions padded with 0).
// Tables without `kind` are left out; their names, in row order, go to
// `tableNames`. Example: t_one [20 20 40 40], t_two [60 60 80 80] -> 2 x 4.
StatMatrix maximaOverBatches(const std::vector<TableStats>& history, StatKind kind,
                             std::vector<std::string>* tableNames);

// One candidate limit for a table and what it would cost.
struct LimitChoice {
  std::string label;  // "max", "p99", ...
  int64_t limit = 0;
  // Ids over the limit, summed over batches and partitions. The files keep
  // only each partition's maximum over source SparseCores, so this is a lower
  // bound of what would be dropped (with allow_id_dropping) or the excess that
  // would fail the run.
  int64_t droppedIdsAtLeast = 0;
  size_t batchesOverLimit = 0;
};

struct LimitSuggestion {
  std::string table;
  size_t batches = 0, partitions = 0;
  // As the reference's update_preprocessing_parameters sets them: the
  // maximum over everything loaded.
  std::optional<int64_t> maxIdsPerPartition, maxUniqueIdsPerPartition;
  // max(required_buffer_size) x SparseCores per device, when recorded.
  std::optional<int64_t> cooBufferSizePerDevice;
  std::optional<int64_t> droppedIds;  // the sum of id_drop_counters recorded
  // Choices for max ids and max unique ids: the maximum, then the 99th, 90th
  // and 50th percentile of the per-batch maxima (nearest rank), each with
  // the ids it would drop on the recorded batches.
  std::vector<LimitChoice> maxIdsChoices, maxUniqueIdsChoices;
};

// `history` from mergeHistories (or one file's tables); `scPerDevice` > 0.
std::vector<LimitSuggestion> suggestLimits(const std::vector<TableStats>& history, int64_t scPerDevice);

}  // namespace shardscope::sc
