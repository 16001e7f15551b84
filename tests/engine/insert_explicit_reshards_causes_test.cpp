// `-sdy-insert-explicit-reshards` end to end on small modules: what is
// inserted with and without the full version, and the cause recorded for
// each inserted op.
#include <gtest/gtest.h>

#include <memory>

#include "ir/parser.h"
#include "ir/printer.h"
#include "passes/explicit_reshards/explicit_reshards_pass.h"

using namespace shardscope;

namespace {

struct PassRun {
  // The module the causes' op pointers point into: it lives as long as they.
  std::unique_ptr<ir::Module> module;
  std::string text;
  passes::ReshardCauses causes;
  bool ok = false;
  std::string diagnostics;
};

PassRun run(const std::string& source, bool full) {
  PassRun r;
  ir::DiagnosticSink diags;
  auto m = ir::parseModule(source, {}, diags);
  EXPECT_NE(m, nullptr) << diags.formatAll("t");
  if (!m) return r;
  r.ok = passes::insertExplicitReshards(*m, diags, passes::InsertExplicitReshardsOptions{full}, &r.causes);
  r.diagnostics = diags.formatAll("t");
  r.text = ir::printModule(*m);
  r.module = std::move(m);
  return r;
}

const char* kDot =
    "sdy.mesh @mesh = <[\"x\"=4, \"y\"=2]>\n"
    "func.func @f(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {\"y\"}]>},\n"
    "             %arg1: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"y\"}, {\"x\"}]>})\n"
    "    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {}]>}) {\n"
    "  %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"x\"}, {}]>]>} :"
    " (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>\n"
    "  return %0 : tensor<8x16xf32>\n}\n";

TEST(ExplicitReshardsCauses, DotConflictReshardsAndReduces) {
  PassRun r = run(kDot, true);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  // j takes "x" (rhs is the larger tensor), so lhs loses "x" on i, and the
  // result is computed [{}, {"x"}], all-reduced over "y", resharded back.
  EXPECT_NE(r.text.find("%0 = sdy.reshard %arg0 <@mesh, [{}, {\"y\"}]>"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("stablehlo.dot %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {\"x\"}]>]>}"),
            std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("%2 = sdy.all_reduce {\"y\"} %1 out_sharding=<@mesh, [{}, {\"x\"}]>"), std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("%3 = sdy.reshard %2 <@mesh, [{\"x\"}, {}]>"), std::string::npos) << r.text;

  ASSERT_EQ(r.causes.size(), 3u);
  const passes::ReshardCause& lhs = r.causes[0];
  EXPECT_EQ(lhs.kind, passes::ReshardCause::Kind::Reshard);
  EXPECT_EQ(lhs.site, passes::ReshardCause::Site::Operand);
  EXPECT_EQ(lhs.index, 0u);
  EXPECT_EQ(lhs.factorName, "i");
  EXPECT_EQ(lhs.factorAxesBefore, (AxisRefList{AxisRef{"x", std::nullopt}}));
  EXPECT_EQ(lhs.factorAxesAfter, AxisRefList{});
  ASSERT_NE(lhs.op, nullptr);
  EXPECT_EQ(lhs.op->name(), "stablehlo.dot");
  EXPECT_EQ(lhs.reason,
            "operand 0 of stablehlo.dot has factor i sharded on {\"x\"}, but the op is computed with i on {}: "
            "\"x\" shards factor j instead (as in operand 1)");

  const passes::ReshardCause& result = r.causes[1];
  EXPECT_EQ(result.site, passes::ReshardCause::Site::Result);
  EXPECT_EQ(result.factorName, "i");
  EXPECT_EQ(result.to->strBody(), "<@mesh, [{\"x\"}, {}]>");

  const passes::ReshardCause& reduce = r.causes[2];
  EXPECT_EQ(reduce.kind, passes::ReshardCause::Kind::AllReduce);
  EXPECT_EQ(reduce.factorName, "k");
  EXPECT_EQ(reduce.axes, (AxisRefList{AxisRef{"y", std::nullopt}}));
  EXPECT_EQ(reduce.inserted->name(), "sdy.all_reduce");
}

TEST(ExplicitReshardsCauses, WithoutTheFullVersionOnlyTheDotRewriteApplies) {
  PassRun r = run(kDot, false);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_EQ(r.text.find("sdy.reshard"), std::string::npos) << r.text;
  EXPECT_TRUE(r.causes.empty());
}

TEST(ExplicitReshardsCauses, FunctionResultIsResharded) {
  PassRun r = run("sdy.mesh @mesh = <[\"x\"=2]>\n"
              "func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>})\n"
              "    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {\n"
              "  return %arg0 : tensor<8xf32>\n}\n",
              true);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.text.find("%0 = sdy.reshard %arg0 <@mesh, [{}]>"), std::string::npos) << r.text;
  ASSERT_EQ(r.causes.size(), 1u);
  EXPECT_EQ(r.causes[0].op->name(), "func.return");
  EXPECT_EQ(r.causes[0].factor, -1);
}

TEST(ExplicitReshardsCauses, SingleDeviceArgumentIsAnError) {
  PassRun r = run("sdy.mesh @dev = <[], device_ids=[0]>\n"
              "func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@dev, []>}) -> tensor<8xf32> {\n"
              "  return %arg0 : tensor<8xf32>\n}\n",
              true);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diagnostics.find("function argument 0 cannot have a single-device (maximal) sharding attribute"),
            std::string::npos)
      << r.diagnostics;
}

}  // namespace

namespace {

TEST(ExplicitReshardsCauses, CholeskyIsReshardedToItsBatchShardingAndPrintedWithOneType) {
  PassRun r = run("sdy.mesh @mesh = <[\"x\"=2]>\n"
                  "func.func @f(%arg0: tensor<4x8x8xf32>) -> (tensor<4x8x8xf32> {sdy.sharding = "
                  "#sdy.sharding<@mesh, [{\"x\"}, {}, {}]>}) {\n"
                  "  %0 = stablehlo.cholesky %arg0, lower = true {sdy.sharding = #sdy.sharding_per_value<[<@mesh, "
                  "[{\"x\"}, {}, {}]>]>} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>\n"
                  "  return %0 : tensor<4x8x8xf32>\n}\n",
                  true);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.text.find("%0 = sdy.reshard %arg0 <@mesh, [{\"x\"}, {}, {}]>"), std::string::npos) << r.text;
  // Operand and result types agree: `: T`, as sdy_opt prints it.
  EXPECT_NE(r.text.find("lower = true {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"x\"}, {}, {}]>]>} : "
                        "tensor<4x8x8xf32>\n"),
            std::string::npos)
      << r.text;
}

}  // namespace

namespace {

TEST(ExplicitReshardsCauses, SingleDeviceOpGetsItsOperandsThroughTheGlobalMesh) {
  // The per-value sharding spells its element in full, as MLIR allows.
  PassRun r = run("sdy.mesh @mesh = <[\"x\"=2]>\n"
                  "sdy.mesh @dev0 = <[], device_ids=[0]>\n"
                  "func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>}) -> "
                  "(tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>}) {\n"
                  "  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[#sdy.sharding<@dev0, "
                  "[]>]>} : tensor<8xf32>\n"
                  "  return %0 : tensor<8xf32>\n}\n",
                  true);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.text.find("%0 = sdy.reshard %arg0 <@mesh, [{}]>"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("%1 = sdy.reshard %0 <@dev0, []>"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("%2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@dev0, []>]>}"),
            std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("%3 = sdy.reshard %2 <@mesh, [{}]>"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("%4 = sdy.reshard %3 <@mesh, [{\"x\"}]>"), std::string::npos) << r.text;
  EXPECT_EQ(r.causes.size(), 4u);
}

TEST(ExplicitReshardsCauses, ResultsOnTwoSingleDevicesAreAnError) {
  PassRun r = run("sdy.mesh @mesh = <[\"x\"=2]>\n"
                  "sdy.mesh @dev0 = <[], device_ids=[0]>\n"
                  "sdy.mesh @dev1 = <[], device_ids=[1]>\n"
                  "func.func @f(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {\n"
                  "  %0:2 = stablehlo.custom_call @C(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@dev0, []>, "
                  "<@dev1, []>]>} : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)\n"
                  "  return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>\n}\n",
                  true);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diagnostics.find("has conflicting single-device result shardings"), std::string::npos)
      << r.diagnostics;
}

}  // namespace

namespace {

TEST(ExplicitReshardsCauses, AReshardAddingUnreducedAxesBecomesUnreducedCollectives) {
  // The example of unreduced_collectives.h.
  PassRun r = run("sdy.mesh @mesh = <[\"x\"=2, \"y\"=2, \"z\"=2]>\n"
                  "func.func @f(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"y\"}, {\"z\"}]>})\n"
                  "    -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={\"x\", \"y\"}>}) {\n"
                  "  %0 = sdy.reshard %arg0 <@mesh, [{}, {}], unreduced={\"x\", \"y\"}> : tensor<16x8xf32>\n"
                  "  return %0 : tensor<16x8xf32>\n}\n",
                  true);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.text.find("%0 = sdy.reshard %arg0 <@mesh, [{\"y\"}, {}]>"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("%1 = sdy.replicated_to_unreduced {\"x\"} %0 out_sharding=<@mesh, [{\"y\"}, {}], "
                        "unreduced={\"x\"}>"),
            std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("%2 = sdy.sharded_to_unreduced [{\"y\"}, {}] %1 out_sharding=<@mesh, [{}, {}], "
                        "unreduced={\"x\", \"y\"}>"),
            std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("return %2"), std::string::npos) << r.text;
  ASSERT_EQ(r.causes.size(), 3u);
  EXPECT_EQ(r.causes[1].kind, passes::ReshardCause::Kind::ReplicatedToUnreduced);
  EXPECT_EQ(r.causes[2].kind, passes::ReshardCause::Kind::ShardedToUnreduced);
  EXPECT_EQ(r.causes[2].axes, (AxisRefList{AxisRef{"y", std::nullopt}}));
  // The reshard they replace is gone.
  EXPECT_EQ(r.causes[0].op, nullptr);
}

TEST(ExplicitReshardsCauses, UnreducedAxesTheConsumerDropsAreAllReducedWithTheirReduction) {
  PassRun r = run("sdy.mesh @mesh = <[\"x\"=2, \"y\"=2]>\n"
                  "func.func @f(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"y\"}, {}], "
                  "unreduced=max{\"x\"}>})\n"
                  "    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"y\"}, {\"x\"}]>}) {\n"
                  "  return %arg0 : tensor<8x8xf32>\n}\n",
                  true);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.text.find("%0 = sdy.all_reduce max {\"x\"} %arg0 out_sharding=<@mesh, [{\"y\"}, {}]>"),
            std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("%1 = sdy.reshard %0 <@mesh, [{\"y\"}, {\"x\"}]>"), std::string::npos) << r.text;
  ASSERT_EQ(r.causes.size(), 2u);
  EXPECT_EQ(r.causes[0].kind, passes::ReshardCause::Kind::AllReduce);
  EXPECT_EQ(r.causes[0].op->name(), "func.return");
}

}  // namespace
