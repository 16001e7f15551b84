// The IR's node pools under concurrent use: GUI loader threads build IR while
// others free it, and the pools' size classes are shared by all threads
// (guarded by a spin lock each). A block handed to two threads at once would
// show as a stamp overwritten by the other thread (and a free list torn by
// two threads at once as a crash: without the lock, this test crashes).
#include "ir/node_pool.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace shardscope::ir::detail {
namespace {

struct Stamp {
  uint32_t thread;
  uint32_t index;
};

// Fills the whole block with its owner's stamp.
void stamp(void* p, std::size_t size, Stamp s) {
  auto* bytes = static_cast<unsigned char*>(p);
  for (std::size_t at = 0; at + sizeof s <= size; at += sizeof s) std::memcpy(bytes + at, &s, sizeof s);
}

bool stamped(const void* p, std::size_t size, Stamp s) {
  const auto* bytes = static_cast<const unsigned char*>(p);
  for (std::size_t at = 0; at + sizeof s <= size; at += sizeof s) {
    Stamp seen;
    std::memcpy(&seen, bytes + at, sizeof seen);
    if (seen.thread != s.thread || seen.index != s.index) return false;
  }
  return true;
}

// Each thread takes a handful of blocks, stamps them, checks that the stamps
// are still its own, and gives them back, many times over in a tight loop
// (so that the threads meet inside the pool's critical sections, mostly on
// the free list, which they share). Every few rounds it also keeps blocks for
// longer, stamped whole, so that the chunk refill path is taken as well.
// Returns the number of blocks found written by another thread.
int churn(uint32_t thread, std::size_t size, int rounds) {
  constexpr int kBatch = 16;
  void* batch[kBatch];
  std::vector<void*> kept;
  int broken = 0;
  for (int round = 0; round < rounds; ++round) {
    for (int i = 0; i < kBatch; ++i) {
      batch[i] = poolAllocate(size);
      stamp(batch[i], sizeof(Stamp), {thread, static_cast<uint32_t>(i)});
    }
    for (int i = 0; i < kBatch; ++i) {
      if (!stamped(batch[i], sizeof(Stamp), {thread, static_cast<uint32_t>(i)})) ++broken;
      poolDeallocate(batch[i], size);
    }
    if (round % 64 == 0) {
      kept.push_back(poolAllocate(size));
      stamp(kept.back(), size, {thread, static_cast<uint32_t>(kept.size())});
    }
  }
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (!stamped(kept[i], size, {thread, static_cast<uint32_t>(i + 1)})) ++broken;
    poolDeallocate(kept[i], size);
  }
  return broken;
}

class NodePoolConcurrencyTest : public ::testing::TestWithParam<std::size_t> {};

TEST_P(NodePoolConcurrencyTest, ThreadsNeverShareABlock) {
  const std::size_t size = GetParam();
  constexpr int kThreads = 4;
  constexpr int kRounds = 20000;
  std::vector<int> broken(kThreads, -1);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] { broken[static_cast<std::size_t>(t)] = churn(static_cast<uint32_t>(t), size, kRounds); });
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(broken[static_cast<std::size_t>(t)], 0) << "thread " << t;
}

// The smallest class, an odd size rounded up, a common op size, the largest
// pooled size, and one beyond the pools (plain operator new).
INSTANTIATE_TEST_SUITE_P(Sizes, NodePoolConcurrencyTest, ::testing::Values(16, 40, 136, 512, 1024));

}  // namespace
}  // namespace shardscope::ir::detail
