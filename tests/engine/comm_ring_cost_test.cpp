// The ring formulas and the interconnect table, against hand-computed values.
#include <gtest/gtest.h>

#include "comm/interconnect.h"
#include "comm/ring_cost.h"

using namespace shardscope;
using comm::CollectiveKind;

TEST(CommElementBytes, CommonTypes) {
  EXPECT_EQ(comm::elementBytes("f32"), 4);
  EXPECT_EQ(comm::elementBytes("bf16"), 2);
  EXPECT_EQ(comm::elementBytes("f64"), 8);
  EXPECT_EQ(comm::elementBytes("i1"), 1);
  EXPECT_EQ(comm::elementBytes("ui8"), 1);
  EXPECT_EQ(comm::elementBytes("i64"), 8);
  EXPECT_EQ(comm::elementBytes("f8E4M3FN"), 1);
  EXPECT_EQ(comm::elementBytes("complex<f32>"), 8);
  EXPECT_EQ(comm::elementBytes("index"), 8);
  EXPECT_EQ(comm::elementBytes("!foo.bar"), std::nullopt);
}

// The issue's example: all-gather of tensor<8x8xf32> from [{"x"}, {}] to
// [{}, {}] on "x"=4. Each device ends with all 256 bytes and had 64 of them.
TEST(CommRingCost, AllGatherOfEightByEightOnFourDevices) {
  EXPECT_DOUBLE_EQ(comm::bytesReceivedPerDevice(CollectiveKind::AllGather, 4, 64, 256), 192);
}

TEST(CommRingCost, OtherKinds) {
  // reduce-scatter over 4 devices of a 1024-byte shard: 3 chunks of 256.
  EXPECT_DOUBLE_EQ(comm::bytesReceivedPerDevice(CollectiveKind::ReduceScatter, 4, 1024, 256), 768);
  // all-reduce over 2 devices of 1000 bytes: 2 * 1/2 * 1000.
  EXPECT_DOUBLE_EQ(comm::bytesReceivedPerDevice(CollectiveKind::AllReduce, 2, 1000, 1000), 1000);
  // all-reduce over 8 devices of 800 bytes: 2 * 7/8 * 800.
  EXPECT_DOUBLE_EQ(comm::bytesReceivedPerDevice(CollectiveKind::AllReduce, 8, 800, 800), 1400);
  // all-to-all over 4 devices of a 512-byte shard: keeps 128, gets 3 * 128.
  EXPECT_DOUBLE_EQ(comm::bytesReceivedPerDevice(CollectiveKind::AllToAll, 4, 512, 512), 384);
  // collective-permute: the whole shard from one peer.
  EXPECT_DOUBLE_EQ(comm::bytesReceivedPerDevice(CollectiveKind::CollectivePermute, 1, 512, 512), 512);
  // all-slice: nothing moves.
  EXPECT_DOUBLE_EQ(comm::bytesReceivedPerDevice(CollectiveKind::AllSlice, 4, 512, 128), 0);
}

TEST(CommRingCost, SecondsFromBandwidthAndStepLatency) {
  comm::ChipLink chip{"t", "", 2e9, 1e-6, ""};  // 1 GB/s one way, 1 us per step
  // 192 bytes: 192 ns on the wire, plus 3 steps of 1 us.
  EXPECT_NEAR(comm::estimateSeconds(CollectiveKind::AllGather, 4, 192, chip), 192e-9 + 3e-6, 1e-15);
  EXPECT_EQ(comm::ringSteps(CollectiveKind::AllReduce, 4), 6);
  EXPECT_EQ(comm::ringSteps(CollectiveKind::AllSlice, 4), 0);
}

TEST(CommInterconnect, BuiltinTableHasTheChipsWithSources) {
  for (const char* name : {"tpu-v4", "tpu-v5e", "tpu-v5p", "tpu-v6e", "gpu-h100-nvlink"}) {
    auto chip = comm::findChip(comm::builtinChips(), name);
    ASSERT_TRUE(chip) << name;
    EXPECT_GT(chip->bidirectionalBytesPerSecond, 0) << name;
    EXPECT_FALSE(chip->source.empty()) << name;
  }
  EXPECT_DOUBLE_EQ(comm::findChip(comm::builtinChips(), "tpu-v5p")->oneWayBytesPerSecond(), 600e9);
}

TEST(CommInterconnect, JsonOverridesAndAdds) {
  std::vector<comm::ChipLink> chips = comm::builtinChips();
  std::string error;
  ASSERT_TRUE(comm::parseChipTable(
      R"({"chips": [{"name": "tpu-v5p", "step_latency_us": 2},
                    {"name": "lab", "bidirectional_gbps": 100, "source": "measured"}]})",
      "t.json", chips, error))
      << error;
  auto v5p = comm::findChip(chips, "tpu-v5p");
  EXPECT_DOUBLE_EQ(v5p->bidirectionalBytesPerSecond, 1200e9);  // kept
  EXPECT_DOUBLE_EQ(v5p->stepLatencySeconds, 2e-6);
  auto lab = comm::findChip(chips, "lab");
  ASSERT_TRUE(lab);
  EXPECT_DOUBLE_EQ(lab->bidirectionalBytesPerSecond, 100e9);
  EXPECT_EQ(lab->source, "measured");
}

TEST(CommInterconnect, BadJsonIsAnErrorNamingTheField) {
  std::vector<comm::ChipLink> chips = comm::builtinChips();
  std::string error;
  EXPECT_FALSE(comm::parseChipTable("{", "t.json", chips, error));
  EXPECT_EQ(error, "t.json: not valid JSON");
  EXPECT_FALSE(comm::parseChipTable(R"({"chips": [{"name": "new"}]})", "t.json", chips, error));
  EXPECT_EQ(error, "t.json: chips[0].bidirectional_gbps: missing for a new chip");
  EXPECT_FALSE(comm::parseChipTable(R"({"chips": [{"name": "x", "bidirectional_gbps": -1}]})", "t.json", chips, error));
  EXPECT_EQ(error, "t.json: chips[0].bidirectional_gbps: must be a positive number (GB/s)");
  EXPECT_EQ(chips.size(), comm::builtinChips().size());  // unchanged on error
}
