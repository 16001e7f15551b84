// Mini-batching: the bucket split tree and its use in the preprocessing.
#include <gtest/gtest.h>

#include <vector>

#include "sparsecore/minibatching.h"
#include "sparsecore/preprocessing.h"

using namespace shardscope::sc;

TEST(SparseCoreMinibatching, SplitTreeExample) {
  // 8 buckets, limit 7: pairs fit (7, 7, 7, 2); both quads and the root
  // split: bits 4, 5, 6.
  std::vector<int64_t> counts{2, 5, 1, 6, 3, 4, 2, 0};
  MinibatchingSplit split = minibatchingSplit(counts, 7);
  EXPECT_EQ(split, MinibatchingSplit{0b1110000});
  EXPECT_EQ(minibatchCount(split), 4);
}

TEST(SparseCoreMinibatching, NoSplitWhenEverythingFits) {
  std::vector<int64_t> counts(64, 1);
  EXPECT_EQ(minibatchingSplit(counts, 64), 0u);
  EXPECT_EQ(minibatchCount(0), 1);
}

TEST(SparseCoreMinibatching, EveryNodeSplitsWhenEachBucketIsFull) {
  std::vector<int64_t> counts(64, 10);
  MinibatchingSplit split = minibatchingSplit(counts, 10);
  EXPECT_EQ(minibatchCount(split), 64);
}

TEST(SparseCoreMinibatching, BucketsAreStableAndSpread) {
  std::vector<int> hits(kMinibatchingBuckets, 0);
  for (uint32_t c = 0; c < 64 * 100; ++c) {
    uint32_t b = minibatchingBucket(c);
    ASSERT_LT(b, 64u);
    EXPECT_EQ(b, minibatchingBucket(c));
    ++hits[b];
  }
  for (int h : hits) EXPECT_GT(h, 50);
}

TEST(SparseCoreMinibatching, PreprocessingSplitsInsteadOfFailing) {
  // 1 SparseCore, 256 distinct ids in one partition, limits 64: without
  // mini-batching this fails; with it the batch runs in several passes.
  Job job;
  job.devices = 1;
  job.sparseCoresPerDevice = 1;
  job.tables.push_back({.name = "t",
                        .vocabSize = 4096,
                        .width = 8,
                        .maxIdsPerPartition = 64,
                        .maxUniqueIdsPerPartition = 64});
  IdBatch b;
  for (uint32_t i = 0; i < 256; ++i) b.addSample(std::vector<uint32_t>{i});
  job.features.push_back({.name = "f", .table = "t", .ids = b});

  PreprocessResult plain = preprocess(job);
  EXPECT_TRUE(plain.limitError.has_value());

  job.enableMinibatching = true;
  PreprocessResult mb = preprocess(job);
  EXPECT_FALSE(mb.limitError.has_value()) << *mb.limitError;
  EXPECT_TRUE(mb.minibatchingRequired);
  EXPECT_GE(mb.minibatches, 4);  // 256 ids / 64 per mini-batch at least
  EXPECT_LE(mb.minibatches, 64);
  EXPECT_EQ(mb.stats[0].droppedIds, 0);
  // Reported stats are unchanged by mini-batching.
  EXPECT_EQ(mb.stats[0].maxIdsPerPartition, plain.stats[0].maxIdsPerPartition);
}

TEST(SparseCoreMinibatching, NotRequiredWhenWithinLimits) {
  Job job;
  job.devices = 1;
  job.sparseCoresPerDevice = 2;
  job.enableMinibatching = true;
  job.tables.push_back({.name = "t", .vocabSize = 64, .width = 8});
  IdBatch b;
  b.addSample(std::vector<uint32_t>{1, 2});
  b.addSample(std::vector<uint32_t>{3});
  job.features.push_back({.name = "f", .table = "t", .ids = b});
  PreprocessResult r = preprocess(job);
  EXPECT_FALSE(r.minibatchingRequired);
  EXPECT_EQ(r.minibatches, 1);
}

TEST(SparseCoreMinibatching, SplitIsSharedByAllTables) {
  // Table "hot" needs mini-batching, table "cold" does not; both report
  // the shared count.
  Job job;
  job.devices = 1;
  job.sparseCoresPerDevice = 1;
  job.enableMinibatching = true;
  job.tableStacking = false;
  job.tables.push_back({.name = "hot",
                        .vocabSize = 4096,
                        .width = 8,
                        .maxIdsPerPartition = 32,
                        .maxUniqueIdsPerPartition = 32});
  job.tables.push_back({.name = "cold", .vocabSize = 64, .width = 8});
  IdBatch hot, cold;
  for (uint32_t i = 0; i < 128; ++i) {
    hot.addSample(std::vector<uint32_t>{i});
    cold.addSample(std::vector<uint32_t>{i % 4});
  }
  job.features.push_back({.name = "h", .table = "hot", .ids = hot});
  job.features.push_back({.name = "c", .table = "cold", .ids = cold});
  PreprocessResult r = preprocess(job);
  EXPECT_TRUE(r.minibatchingRequired);
  EXPECT_EQ(r.stats[1].split, 0u);
  EXPECT_NE(r.stats[0].split, 0u);
  EXPECT_EQ(r.split, r.stats[0].split);
}

TEST(SparseCoreMinibatching, SingleHotBucketStillFailsOrDrops) {
  // 100 samples all look up id 0: one column, one bucket, 100 ids against a
  // limit of 64. Splitting buckets cannot help; the reference reports the
  // per-bucket maximum, or drops the excess when allowed.
  Job job;
  job.devices = 1;
  job.sparseCoresPerDevice = 1;
  job.enableMinibatching = true;
  job.tables.push_back({.name = "t",
                        .vocabSize = 64,
                        .width = 8,
                        .maxIdsPerPartition = 64,
                        .maxUniqueIdsPerPartition = 64});
  IdBatch b;
  for (int i = 0; i < 100; ++i) b.addSample(std::vector<uint32_t>{0});
  job.features.push_back({.name = "f", .table = "t", .ids = b});
  PreprocessResult r = preprocess(job);
  EXPECT_TRUE(r.minibatchingRequired);
  ASSERT_TRUE(r.limitError.has_value());
  EXPECT_EQ(r.limitError->rfind("Observed max ids per partition: 100 for table: t", 0), 0u)
      << *r.limitError;
  job.allowIdDropping = true;
  r = preprocess(job);
  EXPECT_FALSE(r.limitError.has_value());
  EXPECT_EQ(r.stats[0].droppedIds, 36);
}

// jax-tpu-embedding minibatching_splits_test.cc: ComputeMinibatchingSplitTest
// (8 buckets; the split mask depends only on the counts per bucket, not on
// the hash) and MergeBucketsTest.
namespace {

struct SplitVector {
  std::vector<int64_t> perBucket;
  int64_t limit;
  shardscope::sc::MinibatchingSplit expected;
};

class ReferenceSplit : public ::testing::TestWithParam<SplitVector> {};

TEST_P(ReferenceSplit, MatchesComputeMinibatchingSplit) {
  EXPECT_EQ(shardscope::sc::minibatchingSplit(GetParam().perBucket, GetParam().limit), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(MinibatchingSplitsTest, ReferenceSplit,
                         ::testing::Values(SplitVector{std::vector<int64_t>(8, 10), 100, 0},          // full merge
                                           SplitVector{std::vector<int64_t>(8, 100), 150, 0b1111111},  // no merges
                                           SplitVector{{10, 20, 30, 40, 50, 60, 70, 80}, 100, 0b1101100},
                                           SplitVector{{50, 50, 20, 80, 10, 10, 70, 10}, 100, 0b1010000},
                                           SplitVector{{90, 10, 90, 10, 90, 10, 90, 10}, 100, 0b1110000}));

struct MergeVector {
  shardscope::sc::MinibatchingSplit split;
  std::vector<std::pair<int, int>> merges;
};

class ReferenceMerge : public ::testing::TestWithParam<MergeVector> {};

TEST_P(ReferenceMerge, MatchesMergeBuckets) {
  auto got = shardscope::sc::mergedBucketPairs(GetParam().split, 8);
  auto want = GetParam().merges;
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
}

INSTANTIATE_TEST_SUITE_P(
    MinibatchingSplitsTest, ReferenceMerge,
    ::testing::Values(MergeVector{0b1111111, {}},
                      MergeVector{0b0101101, {{2, 3}, {0, 2}, {0, 4}}},
                      MergeVector{0, {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {4, 6}, {0, 4}}},
                      MergeVector{0b0001010, {{0, 1}, {4, 5}, {0, 2}, {4, 6}, {0, 4}}},
                      MergeVector{0b0101010, {{0, 1}, {4, 5}, {0, 2}, {0, 4}}}));

}  // namespace
