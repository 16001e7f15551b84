// api/communication_diff.h: the change in collectives between two reports,
// per kind and in words, with hand-computed bytes.
#include "api/communication_diff.h"

#include <gtest/gtest.h>

#include "api/propagate.h"

namespace shardscope::api {
namespace {

std::shared_ptr<Document> sample(const std::string& name) {
  return loadDocument(std::string(SHARDSCOPE_SOURCE_DIR) + "/sample_models/" + name);
}

CollectiveEntry entry(const std::string& kind, double bytes, double seconds) {
  CollectiveEntry e;
  e.kind = kind;
  e.bytesPerDevice = bytes;
  e.seconds = seconds;
  return e;
}

CommunicationReport reportOf(std::vector<CollectiveEntry> entries) {
  CommunicationReport r;
  r.ok = true;
  for (const CollectiveEntry& e : entries) {
    ++r.total.count;
    r.total.bytesPerDevice += e.bytesPerDevice;
    r.total.seconds += e.seconds;
  }
  r.collectives = std::move(entries);
  return r;
}

TEST(CommunicationDiff, ChangeInWords) {
  const double MiB = 1024.0 * 1024.0;
  CommunicationReport before =
      reportOf({entry("all-gather", 24 * MiB, 40e-6), entry("all-gather", 24 * MiB, 40e-6),
                entry("all-reduce", 1 * MiB, 2e-6)});
  CommunicationReport after = reportOf({entry("all-reduce", 1 * MiB, 2e-6)});
  EXPECT_EQ(describeCommunicationChange(before, after),
            "removes 2 all-gathers; -48.00 MiB, -80 us per device");
  EXPECT_EQ(describeCommunicationChange(after, before),
            "adds 2 all-gathers; +48.00 MiB, +80 us per device");
  CommunicationReport swapped = reportOf({entry("all-to-all", 2 * MiB, 4e-6)});
  EXPECT_EQ(describeCommunicationChange(after, swapped),
            "removes 1 all-reduce, adds 1 all-to-all; +1.00 MiB, +2 us per device");
  EXPECT_EQ(describeCommunicationChange(after, after), "no change in collectives");
  // The Megatron MLP: propagation removes the reshards the unpropagated
  // module needs, keeping the all-reduce.
  auto doc = sample("mlp_megatron.mlir");
  auto run = propagateDocument(*doc, {});
  ASSERT_TRUE(run->ok);
  const std::string change =
      describeCommunicationChange(analyzeCommunication(*doc), analyzeCommunication(*run->result));
  EXPECT_EQ(change.rfind("removes ", 0), 0u) << change;
  EXPECT_EQ(change.find("all-reduce"), std::string::npos) << change;
  EXPECT_NE(change.find("; -"), std::string::npos) << change;
}

// The same time summed in another order differs in its last bits: that is
// no change (the what-if of priorities.mlir said "-6.62e-15 ns").
TEST(CommunicationDiff, RoundingOfSumsIsNoChange) {
  // 0.1 + 0.2 + 0.3 and 0.3 + 0.2 + 0.1 (seconds) differ in the last bit.
  CommunicationReport before = reportOf({entry("all-gather", 512, 0.1), entry("all-gather", 512, 0.2),
                                         entry("all-reduce", 1024, 0.3)});
  CommunicationReport after = reportOf({entry("all-reduce", 1024, 0.3), entry("all-slice", 0, 0.2),
                                        entry("collective-permute", 1024, 0.1)});
  ASSERT_NE(before.total.seconds, after.total.seconds);
  const CommunicationDiff d = diffCommunication(before, after);
  EXPECT_EQ(d.secondsDelta(), 0.0);
  EXPECT_EQ(d.bytesDelta(), 0.0);
  EXPECT_EQ(d.summary,
            "removes 2 all-gathers, adds 1 all-slice, 1 collective-permute; 0 B, 0 s per device");
  EXPECT_EQ(communicationDelta(1.0, 1.5), 0.5);
}

TEST(CommunicationDiff, PerKindTable) {
  const double MiB = 1024.0 * 1024.0;
  CommunicationReport before =
      reportOf({entry("all-gather", 24 * MiB, 40e-6), entry("all-reduce", 1 * MiB, 2e-6),
                entry("all-gather", 24 * MiB, 40e-6)});
  CommunicationReport after =
      reportOf({entry("all-reduce", 1 * MiB, 2e-6), entry("all-to-all", 3 * MiB, 5e-6)});
  CommunicationDiff d = diffCommunication(before, after);
  ASSERT_EQ(d.kinds.size(), 3u);
  EXPECT_EQ(d.kinds[0].kind, "all-gather");
  EXPECT_EQ(d.kinds[0].countBefore, 2);
  EXPECT_EQ(d.kinds[0].countAfter, 0);
  EXPECT_DOUBLE_EQ(d.kinds[0].bytesBefore, 48 * MiB);
  EXPECT_DOUBLE_EQ(d.kinds[0].bytesDelta(), -48 * MiB);
  EXPECT_DOUBLE_EQ(d.kinds[0].secondsDelta(), -80e-6);
  EXPECT_EQ(d.kinds[1].kind, "all-reduce");
  EXPECT_FALSE(d.kinds[1].changed());
  EXPECT_EQ(d.kinds[2].kind, "all-to-all");
  EXPECT_EQ(d.kinds[2].countDelta(), 1);
  EXPECT_DOUBLE_EQ(d.kinds[2].bytesAfter, 3 * MiB);
  EXPECT_EQ(d.before.count, 3);
  EXPECT_EQ(d.after.count, 2);
  EXPECT_DOUBLE_EQ(d.after.bytesPerDevice - d.before.bytesPerDevice, -45 * MiB);
  EXPECT_TRUE(d.changed());
  EXPECT_EQ(d.summary, "removes 2 all-gathers, adds 1 all-to-all; -45.00 MiB, -75 us per device");
  EXPECT_FALSE(diffCommunication(after, after).changed());
}

TEST(CommunicationDiff, WhatIfOnTheAllToAllSample) {
  // Giving %arg1 the rows of %arg0 removes the all-to-all: 3/4 of a 256x32
  // f32 shard, 24576 bytes per device, 24576 / 600e9 s on TPU v5p.
  auto doc = sample("alltoall_conflict.mlir");
  ASSERT_FALSE(doc->hasErrors());
  std::string text = doc->text;
  const std::string from = "[{}, {\"x\"}]>}", to = "[{\"x\"}, {}]>}";
  ASSERT_NE(text.find(from), std::string::npos);
  text.replace(text.find(from), from.size(), to);
  auto edited = parseDocument(text, doc->name);
  ASSERT_FALSE(edited->hasErrors());
  propagation::PropagationOptions options;
  options.level = propagation::PropagationLevel::Pipeline;
  auto a = propagateDocument(*doc, options), b = propagateDocument(*edited, options);
  ASSERT_TRUE(a->ok && b->ok);
  CommunicationDiff d =
      diffCommunication(analyzeCommunication(*a->result), analyzeCommunication(*b->result));
  ASSERT_EQ(d.kinds.size(), 1u);
  EXPECT_EQ(d.kinds[0].kind, "all-to-all");
  EXPECT_EQ(d.kinds[0].countBefore, 1);
  EXPECT_EQ(d.kinds[0].countAfter, 0);
  EXPECT_DOUBLE_EQ(d.kinds[0].bytesBefore, 24576);
  EXPECT_DOUBLE_EQ(d.kinds[0].secondsBefore, 24576 / 600e9);
  EXPECT_EQ(d.summary, "removes 1 all-to-all; -24.00 KiB, -41 ns per device");
}

}  // namespace
}  // namespace shardscope::api
