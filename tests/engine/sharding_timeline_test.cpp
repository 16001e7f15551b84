// api::ShardingTimeline: seeking to step N in any order gives the module
// that documentAtStep(N) gives (printed text compared), and each seek
// reports the values it changed.
#include "api/sharding_timeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "api/propagate.h"
#include "ir/printer.h"

namespace shardscope::api {
namespace {

std::string sample(const char* name) {
  return std::string(SHARDSCOPE_SOURCE_DIR) + "/sample_models/" + name;
}

class ShardingTimelineTest : public ::testing::TestWithParam<const char*> {};

TEST_P(ShardingTimelineTest, SeekMatchesReplayInAnyOrder) {
  auto input = loadDocument(sample(GetParam()));
  ASSERT_TRUE(input->module && !input->hasErrors());
  propagation::PropagationOptions options;
  auto run = propagateDocument(*input, options);
  ASSERT_TRUE(run->ok);
  const size_t n = run->trace.steps.size();
  ASSERT_GT(n, 0u);
  auto base = documentAtStep(*input, *run, 0);
  ASSERT_TRUE(base);
  std::string error;
  auto timeline = ShardingTimeline::create(*base->module, run->trace, &error);
  ASSERT_TRUE(timeline) << error;
  EXPECT_EQ(timeline->stepCount(), n);
  EXPECT_EQ(timeline->stepsApplied(), 0u);

  std::vector<std::string> expected;
  for (size_t k = 0; k <= n; ++k)
    expected.push_back(ir::printModule(*documentAtStep(*input, *run, k)->module));

  // Forward one by one (every update applied once: the timeline then
  // jumps, setting each op written once), back to the start, then random
  // jumps.
  std::vector<size_t> order;
  for (size_t k = 1; k <= n; ++k) order.push_back(k);
  for (size_t k = n; k-- > 0;) order.push_back(k);
  std::mt19937 rng(7);
  for (int i = 0; i < 40; ++i) order.push_back(rng() % (n + 1));
  for (size_t k : order) {
    const size_t from = timeline->stepsApplied();
    const TimelineChanges changes = timeline->seek(k);
    ASSERT_EQ(timeline->stepsApplied(), k);
    ASSERT_EQ(ir::printModule(*base->module), expected[k]) << "after seeking " << from << " -> " << k;
    // Every value a crossed step updated is reported.
    for (size_t s = std::min(from, k); s < std::max(from, k); ++s)
      for (const auto& u : run->trace.steps[s].updates) {
        ir::Op* op = timeline->opAt(u.value.op);
        ASSERT_TRUE(op);
        if (u.value.kind == "func_result") {
          EXPECT_NE(std::find(changes.functions.begin(), changes.functions.end(), op),
                    changes.functions.end());
        } else if (u.value.kind == "result") {
          const ir::Value* v = op->result(static_cast<unsigned>(u.value.index));
          EXPECT_NE(std::find(changes.values.begin(), changes.values.end(), v),
                    changes.values.end());
        }
      }
    if (from == k) {
      EXPECT_TRUE(changes.empty());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Samples, ShardingTimelineTest,
                         ::testing::Values("matmul_chain.mlir", "mlp_megatron.mlir",
                                           "while_loop.mlir", "manual_computation.mlir",
                                           "priorities.mlir", "sharding_groups.mlir",
                                           "attention_block.mlir"));

TEST(ShardingTimeline, FinalShardingIsTheLastUpdate) {
  auto input = loadDocument(sample("matmul_chain.mlir"));
  ASSERT_TRUE(input->module);
  auto run = propagateDocument(*input, {});
  ASSERT_TRUE(run->ok);
  auto base = documentAtStep(*input, *run, 0);
  auto timeline = ShardingTimeline::create(*base->module, run->trace);
  ASSERT_TRUE(timeline);
  timeline->seek(timeline->stepCount());
  std::set<const ir::Value*> seen;
  for (size_t s = 0; s < run->trace.steps.size(); ++s)
    for (const auto& u : run->trace.steps[s].updates) {
      if (u.value.kind != "result") continue;
      const ir::Value* v = timeline->opAt(u.value.op)->result(static_cast<unsigned>(u.value.index));
      seen.insert(v);
      const TensorSharding* final = timeline->finalSharding(v);
      ASSERT_TRUE(final);
      auto now = valueSharding(*v);
      ASSERT_TRUE(now);
      EXPECT_EQ(*now, *final);
    }
  EXPECT_FALSE(seen.empty());
}

TEST(ShardingTimeline, UnresolvedUpdateIsAnError) {
  auto input = loadDocument(sample("matmul_chain.mlir"));
  ASSERT_TRUE(input->module);
  propagation::PropagationTrace trace;
  propagation::TraceStep step;
  propagation::TraceValueUpdate u;
  u.value.op = 100000;
  step.updates.push_back(u);
  trace.steps.push_back(step);
  std::string error;
  EXPECT_FALSE(ShardingTimeline::create(*input->module, trace, &error));
  EXPECT_NE(error.find("no op"), std::string::npos) << error;
}

}  // namespace
}  // namespace shardscope::api
