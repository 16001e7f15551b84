// api::blockedAxes on a propagation run of a sample, as the Why panel asks.
#include <gtest/gtest.h>

#include "api/blocked_axes.h"
#include "api/propagate.h"

using namespace shardscope;

namespace {

std::optional<propagation::TraceValueRef> refNamed(const explain::TraceIndex& index,
                                                   const std::string& name) {
  for (const propagation::TraceValueRef& r : index.shardedValues())
    if (index.valueName(r) == name) return r;
  return std::nullopt;
}

}  // namespace

TEST(ApiBlockedAxes, AllToAllSampleAfterThePipeline) {
  auto doc = api::loadDocument(SHARDSCOPE_SOURCE_DIR "/sample_models/alltoall_conflict.mlir");
  ASSERT_TRUE(doc && !doc->hasErrors());
  propagation::PropagationOptions options;
  options.level = propagation::PropagationLevel::Pipeline;
  auto run = api::propagateDocument(*doc, options);
  ASSERT_TRUE(run && run->ok);
  explain::TraceIndex index(*run->start->module, run->trace);
  const size_t steps = run->trace.steps.size();

  // %0 = add: dimension 1 cannot take "x", dimension 0 holds it.
  auto v = refNamed(index, "%0");
  ASSERT_TRUE(v);
  api::BlockedAxesReport r = api::blockedAxes(index, *v, 1, steps);
  EXPECT_EQ(r.value, "%0");
  EXPECT_EQ(r.size, 128);
  ASSERT_EQ(r.axes.size(), 1u);
  EXPECT_EQ(r.axes[0].axis, "\"x\"");
  EXPECT_EQ(r.axes[0].reason, "used");
  EXPECT_EQ(r.axes[0].otherDim, 0);
  EXPECT_EQ(r.axes[0].text.rfind("used: \"x\" already shards dimension 0 of %0", 0), 0u)
      << r.axes[0].text;

  // %arg1 dimension 0: "x" is on its dimension 1.
  auto arg1 = refNamed(index, "%arg1");
  ASSERT_TRUE(arg1);
  r = api::blockedAxes(index, *arg1, 0, steps);
  ASSERT_EQ(r.axes.size(), 1u);
  EXPECT_EQ(r.axes[0].reason, "used");
  EXPECT_EQ(r.axes[0].otherDim, 1);

  // The function result (unannotated, propagated) follows %0.
  auto result = refNamed(index, "@main result 0");
  ASSERT_TRUE(result);
  r = api::blockedAxes(index, *result, 1, steps);
  ASSERT_EQ(r.axes.size(), 1u);
  EXPECT_EQ(r.axes[0].reason, "used");
}
