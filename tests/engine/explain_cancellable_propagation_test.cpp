// Tests for engine/explain/cancellable_propagation.h (propagation::propagate
// with a PropagationControl).
#include "explain/cancellable_propagation.h"

#include <gtest/gtest.h>

#include "explain_test_modules.h"
#include "ir/printer.h"

namespace shardscope::explain {
namespace {

class CancellablePropagationTest : public ::testing::TestWithParam<propagation::PropagationLevel> {};

TEST_P(CancellablePropagationTest, SameAsPropagateWithoutCancel) {
  auto reference = testing::run(testing::kChain, GetParam());
  auto m = testing::parse(testing::kChain);
  ASSERT_TRUE(m);
  ir::DiagnosticSink diags;
  propagation::PropagationOptions o;
  o.level = GetParam();
  propagation::PropagationTrace trace;
  int64_t reported = 0;
  RunControl control;
  control.onStep = [&](int64_t steps) { reported = steps; };
  EXPECT_EQ(propagateCancellable(*m, o, diags, &trace, control), RunStatus::Ok);
  EXPECT_EQ(trace, reference.trace);
  EXPECT_EQ(reported, static_cast<int64_t>(trace.steps.size()));
  EXPECT_EQ(ir::printModule(*m), ir::printModule(*reference.output));
}

TEST_P(CancellablePropagationTest, CancelledBeforeTheStart) {
  auto m = testing::parse(testing::kChain);
  ASSERT_TRUE(m);
  ir::DiagnosticSink diags;
  propagation::PropagationOptions o;
  o.level = GetParam();
  propagation::PropagationTrace trace;
  std::atomic<bool> cancel{true};
  RunControl control;
  control.cancel = &cancel;
  EXPECT_EQ(propagateCancellable(*m, o, diags, &trace, control), RunStatus::Cancelled);
  // Only function-result syncs (not subject to directions) and the closing
  // normalisation (priorities dropped) may still happen.
  for (const auto& s : trace.steps)
    EXPECT_TRUE(s.op == "func.return" || s.op == "sdy.sharding_normalization") << s.op;
  EXPECT_EQ(trace.notes.back(), "cancelled");
}

TEST_P(CancellablePropagationTest, CancelledMidway) {
  auto m = testing::parse(testing::kChain);
  ASSERT_TRUE(m);
  auto full = testing::run(testing::kChain, GetParam());
  ir::DiagnosticSink diags;
  propagation::PropagationOptions o;
  o.level = GetParam();
  propagation::PropagationTrace trace;
  std::atomic<bool> cancel{false};
  RunControl control;
  control.cancel = &cancel;
  control.onStep = [&](int64_t) { cancel = true; };  // stop after the first step
  EXPECT_EQ(propagateCancellable(*m, o, diags, &trace, control), RunStatus::Cancelled);
  EXPECT_LT(trace.steps.size(), full.trace.steps.size());
  EXPECT_GE(trace.steps.size(), 1u);
  // Replaying the partial trace on the input gives the partial output.
  auto replayed = testing::parse(testing::kChain);
  ASSERT_TRUE(replayed);
  std::string error;
  ASSERT_TRUE(propagation::replayTrace(*replayed, trace, &error)) << error;
  EXPECT_EQ(ir::printModule(*replayed), ir::printModule(*m));
}

TEST(CancellablePropagation, InvalidModule) {
  auto m = testing::parse(R"mlir(
func.func @main(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.negate %arg0 : tensor<?xf32>
  return %0 : tensor<?xf32>
}
)mlir");
  ASSERT_TRUE(m);
  ir::DiagnosticSink diags;
  EXPECT_EQ(propagateCancellable(*m, {}, diags, nullptr), RunStatus::Invalid);
  EXPECT_TRUE(diags.hasErrors());
}

INSTANTIATE_TEST_SUITE_P(Levels, CancellablePropagationTest,
                         ::testing::Values(propagation::PropagationLevel::Basic,
                                           propagation::PropagationLevel::Aggressive,
                                           propagation::PropagationLevel::OpPriority,
                                           propagation::PropagationLevel::UserPriority));

}  // namespace
}  // namespace shardscope::explain
