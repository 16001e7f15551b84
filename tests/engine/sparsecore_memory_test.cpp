// Padding, HBM waste, SPMEM sizing and the HBM stack formulas.
#include <gtest/gtest.h>

#include "sparsecore/analysis.h"
#include "sparsecore/memory.h"
#include "sparsecore/stacking.h"

using namespace shardscope::sc;

TEST(SparseCoreMemory, PaddingRules) {
  EXPECT_EQ(paddedWidth(1), 8);
  EXPECT_EQ(paddedWidth(8), 8);
  EXPECT_EQ(paddedWidth(9), 16);
  EXPECT_EQ(paddedVocab(1000, 4), 1024);  // multiple of 8 x 4 = 32
  EXPECT_EQ(paddedVocab(1024, 4), 1024);
  EXPECT_EQ(paddedVocab(1, 64), 512);
}

TEST(SparseCoreMemory, WidthOneWastesSevenEighths) {
  TableMemory m = tableMemory({.name = "w1", .vocabSize = 4096, .width = 1}, 4, 1);
  EXPECT_EQ(m.allocatedBytes, 4096 * 8 * 4);
  EXPECT_EQ(m.usefulBytes, 4096 * 1 * 4);
  EXPECT_DOUBLE_EQ(m.wasteFraction, 7.0 / 8.0);
}

TEST(SparseCoreMemory, OptimizerSlotsMultiplyTables) {
  TableMemory sgd = tableMemory({.name = "a", .vocabSize = 64, .width = 8}, 1, 1);
  TableMemory adam =
      tableMemory({.name = "a", .vocabSize = 64, .width = 8, .optimizer = "adam"}, 1, 1);
  EXPECT_EQ(adam.allocatedBytes, 3 * sgd.allocatedBytes);
}

TEST(SparseCoreMemory, SpmemFixedAllocationsOverflow) {
  ChipSpec chip = *chipSpecByName("v6e");  // 256 KiB per tile
  SpmemModel model;
  SpmemEstimate ok = spmemEstimate(chip, model, "t", 256, 256, 128, 1024);
  EXPECT_FALSE(ok.error.has_value());
  // 2 x (256 x 12 + 256 x 128 x 4) / 16 tiles
  EXPECT_EQ(ok.fixedBytesPerTile, (2 * (256 * 12 + 256 * 128 * 4) + 15) / 16);
  SpmemEstimate big = spmemEstimate(chip, model, "t", 65536, 65536, 128, 1024);
  ASSERT_TRUE(big.error.has_value());
  EXPECT_EQ(big.error->rfind("Fixed size allocations (", 0), 0u) << *big.error;
  EXPECT_NE(big.error->find("do not fit in TileSpmem (262144 bytes)"), std::string::npos);
}

TEST(SparseCoreMemory, HugeCooEntriesSaturateAndDoNotFit) {
  // coo_entry_bytes = 2^31-1 with 2^31-1 ids and buffering 2^31-1: the
  // product is far beyond int64 (it used to wrap around, possibly to a
  // size that fits).
  ChipSpec chip = *chipSpecByName("v6e");
  SpmemModel model;
  model.cooEntryBytes = INT32_MAX;
  model.buffering = INT32_MAX;
  SpmemEstimate e = spmemEstimate(chip, model, "t", INT32_MAX, 256, 128, 1024);
  EXPECT_EQ(e.idsStagingBytes, INT64_MAX);
  EXPECT_EQ(e.fixedBytesPerTile, INT64_MAX / 16 + 1);
  ASSERT_TRUE(e.error.has_value());
  EXPECT_EQ(e.error->rfind("Fixed size allocations (", 0), 0u) << *e.error;
}

TEST(SparseCoreMemory, GatherOperandTooLarge) {
  ChipSpec chip = *chipSpecByName("v5p");
  SpmemEstimate e = spmemEstimate(chip, SpmemModel{}, "t", 256, 256, 256, 16384);
  ASSERT_TRUE(e.error.has_value());
  EXPECT_EQ(e.error->rfind("Gather operand too large", 0), 0u) << *e.error;
}

TEST(SparseCoreMemory, HbmStackFormulas) {
  Job job;
  job.devices = 2;
  job.sparseCoresPerDevice = 2;
  job.tables.push_back({.name = "t", .vocabSize = 100, .width = 16});
  IdBatch b;
  for (int i = 0; i < 4; ++i) b.addSample(std::vector<uint32_t>{1, 2, 3});
  job.features.push_back({.name = "f", .table = "t", .ids = b});
  AnalysisReport r = analyze(job);
  ASSERT_EQ(r.tables.size(), 1u);
  // max unique per row 3, replicas = devices = 2, width 16.
  EXPECT_EQ(r.tables[0].memory.hbmStackForwardBytes, (2 * 16 + 1) * 3 * 2 * 4);
  EXPECT_EQ(r.tables[0].memory.hbmStackBackwardBytes, 3 * 16 * 3 * 2 * 4);
  // Table: vocab 100 -> 128 (8 x 4), width 16: 128 x 16 x 4 bytes over 2 chips.
  EXPECT_EQ(r.memory.hbmTablesPerChip, 128 * 16 * 4 / 2);
}

TEST(SparseCoreMemory, SpmemErrorStopsAnalysis) {
  Job job;
  job.devices = 1;
  job.sparseCoresPerDevice = 1;
  job.tables.push_back({.name = "t",
                        .vocabSize = 100,
                        .width = 512,
                        .maxIdsPerPartition = 100000,
                        .maxUniqueIdsPerPartition = 100000});
  IdBatch b;
  b.addSample(std::vector<uint32_t>{1});
  job.features.push_back({.name = "f", .table = "t", .ids = b});
  AnalysisReport r = analyze(job);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_NE(r.error->find("do not fit in TileSpmem"), std::string::npos);
}
