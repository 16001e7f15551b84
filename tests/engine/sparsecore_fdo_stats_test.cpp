// FDO statistics files (engine/sparsecore/fdo_stats, npz_file, npy_array):
// the reference file clients' layout, load and merge rules, with vectors
// from jax-tpu-embedding's file_fdo_client_test.py, and bad files.
// Fixtures: tests/engine/data/sparsecore/fdo (make_fixtures.py).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sparsecore/errors.h"
#include "sparsecore/fdo_stats.h"
#include "sparsecore/npy_array.h"

namespace shardscope::sc {
namespace {

const std::string kDir = SHARDSCOPE_TEST_DATA_DIR "/sparsecore/fdo/";

const TableStats& table(const std::vector<TableStats>& tables, const std::string& name) {
  for (const TableStats& t : tables)
    if (t.table == name) return t;
  ADD_FAILURE() << "no table " << name;
  static TableStats none;
  return none;
}

StatMatrix matrix(size_t cols, std::vector<int64_t> values) { return StatMatrix{cols, std::move(values)}; }

TEST(FdoStatsKeys, SplitByTheReferenceSuffixes) {
  EXPECT_EQ(splitStatKey("t_one_max_ids"), (std::pair<std::string, StatKind>{"t_one", StatKind::MaxIds}));
  EXPECT_EQ(splitStatKey("t_one_max_unique_ids"),
            (std::pair<std::string, StatKind>{"t_one", StatKind::MaxUniqueIds}));
  EXPECT_EQ(splitStatKey("a_required_buffer_size"),
            (std::pair<std::string, StatKind>{"a", StatKind::RequiredBufferSize}));
  EXPECT_EQ(splitStatKey("a_id_drop_counters"), (std::pair<std::string, StatKind>{"a", StatKind::IdDropCounters}));
  EXPECT_EQ(splitStatKey("t_histogram"), std::nullopt);
  EXPECT_EQ(splitStatKey("_max_ids"), std::nullopt);  // no table name
}

// file_fdo_client_test.py, test_latest_files_by_process.
TEST(FdoStatsFiles, LatestFilePerProcessInTheReferenceOrder) {
  std::vector<std::string> files = {
      "temp/fdo_dumps/fdo_stats_0_10.npz", "temp/fdo_dumps/fdo_stats_0_20.npz", "temp/fdo_dumps/fdo_stats_0_30.npz",
      "temp/fdo_dumps/fdo_stats_1_09.npz", "temp/fdo_dumps/fdo_stats_0_40.npz", "temp/fdo_dumps/fdo_stats_2_10.npz",
  };
  EXPECT_EQ(latestStatsFilesPerProcess(files),
            (std::vector<std::string>{"temp/fdo_dumps/fdo_stats_2_10.npz", "temp/fdo_dumps/fdo_stats_1_09.npz",
                                      "temp/fdo_dumps/fdo_stats_0_40.npz"}));
}

// file_fdo_client_test.py, test_load_multiple_files: the element-wise
// maximum over the hosts' files (one stored, one deflated; an older file of
// process 0 and a text file in the folder are ignored).
TEST(FdoStatsFiles, LoadMergesHostsByElementWiseMaximum) {
  std::vector<FdoStatsFile> files;
  for (const std::string& f : latestStatsFilesPerProcess(kDir + "hosts")) files.push_back(readFdoStatsFile(f));
  ASSERT_EQ(files.size(), 2u);
  std::vector<TableStats> loaded = loadFdoStats(files);
  ASSERT_EQ(loaded.size(), 2u);
  EXPECT_EQ(table(loaded, "t_one").of(StatKind::MaxIds), matrix(4, {20, 20, 40, 40}));
  EXPECT_EQ(table(loaded, "t_two").of(StatKind::MaxIds), matrix(4, {60, 60, 80, 80}));
  EXPECT_EQ(table(loaded, "t_one").of(StatKind::MaxUniqueIds), matrix(4, {2, 2, 4, 4}));
  EXPECT_EQ(table(loaded, "t_two").of(StatKind::MaxUniqueIds), matrix(4, {6, 6, 8, 8}));
  EXPECT_EQ(table(loaded, "t_one").of(StatKind::RequiredBufferSize), matrix(1, {128}));
  EXPECT_EQ(table(loaded, "t_two").of(StatKind::RequiredBufferSize), matrix(1, {256}));
}

// file_fdo_client_test.py, test_multiple_record: one file keeps its rows
// (one per recorded batch); only a merge of several files collapses them.
TEST(FdoStatsFiles, OneFileKeepsItsHistory) {
  FdoStatsFile npz = readFdoStatsFile(kDir + "history/fdo_stats_0_1700000000000000000.npz");
  std::vector<TableStats> loaded = loadFdoStats({npz});
  const auto& ids = table(loaded, "user_item").of(StatKind::MaxIds);
  ASSERT_TRUE(ids);
  EXPECT_EQ(ids->rows(), 6u);
  EXPECT_EQ(ids->cols, 8u);
  EXPECT_EQ(ids->at(1, 5), 40);
  EXPECT_EQ(table(loaded, "user_item").of(StatKind::IdDropCounters), matrix(6, {0, 3, 0, 0, 0, 0}));
  std::vector<TableStats> twice = loadFdoStats({npz, npz});
  EXPECT_EQ(table(twice, "user_item").of(StatKind::MaxIds)->rows(), 1u);
  EXPECT_EQ(table(twice, "user_item").of(StatKind::MaxIds)->at(0, 5), 40);
}

TEST(FdoStatsFiles, CsvAndNpzOfTheSameStatisticsAgree) {
  FdoStatsFile npz = readFdoStatsFile(kDir + "history/fdo_stats_0_1700000000000000000.npz");
  FdoStatsFile csv = readFdoStatsFile(kDir + "history/fdo_stats_0_1700000000000000000.csv");
  ASSERT_EQ(npz.tables.size(), csv.tables.size());
  for (size_t i = 0; i < npz.tables.size(); ++i) {
    EXPECT_EQ(npz.tables[i].table, csv.tables[i].table);
    for (StatKind k : kStatKinds) EXPECT_EQ(npz.tables[i].of(k), csv.tables[i].of(k)) << npz.tables[i].table;
  }
}

TEST(FdoStatsFiles, HistoriesOfSeveralHostsMergeBatchByBatch) {
  FdoStatsFile a{"a", {{"t", {matrix(2, {1, 5, 2, 2}), {}, {}, {}}}}};
  FdoStatsFile b{"b", {{"t", {matrix(2, {3, 1, 0, 7, 9, 9}), {}, {}, {}}}}};
  std::vector<TableStats> merged = mergeHistories({a, b});
  EXPECT_EQ(table(merged, "t").of(StatKind::MaxIds), matrix(2, {3, 5, 2, 7, 9, 9}));
}

// update_preprocessing_parameters: the limits are the maxima, the COO buffer
// per device max(required_buffer_size) x SparseCores per device.
TEST(FdoStatsLimits, SuggestionsFollowTheReferenceAndCountDroppedIds) {
  FdoStatsFile npz = readFdoStatsFile(kDir + "history/fdo_stats_0_1700000000000000000.npz");
  std::vector<LimitSuggestion> s = suggestLimits(mergeHistories({npz}), 2);
  ASSERT_EQ(s.size(), 2u);
  const LimitSuggestion& u = s[0];
  EXPECT_EQ(u.table, "user_item");
  EXPECT_EQ(u.batches, 6u);
  EXPECT_EQ(u.partitions, 8u);
  EXPECT_EQ(u.maxIdsPerPartition, 40);
  EXPECT_EQ(u.maxUniqueIdsPerPartition, 37);
  EXPECT_EQ(u.cooBufferSizePerDevice, 240);  // 120 x 2
  EXPECT_EQ(u.droppedIds, 3);
  // Per-batch maxima 15 40 15 14 14 15, sorted 14 14 15 15 15 40. Nearest
  // rank of 6: p99 and p90 are the 6th (40, the same as max, so not listed
  // again), p50 the 3rd (15).
  ASSERT_EQ(u.maxIdsChoices.size(), 2u);
  EXPECT_EQ(u.maxIdsChoices[0].label, "max");
  EXPECT_EQ(u.maxIdsChoices[0].limit, 40);
  EXPECT_EQ(u.maxIdsChoices[0].droppedIdsAtLeast, 0);
  EXPECT_EQ(u.maxIdsChoices[1].label, "p50");
  EXPECT_EQ(u.maxIdsChoices[1].limit, 15);
  EXPECT_EQ(u.maxIdsChoices[1].droppedIdsAtLeast, 25);  // only batch 1's 40 is over 15
  EXPECT_EQ(u.maxIdsChoices[1].batchesOverLimit, 1u);
  EXPECT_FALSE(s[1].cooBufferSizePerDevice);  // "ad" recorded no buffer sizes
}

TEST(FdoStatsOverview, MaximaOverBatchesPerTable) {
  FdoStatsFile a{"a", {{"t", {matrix(2, {1, 5, 2, 2}), {}, {}, {}}}, {"u", {matrix(3, {7, 0, 1}), {}, {}, {}}},
                       {"v", {std::nullopt, matrix(1, {4}), {}, {}}}}};
  std::vector<std::string> names;
  EXPECT_EQ(maximaOverBatches(a.tables, StatKind::MaxIds, &names), matrix(3, {2, 5, 0, 7, 0, 1}));
  EXPECT_EQ(names, (std::vector<std::string>{"t", "u"}));
}

struct BadFile {
  const char* file;
  const char* message;
};
class FdoStatsBadFiles : public ::testing::TestWithParam<BadFile> {};

TEST_P(FdoStatsBadFiles, NameTheFileAndTheEntryOrLine) {
  const std::string path = kDir + GetParam().file;
  try {
    readFdoStatsFile(path);
    FAIL() << "no error for " << path;
  } catch (const InputError& e) {
    std::string what = e.what();
    EXPECT_EQ(what.rfind(path, 0), 0u) << what;
    EXPECT_NE(what.find(GetParam().message), std::string::npos) << what;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, FdoStatsBadFiles,
    ::testing::Values(BadFile{"broken/truncated.npz", "not a readable .npz (zip) file"},
                      BadFile{"broken/float_dtype.npz", "entry 't_max_ids.npy': dtype '<f8' is not an integer type"},
                      BadFile{"broken/unknown_key.npz", "entry 't_histogram.npy': unexpected key 't_histogram'"},
                      BadFile{"broken/short_data.npz", "entry 't_max_ids.npy': the .npy data is truncated"},
                      BadFile{"broken/ragged.csv", ":3: key 't_max_ids' has 3 values here but 4"},
                      BadFile{"broken/not_a_number.csv", ":2: 'x' is not an integer count"},
                      BadFile{"missing.npz", "cannot open file"}, BadFile{"hosts", "is a directory"}));

TEST(NpyArray, ReadsBigEndianAndNarrowSignedIntegers) {
  std::string header = "{'descr': '>i2', 'fortran_order': False, 'shape': (2,), }";
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8) + char(header.size()) + '\0' + header +
                      std::string("\xff\xfe\x01\x00", 4);
  NpyArray a = parseNpy(bytes, "x");
  EXPECT_EQ(a.shape, (std::vector<int64_t>{2}));
  EXPECT_EQ(a.values, (std::vector<int64_t>{-2, 256}));
}

TEST(NpyArray, FortranOrderIsTransposedToRows) {
  std::string header = "{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }";
  std::string body;
  for (int v : {1, 4, 2, 5, 3, 6}) body += std::string(reinterpret_cast<const char*>(&v), 4);
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8) + char(header.size()) + '\0' + header + body;
  EXPECT_EQ(parseNpy(bytes, "x").values, (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
}

TEST(NpyArray, RejectsAHugeShapeWithoutAllocating) {
  std::string header = "{'descr': '<i8', 'fortran_order': False, 'shape': (9223372036854775807, 4), }";
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8) + char(header.size()) + '\0' + header;
  EXPECT_THROW(parseNpy(bytes, "x"), InputError);
}

}  // namespace
}  // namespace shardscope::sc
