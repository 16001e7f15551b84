// Pipeline model: schedules with and without pipelining.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sparsecore/errors.h"
#include "sparsecore/pipeline.h"

using namespace shardscope::sc;

TEST(SparseCorePipeline, SerialIsSumOfStages) {
  Schedule s = serialSchedule({1, 2, 2, 1}, 10);
  EXPECT_EQ(s.steps, 10);
  EXPECT_DOUBLE_EQ(s.total, 60);
  ASSERT_EQ(s.stages.size(), 40u);
  EXPECT_EQ(stageLabel(s.stages[0]), "SC/F0");
  EXPECT_EQ(stageLabel(s.stages[3]), "SC/B0");
  EXPECT_DOUBLE_EQ(s.stages[3].end, 6);
}

TEST(SparseCorePipeline, PipelinedTakesNPlusTwoSteps) {
  Schedule p = pipelinedSchedule({1, 2, 2, 1}, 10);
  EXPECT_EQ(p.steps, 12);
  // F0 | -, F1 | step 0 (4), 8 x max(2, 4), B8 | step 9 (4), B9 | -
  EXPECT_DOUBLE_EQ(p.total, 1 + 4 + 8 * 4 + 4 + 1);
  // In step k the SparseCores run B(k-2) then F(k); TensorCores run k-1.
  for (const ScheduledStage& st : p.stages) {
    if (st.unit == Unit::TensorCore)
      EXPECT_EQ(st.batch, st.step - 1);
    else if (st.phase == Phase::Backward)
      EXPECT_EQ(st.batch, st.step - 2);
    else
      EXPECT_EQ(st.batch, st.step);
  }
}

TEST(SparseCorePipeline, BalancedStagesApproachTwoTimes) {
  PipelineComparison c = comparePipelines({1, 1, 1, 1}, 1000);
  EXPECT_NEAR(c.speedup, 2.0, 0.01);
  EXPECT_EQ(c.stalenessSteps, 2);
}

TEST(SparseCorePipeline, OneBatchGainsNothing) {
  PipelineComparison c = comparePipelines({1, 2, 2, 1}, 1);
  EXPECT_DOUBLE_EQ(c.serial.total, 6);
  EXPECT_DOUBLE_EQ(c.pipelined.total, 6);
  EXPECT_EQ(c.pipelined.steps, 3);
}

TEST(SparseCorePipeline, StagesNeverOverlapOnAUnit) {
  Schedule p = pipelinedSchedule({3, 1, 2, 5}, 7);
  for (Unit u : {Unit::SparseCore, Unit::TensorCore}) {
    double end = 0;
    for (const ScheduledStage& st : p.stages) {
      if (st.unit != u) continue;
      EXPECT_GE(st.start, end - 1e-9);
      end = st.end;
    }
  }
}

TEST(SparseCorePipeline, JsonInputAndErrors) {
  auto j =
      nlohmann::json::parse(R"({"pipeline": {"sc_forward": 1, "tc_forward": 2, "tc_backward": 2,
                                    "sc_backward": 1, "steps": 10}})");
  PipelineComparison c = pipelineFromJson(j, "p.json");
  EXPECT_NEAR(c.speedup, 60.0 / 42.0, 1e-12);
  nlohmann::json out = pipelineToJson(c);
  EXPECT_EQ(out["with_pipelining"]["steps"], 12);
  EXPECT_EQ(out["staleness_steps"], 2);
  j["pipeline"].erase("tc_forward");
  try {
    pipelineFromJson(j, "p.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "p.json: pipeline.tc_forward: missing required field");
  }
  EXPECT_THROW(comparePipelines({-1, 1, 1, 1}, 3), InputError);
  EXPECT_THROW(comparePipelines({1, 1, 1, 1}, 0), InputError);
}
