// What blocked each candidate axis of a dimension: one small module per
// reason, the exact reason and its numbers.
#include <gtest/gtest.h>

#include "explain/blocked_axes.h"
#include "explain/trace_index.h"
#include "explain_test_modules.h"
#include "passes/pass.h"

namespace shardscope::explain {
namespace {

using testing::run;

// The value named `name` (`%arg1`, `%0`) of @main in `m`.
const ir::Value* valueNamed(const ir::Module& m, const std::string& name) {
  const ir::Value* found = nullptr;
  for (ir::Op* f : m.functions()) {
    ir::Block& body = f->region(0).front();
    for (unsigned i = 0; i < body.numArguments(); ++i)
      if (body.argument(i)->sourceName == name) found = body.argument(i);
    f->walk([&](ir::Op& op) {
      for (ir::Value* v : op.resultRange())
        if (v->sourceName == name) found = v;
    });
  }
  return found;
}

// The block of `axis` after the whole run of `r`.
AxisBlock blockAfterRun(const testing::Run& r, const std::string& value, int64_t dim,
                        const std::string& axis) {
  TraceIndex index(*r.input, r.trace);
  ShardingState state = traceShardingState(index, r.trace.steps.size());
  const ir::Value* v = valueNamed(*r.input, value);
  EXPECT_NE(v, nullptr) << value;
  DimensionBlocks blocks = explainBlockedAxes(state, TensorRef::of(v), dim);
  for (const AxisBlock& b : blocks.axes)
    if (b.axis.str() == axis) return b;
  ADD_FAILURE() << "no candidate " << axis << " in\n" << blocks.text();
  return {};
}

const char* kAdd = R"mlir(
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)mlir";

TEST(BlockedAxes, ConflictNamesBothShardings) {
  testing::Run r = run(kAdd);
  AxisBlock b = blockAfterRun(r, "%0", 0, "\"x\"");
  EXPECT_EQ(b.reason, BlockReason::Conflict);
  EXPECT_EQ(b.op, "%0 = stablehlo.add");
  EXPECT_EQ(b.line, 5u);
  EXPECT_EQ(b.factor, "i");
  EXPECT_EQ(b.source, "%arg0");
  EXPECT_EQ(b.sourceAxes, "{\"x\"}");
  EXPECT_EQ(b.blocker, "%arg1");
  EXPECT_EQ(b.blockerAxes, "{\"y\"}");
  EXPECT_EQ(b.text,
            "conflict: factor i of %0 = stablehlo.add (line 5) is sharded on {\"x\"} in %arg0 but "
            "on {\"y\"} "
            "in %arg1, so propagation takes neither");
  AxisBlock y = blockAfterRun(r, "%0", 0, "\"y\"");
  EXPECT_EQ(y.reason, BlockReason::Conflict);
  EXPECT_EQ(y.source, "%arg1");
  EXPECT_EQ(y.blocker, "%arg0");
}

TEST(BlockedAxes, NoSourceWhenNoNeighbourHoldsTheAxis) {
  testing::Run r = run(kAdd);
  AxisBlock b = blockAfterRun(r, "%0", 0, "\"z\"");
  EXPECT_EQ(b.reason, BlockReason::NoSource);
  EXPECT_EQ(b.text,
            "no source: no operand or result connected to this dimension by a factor is sharded on "
            "\"z\"");
}

TEST(BlockedAxes, ClosedDimension) {
  testing::Run r = run(R"mlir(
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)mlir");
  AxisBlock b = blockAfterRun(r, "%arg1", 0, "\"x\"");
  EXPECT_EQ(b.reason, BlockReason::Closed);
  EXPECT_EQ(b.blocker, "%arg1");
  EXPECT_EQ(b.text,
            "closed: dimension 0 of %arg1 is {}, closed (written without `?`), so propagation adds "
            "no axis to it");
}

TEST(BlockedAxes, ExplicitlyReplicated) {
  testing::Run r = run(R"mlir(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}], replicated={"x"}>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)mlir");
  AxisBlock b = blockAfterRun(r, "%arg1", 0, "\"x\"");
  EXPECT_EQ(b.reason, BlockReason::Replicated);
  EXPECT_EQ(b.text, "replicated: %arg1 lists \"x\" in replicated={\"x\"}");
}

TEST(BlockedAxes, AxisUsedOnAnotherDimension) {
  testing::Run r = run(R"mlir(
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"x", ?}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)mlir");
  AxisBlock b = blockAfterRun(r, "%arg1", 0, "\"x\"");
  EXPECT_EQ(b.reason, BlockReason::UsedElsewhere);
  EXPECT_EQ(b.otherDim, 1);
  EXPECT_EQ(b.text,
            "used: \"x\" already shards dimension 1 of %arg1 {\"x\", ?}; an axis shards at most "
            "one dimension");
}

TEST(BlockedAxes, DivisibilityOfANonMinorMostFactor) {
  // 3x8 -> 24: dimension 0 of %0 is factors i=3 (major) and j=8. "x" (4)
  // could only join it through i, and 3 is not divisible by 4.
  testing::Run r = run(R"mlir(
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<3x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<24xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<3x8xf32>) -> tensor<24xf32>
  return %0 : tensor<24xf32>
}
)mlir");
  AxisBlock b = blockAfterRun(r, "%0", 0, "\"x\"");
  EXPECT_EQ(b.reason, BlockReason::Divisibility);
  EXPECT_EQ(b.factor, "i");
  EXPECT_EQ(b.factorSize, 3);
  EXPECT_EQ(b.shardedBefore, 1);
  EXPECT_EQ(b.axisSize, 4);
  EXPECT_EQ(
      b.text,
      "divisibility: in %0, factor i of %0 = stablehlo.reshape (line 4) (size 3) is not the "
      "minor-most factor "
      "of dimension 0 (size 24), so its axes must divide it; 3 is not divisible by \"x\" (size 4)");
}

TEST(BlockedAxes, HigherPriorityShardingWon) {
  testing::Run r = run(R"mlir(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}p1, {?}]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}p0, {?}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)mlir",
                       propagation::PropagationLevel::UserPriority);
  AxisBlock b = blockAfterRun(r, "%0", 0, "\"x\"");
  EXPECT_EQ(b.reason, BlockReason::Priority);
  EXPECT_EQ(b.source, "%arg0");
  EXPECT_EQ(b.blocker, "%arg1");
  EXPECT_EQ(b.sourcePriority, 1);
  EXPECT_EQ(b.blockerPriority, 0);
  EXPECT_EQ(b.text,
            "priority: %arg1 holds {\"y\"}p0 on factor i of %0 = stablehlo.add (line 5), a higher "
            "priority than "
            "%arg0's {\"x\"}p1; it was propagated in an earlier pass, and \"x\" conflicts with it");
}

TEST(BlockedAxes, NotYetBeforeTheStepThatBringsIt) {
  testing::Run r = run(testing::kChain);
  TraceIndex index(*r.input, r.trace);
  ShardingState before = traceShardingState(index, 0);
  const ir::Value* v = valueNamed(*r.input, "%0");
  std::optional<AxisBlock> b =
      explainBlockedAxis(before, TensorRef::of(v), 0, AxisRef{"a", std::nullopt});
  ASSERT_TRUE(b);
  EXPECT_EQ(b->reason, BlockReason::NotYet);
  EXPECT_EQ(b->source, "%arg0");
  // After the run %0 holds it: nothing to explain.
  ShardingState after = traceShardingState(index, r.trace.steps.size());
  EXPECT_FALSE(explainBlockedAxis(after, TensorRef::of(v), 0, AxisRef{"a", std::nullopt}));
}

TEST(BlockedAxes, ModuleStateAfterThePipeline) {
  // The all-to-all sample's core: %arg1 cannot take "x" on dimension 0, it
  // already shards dimension 1; the function result (unannotated) can.
  auto m = testing::parse(R"mlir(
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<256x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<256x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<256x128xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<256x128xf32>
  return %0 : tensor<256x128xf32>
}
)mlir");
  ir::DiagnosticSink diags;
  passes::PassContext ctx{diags, ""};
  ASSERT_TRUE(passes::lookupPass("sdy-propagation-pipeline")->run(*m, {}, ctx));
  ShardingState state = moduleShardingState(*m);
  DimensionBlocks blocks = explainBlockedAxes(state, TensorRef::of(valueNamed(*m, "%arg1")), 0);
  ASSERT_EQ(blocks.axes.size(), 1u) << blocks.text();
  EXPECT_EQ(blocks.axes[0].reason, BlockReason::UsedElsewhere);
  EXPECT_EQ(blocks.text(),
            "%arg1 dimension 0 (size 256) {}\n"
            "  \"x\": used: \"x\" already shards dimension 1 of %arg1 {\"x\"}; an axis shards at "
            "most one dimension");
  // %0 (propagated, so open in this view) dimension 1: "x" is offered by
  // %arg1 but already on dimension 0.
  DimensionBlocks result = explainBlockedAxes(state, TensorRef::of(valueNamed(*m, "%0")), 1);
  ASSERT_EQ(result.axes.size(), 1u) << result.text();
  EXPECT_EQ(result.axes[0].reason, BlockReason::UsedElsewhere);
  EXPECT_EQ(result.axes[0].otherDim, 0);
}

}  // namespace
}  // namespace shardscope::explain
