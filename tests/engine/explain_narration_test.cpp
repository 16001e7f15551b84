// Tests for engine/explain/narration.cpp and factor_info.cpp.
#include "explain/narration.h"

#include <gtest/gtest.h>

#include "explain/factor_info.h"
#include "explain/trace_index.h"
#include "explain_test_modules.h"

namespace shardscope::explain {
namespace {

using testing::run;

const propagation::TraceStep* firstStepOf(const propagation::PropagationTrace& t, const std::string& op) {
  for (const auto& s : t.steps)
    if (s.op == op) return &s;
  return nullptr;
}

TEST(FactorInfoTest, DotGeneralRoles) {
  auto rule = parseRuleText("([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}");
  ASSERT_TRUE(rule);
  auto infos = describeFactors(*rule, "stablehlo.dot_general");
  ASSERT_EQ(infos.size(), 3u);
  EXPECT_EQ(infos[0].role, "lhs non-contracting");
  EXPECT_EQ(infos[1].role, "rhs non-contracting");
  EXPECT_EQ(infos[2].role, "contracting");
  EXPECT_EQ(infos[2].kind, "reduction");
  EXPECT_EQ(infos[2].kindsText(), "contracting, reduction");
  EXPECT_EQ(infos[2].tensors, (std::vector<size_t>{0, 1}));
  auto batched = parseRuleText("([i, j, l], [i, l, k])->([i, j, k]) {i=2, j=4, k=8, l=16} reduction={l}");
  ASSERT_TRUE(batched);
  EXPECT_EQ(describeFactors(*batched, "stablehlo.dot_general")[0].role, "batching");
}

TEST(FactorInfoTest, KindsAndBlockedForOtherOps) {
  auto rule = parseRuleText("([i, j])->([i, j]) {i=8, j=4} permutation={j} blocked_propagation={j}");
  ASSERT_TRUE(rule);
  auto infos = describeFactors(*rule, "stablehlo.pad");
  EXPECT_EQ(infos[0].kindsText(), "pass-through");
  EXPECT_EQ(infos[1].kindsText(), "permutation, blocked");
  EXPECT_FALSE(parseRuleText("not a rule"));
}

TEST(FactorInfoTest, TensorLabels) {
  auto rule = parseRuleText("([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}");
  ASSERT_TRUE(rule);
  EXPECT_EQ(tensorIndex(*rule, "operand-1"), 1u);
  EXPECT_EQ(tensorIndex(*rule, "result-0"), 2u);
  EXPECT_FALSE(tensorIndex(*rule, "result-1"));
  EXPECT_FALSE(tensorIndex(*rule, "?"));
  EXPECT_EQ(tensorLabel(*rule, 2), "result-0");
  EXPECT_EQ(dimensionOfFactor(*rule, 1, 1), 1);
  EXPECT_EQ(dimensionOfFactor(*rule, 2, 2), -1);
}

TEST(NarrationTest, DotGeneralMovesAxesAlongNamedFactors) {
  auto r = run(testing::kChain);
  const auto* dot = firstStepOf(r.trace, "stablehlo.dot_general");
  ASSERT_TRUE(dot);
  StepNarration n = narrateStep(*dot);
  EXPECT_EQ(n.headline, "dot_general %1 (line 6)");
  const std::string text = n.text();
  EXPECT_NE(text.find("factor i (lhs non-contracting, pass-through): axis \"a\" from operand-0 (%0) to result-0 (%1)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("factor j (rhs non-contracting, pass-through): axis \"b\" from operand-1 (%arg1) to result-0 (%1)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("%1 is now [{\"a\", ?}, {\"b\", ?}]"), std::string::npos) << text;
}

TEST(NarrationTest, ElementwiseAdd) {
  auto r = run(testing::kChain);
  const auto* add = firstStepOf(r.trace, "stablehlo.add");
  ASSERT_TRUE(add);
  TraceIndex index(*r.input, r.trace);
  const std::string text = narration(*add, &index);
  EXPECT_NE(text.find("add %0 (line 5)"), std::string::npos) << text;
  EXPECT_NE(text.find("factor i (pass-through): axis \"a\" from operand-0 (%arg0) to result-0 (%0)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("%0 is now [{\"a\", ?}, {?}]"), std::string::npos) << text;
}

TEST(NarrationTest, ConflictOnContractingFactor) {
  auto r = run(testing::kConflict);
  const auto* dot = firstStepOf(r.trace, "stablehlo.dot_general");
  ASSERT_TRUE(dot);
  StepNarration n = narrateStep(*dot);
  bool found = false;
  for (const auto& f : n.factors)
    if (f.name == "k") {
      found = true;
      EXPECT_TRUE(f.conflict);
      EXPECT_FALSE(f.moved);
      EXPECT_EQ(f.sentence,
                "factor k (contracting, reduction): axis \"a\" (on operand-0 (%arg0)) and axis \"b\" (on operand-1 "
                "(%arg1)) not propagated: tensors hold incompatible axes for this factor");
    }
  EXPECT_TRUE(found) << n.text();
}

TEST(NarrationTest, FunctionResultSync) {
  auto r = run(testing::kChain);
  const auto* sync = firstStepOf(r.trace, "func.return");
  ASSERT_TRUE(sync);
  const std::string text = narration(*sync);
  EXPECT_NE(text.find("function result 0 synced with %1"), std::string::npos) << text;
}

// The closing step of user-priority propagation (priorities dropped) is
// told as such, not as an op's fixed-point step.
TEST(NarrationTest, NormalizationStepSaysWhatItIs) {
  auto r = run(R"mlir(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}p1]>},
                %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}p0]>}) -> tensor<8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)mlir",
               propagation::PropagationLevel::UserPriority);
  ASSERT_FALSE(r.trace.steps.empty());
  const auto& last = r.trace.steps.back();
  ASSERT_EQ(last.op, propagation::kNormalizationStepOp);
  const StepNarration n = narrateStep(last);
  EXPECT_EQ(n.headline, "end of propagation: final shardings");
  EXPECT_EQ(n.context.find("fixed point"), std::string::npos) << n.context;
  EXPECT_TRUE(n.factors.empty());
  EXPECT_NE(n.text().find("drops the p<N> priorities"), std::string::npos) << n.text();
  EXPECT_FALSE(n.updates.empty());
  // An op's step still says "no factor moved" when nothing moved.
  EXPECT_EQ(StepNarration{}.noFactorNote, "no factor moved an axis");
}

TEST(NarrationTest, ShardingDimsText) {
  TensorSharding s;
  s.dims = {DimensionSharding{{AxisRef{"a", {}}}, false, {}}, DimensionSharding{{}, true, 1}};
  s.replicated = {AxisRef{"b", {}}};
  EXPECT_EQ(shardingDimsText(s), "[{\"a\", ?}, {}p1] replicated={\"b\"}");
}

}  // namespace
}  // namespace shardscope::explain
