// Tests for the propagation driver, the passes' entry points and the trace
// (engine/propagation/propagation.cpp, propagation_driver.cpp,
// propagation_trace.cpp).
#include <gtest/gtest.h>

#include "parse_test_module.h"

#include "ir/parser.h"
#include "ir/printer.h"
#include "propagation/propagation.h"
#include "propagation/propagation_trace.h"

namespace shardscope::propagation {
namespace {

std::unique_ptr<ir::Module> parse(const std::string& text) { return test_support::parseTestModule(text); }

const char* kChain = R"mlir(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>},
                %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
)mlir";

TEST(PropagationDriverTest, BasicPropagatesThroughChainAndFuncResult) {
  auto m = parse(kChain);
  ASSERT_TRUE(m);
  ir::DiagnosticSink diags;
  PropagationOptions o;
  ASSERT_TRUE(basicPropagate(*m, o, diags));
  std::string out = ir::printModule(*m);
  EXPECT_NE(out.find(R"(stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>})"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find(R"(-> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}))"),
            std::string::npos)
      << out;
  // Registry rules are removed again.
  EXPECT_EQ(out.find("sdy.sharding_rule"), std::string::npos) << out;
}

TEST(PropagationDriverTest, KeepShardingRules) {
  auto m = parse(kChain);
  ASSERT_TRUE(m);
  ir::DiagnosticSink diags;
  PropagationOptions o;
  o.keepShardingRules = true;
  ASSERT_TRUE(basicPropagate(*m, o, diags));
  EXPECT_NE(ir::printModule(*m).find("sdy.sharding_rule"), std::string::npos);
}

TEST(PropagationDriverTest, TraceRecordsStepsAndReplays) {
  auto m = parse(kChain);
  ASSERT_TRUE(m);
  auto fresh = parse(kChain);
  ASSERT_TRUE(fresh);
  ir::DiagnosticSink diags;
  PropagationOptions o;
  o.level = PropagationLevel::OpPriority;
  PropagationTrace trace;
  ASSERT_TRUE(propagate(*m, o, diags, &trace));
  ASSERT_FALSE(trace.steps.empty());
  const TraceStep& first = trace.steps.front();
  EXPECT_EQ(first.step, 0);
  EXPECT_EQ(first.strategy, "aggressive");
  EXPECT_GE(first.opPriority, 0);
  EXPECT_FALSE(first.moves.empty());
  EXPECT_FALSE(first.updates.empty());
  EXPECT_NE(first.before, first.after);

  // JSON round trip.
  std::string json = traceToJson(trace);
  std::string error;
  std::optional<PropagationTrace> back = traceFromJson(json, &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(*back, trace);

  // Replaying the updates on the original module gives the propagated one.
  ASSERT_TRUE(replayTrace(*fresh, *back, &error)) << error;
  EXPECT_EQ(ir::printModule(*fresh), ir::printModule(*m));
}

TEST(PropagationDriverTest, MovesNameSourceAndTarget) {
  auto m = parse(kChain);
  ASSERT_TRUE(m);
  ir::DiagnosticSink diags;
  PropagationTrace trace;
  ASSERT_TRUE(basicPropagate(*m, PropagationOptions{}, diags, &trace));
  bool found = false;
  for (const TraceStep& s : trace.steps)
    if (s.op == "stablehlo.add")
      for (const TraceAxisMove& mv : s.moves)
        if (mv.axis.name == "a" && mv.from == "operand-0" && mv.to == "result-0") found = true;
  EXPECT_TRUE(found) << traceToJson(trace);
}

TEST(PropagationDriverTest, ConflictsAreReported) {
  // Dimension 0 disagrees ("a" vs "b"); dimension 1 propagates "c".
  auto m = parse(R"mlir(
sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"c"}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)mlir");
  ASSERT_TRUE(m);
  ir::DiagnosticSink diags;
  PropagationTrace trace;
  ASSERT_TRUE(basicPropagate(*m, PropagationOptions{}, diags, &trace));
  ASSERT_FALSE(trace.steps.empty());
  const TraceStep& s = trace.steps.front();
  EXPECT_EQ(s.op, "stablehlo.add");
  ASSERT_EQ(s.conflicts.size(), 1u) << traceToJson(trace);
  EXPECT_EQ(s.conflicts[0].factor, 0);
  EXPECT_EQ(s.conflicts[0].reason, "tensors hold incompatible axes for this factor");
  EXPECT_EQ(s.directions, (std::vector<std::string>{"BOTH", "BOTH"}));
}

TEST(PropagationDriverTest, RejectsDynamicShapes) {
  auto m = parse(R"mlir(
func.func @main(%arg0: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}
)mlir");
  ASSERT_TRUE(m);
  ir::DiagnosticSink diags;
  EXPECT_FALSE(basicPropagate(*m, PropagationOptions{}, diags));
  ASSERT_TRUE(diags.hasErrors());
  EXPECT_NE(diags.all().front().message.find("only supports ranked tensors with a static shape"), std::string::npos);
}

TEST(PropagationDriverTest, IterationGuardStopsWithDiagnostic) {
  auto m = parse(kChain);
  ASSERT_TRUE(m);
  ir::DiagnosticSink diags;
  PropagationOptions o;
  o.maxStepsPerRun = 2;
  PropagationTrace trace;
  ASSERT_TRUE(basicPropagate(*m, o, diags, &trace));
  bool warned = false;
  for (const ir::Diagnostic& d : diags.all())
    if (d.severity == ir::Severity::Warning && d.message.find("did not converge") != std::string::npos) warned = true;
  EXPECT_TRUE(warned);
  EXPECT_FALSE(trace.notes.empty());
}

TEST(PropagationDriverTest, UserPriorityDelaysLowerPriorityAxes) {
  // p0 on %arg0 wins over p1 on %arg1 for the shared dimension.
  auto m = parse(R"mlir(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}p0]>},
                %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}p1]>}) -> tensor<8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)mlir");
  ASSERT_TRUE(m);
  ir::DiagnosticSink diags;
  PropagationTrace trace;
  ASSERT_TRUE(userPriorityPropagate(*m, PropagationOptions{}, diags, &trace));
  std::string out = ir::printModule(*m);
  EXPECT_NE(out.find(R"(stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>})"),
            std::string::npos)
      << out;
  ASSERT_FALSE(trace.steps.empty());
  EXPECT_EQ(trace.steps.front().userPriority, 0);
}

}  // namespace
}  // namespace shardscope::propagation

namespace shardscope::propagation {
namespace {

// Ops that end up with equal shardings share one attribute object (fewer
// objects for the later passes and the writer to visit); different shardings
// stay apart, and the printed module is what it would be without sharing.
TEST(PropagationDriverTest, EqualWrittenShardingsShareOneAttribute) {
  auto m = parse(R"mlir(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b"}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  %1 = stablehlo.abs %arg0 : tensor<8x8xf32>
  %2 = stablehlo.negate %arg1 : tensor<8x8xf32>
  return %0, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}
)mlir");
  ASSERT_TRUE(m);
  ir::DiagnosticSink diags;
  ASSERT_TRUE(basicPropagate(*m, PropagationOptions{}, diags));
  std::vector<const ir::Op*> ops;
  for (auto& op : m->functions().front()->region(0).front().ops()) ops.push_back(op.get());
  ASSERT_GE(ops.size(), 3u);
  const ir::Attribute* s0 = ops[0]->attr("sdy.sharding");
  const ir::Attribute* s1 = ops[1]->attr("sdy.sharding");
  const ir::Attribute* s2 = ops[2]->attr("sdy.sharding");
  ASSERT_TRUE(s0 && s1 && s2);
  EXPECT_EQ(s0->str(), R"(#sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>)");
  EXPECT_EQ(&s0->value(), &s1->value());  // equal: one object
  EXPECT_NE(&s0->value(), &s2->value());  // different
  EXPECT_EQ(s2->str(), R"(#sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>)");
}

}  // namespace
}  // namespace shardscope::propagation

namespace shardscope::propagation {
namespace {

// Calls kept as calls (no flattening): @bar returns its argument and is
// called by @main on @foo's result and by @foo, so following users across
// calls and returns comes back to where it started.
TEST(PropagationDriverTest, CallCyclesThroughReturnsTerminate) {
  auto m = parse(R"mlir(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x2xi32>
  %1 = call @foo(%0) : (tensor<8x2xi32>) -> tensor<8x2xi32>
  %2 = call @bar(%1) : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %2 : tensor<8x2xi32>
}
func.func private @foo(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  %0 = stablehlo.abs %arg0 : tensor<8x2xi32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"b"}, {}]> : tensor<8x2xi32>
  %2 = stablehlo.abs %1 : tensor<8x2xi32>
  %3 = call @bar(%2) : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %3 : tensor<8x2xi32>
}
func.func private @bar(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  return %arg0 : tensor<8x2xi32>
}
)mlir");
  ASSERT_TRUE(m);
  ir::DiagnosticSink diags;
  PropagationOptions o;
  ASSERT_TRUE(basicPropagate(*m, o, diags)) << diags.formatAll("<test>");
  std::string out = ir::printModule(*m);
  EXPECT_NE(
      out.find(
          R"(stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {?}]>]>})"),
      std::string::npos)
      << out;
}

}  // namespace
}  // namespace shardscope::propagation
