// Tests for engine/propagation/op_priority_propagation.cpp and
// user_priority_propagation.cpp.
#include <gtest/gtest.h>

#include "parse_test_module.h"

#include "ir/parser.h"
#include "ir/printer.h"
#include "propagation/op_priority_propagation.h"
#include "propagation/propagation.h"

namespace shardscope::propagation {
namespace {

std::unique_ptr<ir::Module> parse(const std::string& text) { return test_support::parseTestModule(text); }

// The first op named `name` in the module.
ir::Op* find(ir::Module& m, const std::string& name) {
  ir::Op* found = nullptr;
  m.op->walk([&](ir::Op& op) {
    if (!found && op.name() == name) found = &op;
  });
  return found;
}

const char* kOps = R"mlir(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<8xf32>) -> tensor<8x8xf32>
  %3 = stablehlo.dot_general %1, %2, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1, %2, %3 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
)mlir";

TEST(OpPriorityTest, StageDirections) {
  auto m = parse(kOps);
  ASSERT_TRUE(m);
  ir::Op* add = find(*m, "stablehlo.add");
  ir::Op* transpose = find(*m, "stablehlo.transpose");
  ir::Op* broadcast = find(*m, "stablehlo.broadcast_in_dim");
  ir::Op* dot = find(*m, "stablehlo.dot_general");
  ASSERT_TRUE(add && transpose && broadcast && dot);
  using D = PropagationDirection;
  // Stage 0: %arg0 has two uses (both operands of the add): not single-use.
  EXPECT_EQ(opPriorityStageDirection(0, *add, 0, nullptr), D::None);
  EXPECT_EQ(opPriorityStageDirection(1, *add, 0, nullptr), D::Both);
  // %0 has one use: the transpose is a single-use pass-through op.
  EXPECT_EQ(opPriorityStageDirection(0, *transpose, 0, nullptr), D::Both);
  EXPECT_EQ(opPriorityStageDirection(1, *dot, 0, nullptr), D::None);
  EXPECT_EQ(opPriorityStageDirection(2, *broadcast, 0, nullptr), D::Backward);
  EXPECT_EQ(opPriorityStageDirection(3, *broadcast, 0, nullptr), D::Backward);
  EXPECT_EQ(opPriorityStageDirection(4, *broadcast, 0, nullptr), D::Both);
  // Stage 2 closes non-pass-through factors.
  OpShardingRule rule;
  rule.factorSizes = {8, 8, 8};
  rule.reductionFactors = {2};
  EXPECT_EQ(opPriorityStageDirection(2, *dot, 2, &rule), D::None);
  EXPECT_EQ(opPriorityStageDirection(2, *dot, 0, &rule), D::Both);
  // The union over stages, intersected with the outer direction.
  GetDirectionFn forwardOnly = [](const ir::Op&, int64_t, const OpShardingRule*) { return D::Forward; };
  EXPECT_EQ(opPriorityDirection(1, forwardOnly)(*add, 0, nullptr), D::Forward);
  EXPECT_EQ(opPriorityDirection(0, propagateAny)(*dot, 0, nullptr), D::None);
  EXPECT_EQ(opPriorityDirection(3, propagateAny)(*broadcast, 0, nullptr), D::Backward);
}

// opPriorityDirection(stage, outer) answers, for every op, stage and factor,
// the union of opPriorityStageDirection over stages 0..stage intersected with
// `outer` (it precomputes the factor-independent stages per op).
TEST(OpPriorityTest, DirectionIsTheUnionOfTheStages) {
  auto m = parse(R"mlir(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<64xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<2x8xf32>) {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<8xf32>) -> tensor<8x8xf32>
  %3 = stablehlo.dot_general %1, %2, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %4 = stablehlo.reshape %arg2 : (tensor<64xf32>) -> tensor<8x8xf32>
  %5 = stablehlo.multiply %4, %4 : tensor<8x8xf32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %6 = stablehlo.dynamic_slice %5, %c, %c, sizes = [2, 8] : (tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x8xf32>
  return %1, %2, %3, %5, %6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<2x8xf32>
}
)mlir");
  ASSERT_TRUE(m);
  std::vector<ir::Op*> ops;
  for (const char* name : {"stablehlo.add", "stablehlo.transpose", "stablehlo.broadcast_in_dim",
                           "stablehlo.dot_general", "stablehlo.reshape", "stablehlo.multiply",
                           "stablehlo.dynamic_slice", "stablehlo.constant"}) {
    ops.push_back(find(*m, name));
    ASSERT_TRUE(ops.back()) << name;
  }
  OpShardingRule rule;
  rule.factorSizes = {8, 8, 8, 8};
  rule.reductionFactors = {2};
  rule.needReplicationFactors = {3};
  using D = PropagationDirection;
  const std::vector<std::pair<const char*, GetDirectionFn>> outers = {
      {"any", propagateAny},
      {"forward", [](const ir::Op&, int64_t, const OpShardingRule*) { return D::Forward; }},
      {"backward on factor 1", [](const ir::Op&, int64_t f, const OpShardingRule*) {
         return f == 1 ? D::Backward : D::Both;
       }},
  };
  for (const auto& [outerName, outer] : outers) {
    for (int stage = 0; stage < kNumOpPriorityStages; ++stage) {
      // One function per stage, asked about the ops in turn and about an op
      // again after another, as the driver does.
      GetDirectionFn direction = opPriorityDirection(stage, outer);
      for (int round = 0; round < 2; ++round) {
        for (ir::Op* op : ops) {
          for (const OpShardingRule* r : std::vector<const OpShardingRule*>{nullptr, &rule}) {
            for (int64_t f = 0; f < 4; ++f) {
              D expected = D::None;
              for (int s = 0; s <= stage; ++s) expected = unionOf(expected, opPriorityStageDirection(s, *op, f, r));
              expected = intersectionOf(expected, outer(*op, f, r));
              EXPECT_EQ(direction(*op, f, r), expected)
                  << outerName << ", stage " << stage << ", " << op->name() << ", factor " << f
                  << (r ? ", with rule" : "");
            }
          }
        }
      }
    }
  }
}

TEST(OpPriorityTest, SingleUsePassThroughChainMovesAtStageZero) {
  // transpose and abs are pass-through ops whose operands have one use each,
  // so the argument's sharding flows through them in the first stage.
  auto m = parse(R"mlir(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.abs %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
)mlir");
  ASSERT_TRUE(m);
  ir::DiagnosticSink diags;
  PropagationTrace trace;
  ASSERT_TRUE(opPriorityPropagate(*m, PropagationOptions{}, diags, &trace));
  ASSERT_FALSE(trace.steps.empty());
  // Everything here is single-use pass-through: all steps happen at stage 0.
  for (const TraceStep& s : trace.steps)
    if (s.op != "func.return") EXPECT_EQ(s.opPriority, 0) << s.op;
  EXPECT_NE(ir::printModule(*m).find(R"(stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>})"),
            std::string::npos)
      << ir::printModule(*m);
}

TEST(UserPriorityTest, HigherPriorityNumbersComeLater) {
  // dim 0: "a" with p2 on %arg0, "b" with p1 on %arg1: p1 goes first.
  auto m = parse(R"mlir(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}p2]>},
                %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}p1]>}) -> tensor<8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)mlir");
  ASSERT_TRUE(m);
  ir::DiagnosticSink diags;
  ASSERT_TRUE(userPriorityPropagate(*m, PropagationOptions{}, diags));
  std::string out = ir::printModule(*m);
  EXPECT_NE(out.find(R"(stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}]>]>})"),
            std::string::npos)
      << out;
  // The user's shardings come back without priorities.
  EXPECT_NE(out.find(R"(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>})"), std::string::npos) << out;
}

TEST(UserPriorityTest, MultiResultOpWithPrioritisedShardingsKeepsThem) {
  // Visiting the places of a multi-result op rewrites the op's own
  // sdy.sharding attribute while walking it: this used to read the freed
  // attribute (AddressSanitizer: heap-use-after-free).
  auto m = parse(R"mlir(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0:2 = stablehlo.optimization_barrier %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}p1, {}]>, <@mesh, [{"b"}p1, {}]>]>} : tensor<4x8xf32>, tensor<4x8xf32>
  return %0#0, %0#1 : tensor<4x8xf32>, tensor<4x8xf32>
}
)mlir");
  ASSERT_TRUE(m);
  ir::DiagnosticSink diags;
  ASSERT_TRUE(userPriorityPropagate(*m, PropagationOptions{}, diags)) << diags.formatAll("<test>");
  std::string out = ir::printModule(*m);
  EXPECT_NE(out.find(R"(stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, [{"b"}, {}]>]>} %arg0, %arg1)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find(R"(-> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>}))"),
            std::string::npos)
      << out;
}

}  // namespace
}  // namespace shardscope::propagation
