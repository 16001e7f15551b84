// Stack planning: grouping by padded width and optimizer, offsets, rotation.
#include <gtest/gtest.h>

#include "sparsecore/stacking.h"

using namespace shardscope::sc;

namespace {
Job tablesJob(std::vector<TableSpec> tables, int cores = 4) {
  Job job;
  job.devices = 1;
  job.sparseCoresPerDevice = cores;
  job.tables = std::move(tables);
  for (const TableSpec& t : job.tables)
    job.features.push_back({.name = "f_" + t.name, .table = t.name, .ids = {}});
  return job;
}
}  // namespace

TEST(SparseCoreStacking, GroupsByPaddedWidthAndOptimizer) {
  Job job = tablesJob({{.name = "a", .vocabSize = 10, .width = 5},
                       {.name = "b", .vocabSize = 10, .width = 8},
                       {.name = "c", .vocabSize = 10, .width = 9},
                       {.name = "d", .vocabSize = 10, .width = 8, .optimizer = "adagrad"}});
  std::vector<StackPlan> plans = planStacks(job);
  ASSERT_EQ(plans.size(), 3u);
  EXPECT_EQ(plans[0].name, "a_b");
  EXPECT_EQ(plans[1].name, "c");
  EXPECT_EQ(plans[2].name, "d");
  EXPECT_EQ(plans[1].paddedWidth, 16);
}

TEST(SparseCoreStacking, OffsetsAndRotation) {
  // N = 4: vocab 10 -> 32 rows (8 per shard), vocab 40 -> 64 (16 per shard).
  Job job = tablesJob({{.name = "a", .vocabSize = 10, .width = 8},
                       {.name = "b", .vocabSize = 40, .width = 8},
                       {.name = "c", .vocabSize = 1, .width = 8}});
  job.stackRotation = 1;
  StackPlan p = planStacks(job)[0];
  ASSERT_EQ(p.members.size(), 3u);
  EXPECT_EQ(p.members[1].rowOffsetInShard, 8);
  EXPECT_EQ(p.members[1].colOffset, 32);
  EXPECT_EQ(p.members[1].shardRotation, 1);
  EXPECT_EQ(p.members[2].rowOffsetInShard, 24);
  EXPECT_EQ(p.members[2].shardRotation, 2);
  EXPECT_EQ(p.stackVocab, 32 + 64 + 32);
  // Column of id 5 in b: ((5 + 1) mod 4) + (5 - 5 mod 4) + 32 = 2 + 4 + 32.
  EXPECT_EQ(stackedColumn(5, 1, 32, 3), 38u);
}

TEST(SparseCoreStacking, MultiTableStackUsesStackLimitsAndWarns) {
  Job job = tablesJob({{.name = "a", .vocabSize = 10, .width = 8, .maxIdsPerPartition = 32},
                       {.name = "b", .vocabSize = 10, .width = 8}});
  job.stackedMaxIdsPerPartition = 512;
  StackPlan p = planStacks(job)[0];
  EXPECT_EQ(p.maxIdsPerPartition, 512);
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_NE(p.warnings[0].find("per-table limits are ignored"), std::string::npos);
}

TEST(SparseCoreStacking, SingleTableKeepsItsLimits) {
  Job job = tablesJob({{.name = "a",
                        .vocabSize = 10,
                        .width = 8,
                        .maxIdsPerPartition = 32,
                        .maxUniqueIdsPerPartition = 16}});
  StackPlan p = planStacks(job)[0];
  EXPECT_EQ(p.maxIdsPerPartition, 32);
  EXPECT_EQ(p.maxUniqueIdsPerPartition, 16);
}

TEST(SparseCoreStacking, OffKeepsOneStackPerTable) {
  Job job = tablesJob(
      {{.name = "a", .vocabSize = 10, .width = 8}, {.name = "b", .vocabSize = 10, .width = 8}});
  job.tableStacking = false;
  EXPECT_EQ(planStacks(job).size(), 2u);
}
