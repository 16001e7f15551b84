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

// A jump (to the input, to the result, across a stretch: each op written
// set once) reports exactly what walking the same steps one by one reports,
// and leaves the same module. Cases: (sample, from, to) with steps given as
// a share of the run (0: the input, 1: the result), so every sample has a
// whole-run jump, a long one and a short one.
struct JumpCase {
  const char* sample;
  double from, to;
};
class TimelineJumpTest : public ::testing::TestWithParam<JumpCase> {};

TEST_P(TimelineJumpTest, JumpReportsWhatSingleStepsReport) {
  const JumpCase c = GetParam();
  auto input = loadDocument(sample(c.sample));
  ASSERT_TRUE(input->module && !input->hasErrors());
  auto run = propagateDocument(*input, {});
  ASSERT_TRUE(run->ok);
  const size_t n = run->trace.steps.size();
  auto at = [n](double share) { return static_cast<size_t>(share * static_cast<double>(n) + 0.5); };
  const size_t from = at(c.from), to = at(c.to);
  // Both timelines have been at the end once (a jump needs the end state).
  auto jumpingDoc = documentAtStep(*input, *run, 0);
  auto walkingDoc = documentAtStep(*input, *run, 0);
  auto jumping = ShardingTimeline::create(*jumpingDoc->module, run->trace);
  auto walking = ShardingTimeline::create(*walkingDoc->module, run->trace);
  ASSERT_TRUE(jumping && walking);
  jumping->seek(n);
  jumping->seek(from);
  for (size_t k = 1; k <= n; ++k) walking->seek(k);
  while (walking->stepsApplied() > from) walking->seek(walking->stepsApplied() - 1);
  ASSERT_EQ(jumping->stepsApplied(), from);
  ASSERT_EQ(walking->stepsApplied(), from);

  const TimelineChanges jumped = jumping->seek(to);
  // The walk's reports, in the jumping timeline's objects (same pre-order).
  std::set<const ir::Value*> walkedValues;
  std::set<const ir::Op*> walkedFunctions;
  std::vector<const ir::Op*> walkOps, jumpOps;
  for (const auto& op : walkingDoc->module->body().ops()) op->walk([&](ir::Op& o) { walkOps.push_back(&o); });
  for (const auto& op : jumpingDoc->module->body().ops()) op->walk([&](ir::Op& o) { jumpOps.push_back(&o); });
  ASSERT_EQ(walkOps.size(), jumpOps.size());
  auto opIndex = [&](const ir::Op* op) {
    return static_cast<size_t>(std::find(walkOps.begin(), walkOps.end(), op) - walkOps.begin());
  };
  // A value named by its op's pre-order index and its place there.
  auto sameValue = [&](const ir::Value* v) -> const ir::Value* {
    if (!v->isBlockArgument()) {
      const ir::Op* owner = v->definingOp;
      const ir::Op* mirror = jumpOps[opIndex(owner)];
      for (unsigned i = 0; i < owner->numResults(); ++i)
        if (owner->result(i) == v) return mirror->result(i);
      return nullptr;
    }
    return v;  // block arguments: compared by count below
  };
  std::set<const ir::Value*> walkedArguments;  // the walking module's
  while (walking->stepsApplied() != to) {
    const size_t next = walking->stepsApplied() + (to > from ? 1 : -1);
    const TimelineChanges one = walking->seek(next);
    for (const ir::Value* v : one.values) {
      if (v->isBlockArgument())
        walkedArguments.insert(v);
      else
        walkedValues.insert(sameValue(v));
    }
    for (const ir::Op* f : one.functions) walkedFunctions.insert(jumpOps[opIndex(f)]);
  }
  EXPECT_EQ(ir::printModule(*jumpingDoc->module), ir::printModule(*walkingDoc->module));
  // Each value once, sorted.
  EXPECT_TRUE(std::is_sorted(jumped.values.begin(), jumped.values.end()));
  EXPECT_EQ(std::adjacent_find(jumped.values.begin(), jumped.values.end()), jumped.values.end());
  std::set<const ir::Value*> jumpedResults;
  size_t jumpedArguments = 0;
  for (const ir::Value* v : jumped.values) {
    if (v->isBlockArgument())
      ++jumpedArguments;
    else
      jumpedResults.insert(v);
  }
  EXPECT_EQ(jumpedResults, walkedValues);
  EXPECT_EQ(std::set<const ir::Op*>(jumped.functions.begin(), jumped.functions.end()), walkedFunctions);
  // Block arguments (two modules, so counted): the same number, each once.
  EXPECT_EQ(jumpedArguments, walkedArguments.size());
  if (from == to) {
    EXPECT_TRUE(jumped.empty());
  }
}

INSTANTIATE_TEST_SUITE_P(
    Jumps, TimelineJumpTest,
    ::testing::Values(JumpCase{"mlp_megatron.mlir", 1, 0}, JumpCase{"mlp_megatron.mlir", 0, 1},
                      JumpCase{"attention_block.mlir", 1, 0}, JumpCase{"attention_block.mlir", 0, 1},
                      JumpCase{"attention_block.mlir", 0.8, 0.2}, JumpCase{"attention_block.mlir", 0.3, 0.4},
                      JumpCase{"while_loop.mlir", 1, 0}, JumpCase{"while_loop.mlir", 0, 1},
                      JumpCase{"sharding_groups.mlir", 0.25, 0.75}, JumpCase{"priorities.mlir", 1, 0.5}));

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
