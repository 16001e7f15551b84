// Preprocessing model: slicing, in-sample merge, mod sharding, stacking
// offsets/rotation, multi-device maxima, dropping and the limit errors.
#include <gtest/gtest.h>

#include "sparsecore/limits.h"
#include "sparsecore/preprocessing.h"

using namespace shardscope::sc;

namespace {

IdBatch batchOf(std::initializer_list<std::vector<uint32_t>> samples) {
  IdBatch b;
  for (const auto& s : samples) b.addSample(s);
  return b;
}

Job oneTable(int devices, int cores, IdBatch ids, int maxIds = 256, int maxUnique = 256) {
  Job job;
  job.devices = devices;
  job.sparseCoresPerDevice = cores;
  job.tables.push_back({.name = "t",
                        .vocabSize = 1024,
                        .width = 8,
                        .maxIdsPerPartition = maxIds,
                        .maxUniqueIdsPerPartition = maxUnique});
  job.features.push_back({.name = "f", .table = "t", .ids = std::move(ids)});
  return job;
}

}  // namespace

TEST(SparseCorePreprocessing, RepeatedIdInSampleCountsOnce) {
  // Sample 0 on SparseCore 0 repeats id 4 three times: one merged entry.
  Job job = oneTable(1, 2, batchOf({{4, 4, 4, 6}, {1}}));
  PreprocessResult r = preprocess(job);
  const StackStats& s = r.stats[0];
  EXPECT_EQ(s.inputIds, 5);
  EXPECT_EQ(s.idsAfterMerge, 3);
  EXPECT_EQ(s.maxIdsPerPartition, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(s.maxUniqueIdsPerPartition, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(s.requiredBufferPerSparseCore, (std::vector<int64_t>{8, 8}));
  EXPECT_EQ(s.maxUniqueIdsPerSample, 2);
}

TEST(SparseCorePreprocessing, SameIdInDifferentSamplesIsNotMerged) {
  // Two samples on the same SparseCore both look up id 0: 2 ids, 1 unique.
  Job job = oneTable(1, 1, batchOf({{0}, {0}}));
  PreprocessResult r = preprocess(job);
  EXPECT_EQ(r.stats[0].maxIdsPerPartition, (std::vector<int64_t>{2}));
  EXPECT_EQ(r.stats[0].maxUniqueIdsPerPartition, (std::vector<int64_t>{1}));
}

TEST(SparseCorePreprocessing, MultiDeviceTakesMaximaOverSources) {
  // 2 devices x 2 cores = 4 partitions; 8 samples, 2 per SparseCore.
  // Device 1, core 1 (source 3) sends 4 ids to partition 0.
  Job job = oneTable(2, 2, batchOf({{1}, {2}, {3}, {5}, {6}, {7}, {0, 4}, {8, 12}}));
  PreprocessResult r = preprocess(job);
  const StackStats& s = r.stats[0];
  ASSERT_EQ(s.partitions, 4);
  EXPECT_EQ(s.maxIdsPerPartition, (std::vector<int64_t>{4, 1, 1, 1}));
  EXPECT_EQ(s.maxUniqueIdsPerPartition, (std::vector<int64_t>{4, 1, 1, 1}));
  // Per local core: max over devices of sum roundup8 over partitions.
  EXPECT_EQ(s.requiredBufferPerSparseCore, (std::vector<int64_t>{16, 16}));
  EXPECT_EQ(s.idsPerSourcePartition[3 * 4 + 0], 4);
}

TEST(SparseCorePreprocessing, ShortBatchIsPaddedWithEmptySamples) {
  Job job = oneTable(1, 4, batchOf({{0, 1, 2}, {5}}));
  PreprocessResult r = preprocess(job);
  EXPECT_EQ(r.stats[0].maxIdsPerPartition, (std::vector<int64_t>{1, 1, 1, 0}));
  EXPECT_EQ(r.stats[0].requiredBufferPerSparseCore, (std::vector<int64_t>{24, 8, 0, 0}));
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_NE(r.warnings[0].find("padded"), std::string::npos);
}

TEST(SparseCorePreprocessing, ExceedingWithoutDroppingGivesReferenceError) {
  Job job = oneTable(1, 1, batchOf({{0, 1, 2, 3, 4}}), /*maxIds=*/4, /*maxUnique=*/8);
  PreprocessResult r = preprocess(job);
  ASSERT_TRUE(r.limitError.has_value());
  EXPECT_EQ(*r.limitError, maxIdsExceededMessage(5, "t", 4));
  EXPECT_EQ(*r.limitError,
            "Observed max ids per partition: 5 for table: t is greater than the set max ids per "
            "partition: 4. "
            "Use `allow_id_dropping` or increase the `max_ids_per_partition`. You could also try "
            "to reduce the "
            "batch size.");
}

TEST(SparseCorePreprocessing, ExceedingUniqueWithoutDropping) {
  Job job = oneTable(1, 1, batchOf({{0, 1, 2}}), /*maxIds=*/8, /*maxUnique=*/2);
  PreprocessResult r = preprocess(job);
  ASSERT_TRUE(r.limitError.has_value());
  EXPECT_EQ(r.limitError->rfind("Observed max unique ids per partition: 3 for table: t", 0), 0u)
      << *r.limitError;
}

TEST(SparseCorePreprocessing, DropsInSortedOrderPastIdsLimit) {
  // One SparseCore, one partition. Sorted (column, sample): 0/s0 0/s1 1/s0
  // 2/s2 3/s2; limit 3 keeps the first three, drops 2 entries.
  Job job = oneTable(1, 1, batchOf({{1, 0}, {0}, {3, 2}}), /*maxIds=*/3, /*maxUnique=*/8);
  job.allowIdDropping = true;
  PreprocessResult r = preprocess(job);
  EXPECT_FALSE(r.limitError.has_value());
  EXPECT_EQ(r.stats[0].droppedIds, 2);
  // Stats are the observed ones, before dropping.
  EXPECT_EQ(r.stats[0].maxIdsPerPartition, (std::vector<int64_t>{5}));
  ASSERT_FALSE(r.stats[0].warnings.empty());
  EXPECT_NE(r.stats[0].warnings.back().find("Allowing ID dropping for table: t"),
            std::string::npos);
}

TEST(SparseCorePreprocessing, DropsWholeColumnsPastUniqueLimit) {
  // Columns 0 (2 entries), 1 (1), 2 (2): unique limit 2 drops column 2.
  Job job = oneTable(1, 1, batchOf({{0, 1, 2}, {0, 2}}), /*maxIds=*/100, /*maxUnique=*/2);
  job.allowIdDropping = true;
  PreprocessResult r = preprocess(job);
  EXPECT_EQ(r.stats[0].droppedIds, 2);
}

TEST(SparseCorePreprocessing, DroppedEntryCountsItsRepeats) {
  // Column 1 in sample 1 is repeated 3 times; it is past the limit of 1.
  Job job = oneTable(1, 1, batchOf({{1}, {1, 1, 1}}), /*maxIds=*/1, /*maxUnique=*/8);
  job.allowIdDropping = true;
  PreprocessResult r = preprocess(job);
  EXPECT_EQ(r.stats[0].droppedIds, 3);
}

TEST(SparseCorePreprocessing, StackedTablesShareStatistics) {
  // Two tables of width 8 stack; 2 SparseCores, rotation 2 (= cores), so
  // the second table's rotation is 2 mod 2 = 0 and its offset pads table a
  // to 16 rows: b's id 1 becomes column 16 + 1 = 17 (partition 1).
  Job job;
  job.devices = 1;
  job.sparseCoresPerDevice = 2;
  job.tables.push_back({.name = "a", .vocabSize = 10, .width = 8});
  job.tables.push_back({.name = "b", .vocabSize = 10, .width = 4});
  job.features.push_back({.name = "fa", .table = "a", .ids = batchOf({{0}, {2}})});
  job.features.push_back({.name = "fb", .table = "b", .ids = batchOf({{1}, {1}})});
  PreprocessResult r = preprocess(job);
  ASSERT_EQ(r.stats.size(), 1u);
  const StackStats& s = r.stats[0];
  EXPECT_EQ(s.name, "a_b");
  EXPECT_EQ(s.tables, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(s.maxIdsPerPartition, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(s.memberIdsPerPartition[0], (std::vector<int64_t>{2, 0}));
  EXPECT_EQ(s.memberIdsPerPartition[1], (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(s.samplesPerSparseCore, 2);
}

TEST(SparseCorePreprocessing, RotationMovesHotIdsOfStackedTables) {
  // Both tables look up id 0 only. Without rotation both land on partition
  // 0; with rotation 1 the second table moves to partition 1.
  auto make = [](int rotation) {
    Job job;
    job.devices = 1;
    job.sparseCoresPerDevice = 4;
    job.stackRotation = rotation;
    job.tables.push_back({.name = "a", .vocabSize = 64, .width = 8});
    job.tables.push_back({.name = "b", .vocabSize = 64, .width = 8});
    job.features.push_back({.name = "fa", .table = "a", .ids = batchOf({{0}, {0}, {0}, {0}})});
    job.features.push_back({.name = "fb", .table = "b", .ids = batchOf({{0}, {0}, {0}, {0}})});
    return preprocess(job).stats[0];
  };
  EXPECT_EQ(make(0).maxIdsPerPartition, (std::vector<int64_t>{2, 0, 0, 0}));
  EXPECT_EQ(make(1).maxIdsPerPartition, (std::vector<int64_t>{1, 1, 0, 0}));
  // Default rotation = cores per device = 4 = N: no visible shift here.
  EXPECT_EQ(make(4).maxIdsPerPartition, (std::vector<int64_t>{2, 0, 0, 0}));
}

TEST(SparseCorePreprocessing, StackingOffKeepsTablesApart) {
  Job job;
  job.devices = 1;
  job.sparseCoresPerDevice = 2;
  job.tableStacking = false;
  job.tables.push_back({.name = "a", .vocabSize = 10, .width = 8});
  job.tables.push_back({.name = "b", .vocabSize = 10, .width = 8});
  job.features.push_back({.name = "fa", .table = "a", .ids = batchOf({{0}, {2}})});
  job.features.push_back({.name = "fb", .table = "b", .ids = batchOf({{1}, {1}})});
  PreprocessResult r = preprocess(job);
  ASSERT_EQ(r.stats.size(), 2u);
  EXPECT_EQ(r.stats[0].maxIdsPerPartition, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(r.stats[1].maxIdsPerPartition, (std::vector<int64_t>{0, 1}));
}

TEST(SparseCorePreprocessing, ThreadCountDoesNotChangeResults) {
  IdBatch b;
  for (uint32_t i = 0; i < 4096; ++i)
    b.addSample(std::vector<uint32_t>{i % 97, (i * 7) % 1000, i % 5});
  Job job = oneTable(2, 4, b, 64, 64);
  job.allowIdDropping = true;
  PreprocessOptions one{.threads = 1}, two{.threads = 2};
  PreprocessResult a = preprocess(job, one), c = preprocess(job, two);
  EXPECT_EQ(a.stats, c.stats);
  EXPECT_GT(a.stats[0].droppedIds, 0);
}

TEST(SparseCorePreprocessing, ChipPerSampleLimitWarns) {
  IdBatch b;
  std::vector<uint32_t> many(70);
  for (uint32_t i = 0; i < 70; ++i) many[i] = i;
  b.addSample(many);
  Job job = oneTable(1, 1, b);
  PreprocessResult r = preprocess(job);
  EXPECT_EQ(r.maxIdsPerSample, 70);
  EXPECT_EQ(r.samplesOverChipLimit, 1);
}

TEST(SparseCorePreprocessing, LongSamplesMergeAndDropLikeShortOnes) {
  // 12 ids, 8 distinct (the > 8 path sorts, the short path compares pairs).
  const std::vector<uint32_t> ids{0, 0, 4, 4, 4, 8, 1, 1, 2, 3, 5, 9};
  Job job = oneTable(1, 1, batchOf({ids}), /*maxIds=*/1, /*maxUnique=*/64);
  job.allowIdDropping = true;
  PreprocessResult r = preprocess(job);
  EXPECT_EQ(r.stats[0].inputIds, 12);
  EXPECT_EQ(r.stats[0].idsAfterMerge, 8);
  EXPECT_EQ(r.stats[0].maxUniqueIdsPerSample, 8);
  // Column 0 is kept; 1 (x2), 2, 3, 4 (x3), 5, 8, 9 are dropped.
  EXPECT_EQ(r.stats[0].droppedIds, 10);
  // The same ids split into two short samples of one feature.
  Job split = oneTable(1, 1, batchOf({{0, 0, 4, 4, 4, 8}, {1, 1, 2, 3, 5, 9}}), 64, 64);
  EXPECT_EQ(preprocess(split).stats[0].idsAfterMerge, 8);
}
