// Explicit stacking: tables[].setting_in_stack and features[].id_transformation
// with the reference's names, checked against vectors taken from the public
// jax-tpu-embedding tests (named in each case), plus the derivation used when
// they are absent and the errors for placements that cannot work.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sparsecore/errors.h"
#include "sparsecore/job_io.h"
#include "sparsecore/preprocessing.h"

using namespace shardscope::sc;
using nlohmann::json;

namespace {

// The two inputs of jax-tpu-embedding's TableStackingTest (input_a_, input_b_):
// 8 samples each, as one host sees them.
const json kInputA = json::parse("[[5,18],[18,0],[0,20],[18,0],[18,0],[0,20],[5,18],[18,0]]");
const json kInputB = json::parse("[[2],[10],[1],[9],[3],[7],[4],[8]]");
// input_c_ / input_d_: sample i repeats one id i+1 (resp. 9+i) times.
json repeated(int firstId, int firstLength) {
  json samples = json::array();
  for (int i = 0; i < 8; ++i) samples.push_back(std::vector<int>(firstLength + i, firstId + i));
  return samples;
}

json concat(const json& a, const json& b) {
  json out = a;
  for (const json& s : b) out.push_back(s);
  return out;
}

// Two tables in one stack "stacked_table" on 2 devices x 4 SparseCores
// (N = 8): table_0 holds rows 0..3 of each shard, table_1 rows 4..5, so
// table_1's columns start at 4 x 8 = 32 (the reference's col_offset 32).
json twoTableStack(const json& samples0, const json& samples1, bool withTransformations) {
  json job = {
      {"devices", 2},
      {"sparse_cores_per_device", 4},
      {"tables",
       {{{"name", "table_0"},
         {"vocab_size", 32},
         {"width", 8},
         {"setting_in_stack",
          {{"stack_name", "stacked_table"},
           {"padded_vocab_size", 32},
           {"padded_embedding_dim", 8},
           {"row_offset_in_shard", 0},
           {"shard_rotation", 0}}}},
        {{"name", "table_1"},
         {"vocab_size", 16},
         {"width", 8},
         {"setting_in_stack",
          {{"stack_name", "stacked_table"},
           {"padded_vocab_size", 16},
           {"padded_embedding_dim", 8},
           {"row_offset_in_shard", 4},
           {"shard_rotation", 0}}}}}},
      {"features",
       {{{"name", "feature_0"}, {"table", "table_0"}, {"samples", samples0}},
        {{"name", "feature_1"}, {"table", "table_1"}, {"samples", samples1}}}}};
  if (withTransformations) {
    job["features"][0]["id_transformation"] = {{"row_offset", 0}, {"col_offset", 0}, {"col_shift", 0}};
    job["features"][1]["id_transformation"] = {
        {"row_offset", 16}, {"col_offset", 32}, {"col_shift", 0}};
  }
  return job;
}

Job parse(const json& j, std::vector<std::string>* warnings = nullptr) {
  return parseJob(j.dump(), "job.json", ".", warnings);
}

std::vector<int64_t> row(const StackStats& s, int source) {
  return {s.idsPerSourcePartition.begin() + source * s.partitions,
          s.idsPerSourcePartition.begin() + (source + 1) * s.partitions};
}

std::vector<int64_t> uniqueRow(const StackStats& s, int source) {
  return {s.uniqueIdsPerSourcePartition.begin() + source * s.partitions,
          s.uniqueIdsPerSourcePartition.begin() + (source + 1) * s.partitions};
}

std::string errorOf(const json& j) {
  try {
    parse(j);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// Reference: input_preprocessing_test.cc, TableStackingTest.
// MultiProcessStackingSplitThenStack (1 of 2 devices, 4 SparseCores per
// device, feature_1 with col_offset 32). The reference lists each local
// SparseCore's column ids: SC 0 gets 5, 18, 18, 0 from feature_0 and 34, 42
// from feature_1; SC 1 0, 20, 18, 0 and 33, 41; SC 2 18, 0, 0, 20 and 35, 39;
// SC 3 5, 18, 18, 0 and 36, 40. Partition = column mod 8. Both devices see
// the same host input here, so device 1's SparseCores repeat device 0's.
TEST(SparseCoreExplicitStacking, MultiProcessStackingSplitThenStack) {
  Job job = parse(twoTableStack(concat(kInputA, kInputA), concat(kInputB, kInputB), true));
  PreprocessResult r = preprocess(job);
  ASSERT_EQ(r.stats.size(), 1u);
  const StackStats& s = r.stats[0];
  EXPECT_EQ(s.name, "stacked_table");
  EXPECT_EQ(s.tables, (std::vector<std::string>{"table_0", "table_1"}));
  ASSERT_EQ(s.partitions, 8);
  const std::vector<std::vector<int64_t>> ids = {{1, 0, 4, 0, 0, 1, 0, 0},
                                                 {2, 2, 1, 0, 1, 0, 0, 0},
                                                 {2, 0, 1, 1, 1, 0, 0, 1},
                                                 {2, 0, 2, 0, 1, 1, 0, 0}};
  const std::vector<std::vector<int64_t>> unique = {{1, 0, 3, 0, 0, 1, 0, 0},
                                                    {1, 2, 1, 0, 1, 0, 0, 0},
                                                    {1, 0, 1, 1, 1, 0, 0, 1},
                                                    {2, 0, 1, 0, 1, 1, 0, 0}};
  for (int source = 0; source < 8; ++source) {
    EXPECT_EQ(row(s, source), ids[source % 4]) << "source SparseCore " << source;
    EXPECT_EQ(uniqueRow(s, source), unique[source % 4]) << "source SparseCore " << source;
  }
  // The reported statistics: maxima over the source SparseCores.
  EXPECT_EQ(s.maxIdsPerPartition, (std::vector<int64_t>{2, 2, 4, 1, 1, 1, 0, 1}));
  EXPECT_EQ(s.maxUniqueIdsPerPartition, (std::vector<int64_t>{2, 2, 3, 1, 1, 1, 0, 1}));
  // 6 ids per SparseCore ("a more even distribution (actually ideal) - 6,6,6,6").
  EXPECT_EQ(s.idsAfterMerge, 6 * 8);
  // Column ids of feature_1 as the reference lists them (id + 32).
  ASSERT_EQ(r.stacks[0].features.size(), 2u);
  const StackFeature& f1 = r.stacks[0].features[1];
  EXPECT_TRUE(f1.explicitTransformation);
  EXPECT_EQ(stackedColumn(2, f1.colShift, f1.colOffset, 7), 34u);
  EXPECT_EQ(stackedColumn(10, f1.colShift, f1.colOffset, 7), 42u);
}

// Reference: TableStackingTest.MultiChipSplitThenStack (2 devices of 4
// SparseCores, stacked_table_metadata_single_): each SparseCore takes one
// sample of each feature, so SparseCore s of the 8 holds (s+1) + (9+s) ids
// before the in-sample merge (the reference's {1 + 9, 2 + 10, ...}), and
// CooTensorsPerScCalculation's total of 16 x 17 / 2 = 136 ids.
TEST(SparseCoreExplicitStacking, MultiChipSplitThenStack) {
  json j = twoTableStack(repeated(1, 1), repeated(9, 9), true);
  j["tables"][1]["vocab_size"] = 24;  // ids 9..16
  j["tables"][1]["setting_in_stack"]["padded_vocab_size"] = 24;
  Job job = parse(j);
  PreprocessResult r = preprocess(job);
  const StackStats& s = r.stats[0];
  EXPECT_EQ(s.inputIds, 136);
  // After the merge each sample is one id; feature_1's column 9 + s + 32
  // lands on the same partition as feature_0's s + 1: two ids there.
  EXPECT_EQ(s.idsAfterMerge, 16);
  EXPECT_EQ(s.maxIdsPerPartition, std::vector<int64_t>(8, 2));
  EXPECT_EQ(s.maxUniqueIdsPerPartition, std::vector<int64_t>(8, 2));
  for (int source = 0; source < 8; ++source) {
    std::vector<int64_t> expected(8, 0);
    expected[(source + 1) % 8] = 2;
    EXPECT_EQ(row(s, source), expected) << "source SparseCore " << source;
  }
  EXPECT_EQ(s.requiredBufferPerSparseCore, std::vector<int64_t>(4, 8));
}

// Without id_transformation the features get what the reference's
// table_stacking derives: col_offset = row_offset_in_shard x N, col_shift =
// shard_rotation, row_offset = the samples of the stack's earlier features.
TEST(SparseCoreExplicitStacking, TransformationsAreDerivedFromTheSetting) {
  Job given = parse(twoTableStack(concat(kInputA, kInputA), concat(kInputB, kInputB), true));
  Job derived = parse(twoTableStack(concat(kInputA, kInputA), concat(kInputB, kInputB), false));
  PreprocessResult a = preprocess(given), b = preprocess(derived);
  const StackFeature& f1 = b.stacks[0].features[1];
  EXPECT_FALSE(f1.explicitTransformation);
  EXPECT_EQ(f1.colOffset, 32);
  EXPECT_EQ(f1.colShift, 0);
  EXPECT_EQ(f1.rowOffset, 16);
  EXPECT_EQ(a.stats[0].maxIdsPerPartition, b.stats[0].maxIdsPerPartition);
  EXPECT_EQ(a.stats[0].idsPerSourcePartition, b.stats[0].idsPerSourcePartition);
  EXPECT_TRUE(a.stats[0].warnings.empty());
}

// The rotation moves feature_1's ids to other partitions: ((id + 3) mod 8).
TEST(SparseCoreExplicitStacking, ShardRotationShiftsPartitions) {
  json j = twoTableStack(concat(kInputA, kInputA), concat(kInputB, kInputB), false);
  j["tables"][1]["setting_in_stack"]["shard_rotation"] = 3;
  PreprocessResult r = preprocess(parse(j));
  const StackStats& s = r.stats[0];
  // SC 0 now sees feature_1's ids 2 and 10 at columns 32 + 5 and 32 + 13,
  // partitions 5 and 5, next to feature_0's 5, 18, 18, 0 (partitions 5, 2, 2, 0).
  EXPECT_EQ(row(s, 0), (std::vector<int64_t>{1, 0, 2, 0, 0, 3, 0, 0}));
}

// Explicit padding is what the job allocates (memory) and the stack's rows
// may leave gaps.
TEST(SparseCoreExplicitStacking, StackSpansItsLastRow) {
  json j = twoTableStack(kInputA, kInputB, false);
  j["tables"][1]["setting_in_stack"]["row_offset_in_shard"] = 10;
  std::vector<StackPlan> plans = planStacks(parse(j));
  ASSERT_EQ(plans.size(), 1u);
  EXPECT_TRUE(plans[0].explicitSetting);
  EXPECT_EQ(plans[0].members[1].colOffset, 80);
  EXPECT_EQ(plans[0].stackVocab, 80 + 16);
}

TEST(SparseCoreExplicitStacking, JsonRoundTrip) {
  Job job = parse(twoTableStack(kInputA, kInputB, true));
  ASSERT_TRUE(job.tables[1].settingInStack.has_value());
  EXPECT_EQ(job.tables[1].settingInStack->rowOffsetInShard, 4);
  ASSERT_TRUE(job.features[1].idTransformation.has_value());
  EXPECT_EQ(job.features[1].idTransformation->colOffset, 32);
  Job again = parse(jobToJson(job, true));
  EXPECT_EQ(again, job);
}

TEST(SparseCoreExplicitStacking, MismatchedTransformationWarns) {
  json j = twoTableStack(kInputA, kInputB, true);
  j["features"][1]["id_transformation"]["col_offset"] = 8;
  PreprocessResult r = preprocess(parse(j));
  ASSERT_EQ(r.stats[0].warnings.size(), 1u);
  EXPECT_NE(r.stats[0].warnings[0].find("feature 'feature_1': id_transformation (col_offset 8"),
            std::string::npos)
      << r.stats[0].warnings[0];
}

class SparseCoreExplicitStackingErrors
    : public ::testing::TestWithParam<std::tuple<std::string, std::string, json, std::string>> {};

TEST_P(SparseCoreExplicitStackingErrors, NamesTheField) {
  const auto& [name, pointer, value, expected] = GetParam();
  json j = twoTableStack(kInputA, kInputB, true);
  if (value.is_null())
    j[json::json_pointer(pointer).parent_pointer()].erase(json::json_pointer(pointer).back());
  else
    j[json::json_pointer(pointer)] = value;
  EXPECT_NE(errorOf(j).find(expected), std::string::npos) << errorOf(j);
}

INSTANTIATE_TEST_SUITE_P(
    Fields, SparseCoreExplicitStackingErrors,
    ::testing::Values(
        std::make_tuple("missing_setting", "/tables/0/setting_in_stack", json(),
                        "job.json: tables[0].setting_in_stack: missing for table 'table_0' while "
                        "tables[1] gives one"),
        std::make_tuple("missing_field", "/tables/1/setting_in_stack/shard_rotation", json(),
                        "tables[1].setting_in_stack.shard_rotation: missing required field"),
        std::make_tuple("padded_too_small", "/tables/0/setting_in_stack/padded_vocab_size",
                        json(24),
                        "tables[0].setting_in_stack.padded_vocab_size: 24 is smaller than the "
                        "vocabulary of table 'table_0' (32)"),
        std::make_tuple("padded_not_multiple", "/tables/0/setting_in_stack/padded_vocab_size",
                        json(36), "36 is not a multiple of the 8 SparseCores"),
        std::make_tuple("overlap", "/tables/1/setting_in_stack/row_offset_in_shard", json(3),
                        "tables[1].setting_in_stack.row_offset_in_shard: rows 3..4 of each shard "
                        "overlap table 'table_0' (rows 0..3) in stack 'stacked_table'"),
        std::make_tuple("width", "/tables/1/setting_in_stack/padded_embedding_dim", json(16),
                        "16 differs from the other tables of stack 'stacked_table' (8)"),
        std::make_tuple("narrow", "/tables/1/setting_in_stack/padded_embedding_dim", json(4),
                        "4 is smaller than the width of table 'table_1' (8)"),
        std::make_tuple("negative_rotation", "/tables/1/setting_in_stack/shard_rotation",
                        json(-1), "shard_rotation: must not be negative"),
        std::make_tuple("negative_col_offset", "/features/1/id_transformation/col_offset",
                        json(-8), "features[1].id_transformation.col_offset: must not be negative"),
        std::make_tuple("col_offset_too_large", "/features/1/id_transformation/col_offset",
                        json(int64_t{1} << 31), "would pass 2^31 - 1"),
        std::make_tuple("not_an_object", "/features/0/id_transformation", json(3),
                        "features[0].id_transformation: expected an object, got an integer")),
    [](const auto& info) { return std::get<0>(info.param); });
