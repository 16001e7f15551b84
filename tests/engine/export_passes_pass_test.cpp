// Tests of the export passes (engine/passes/export_passes.h, and the options
// of the export-side passes in import_passes.h): each case parses a module,
// runs a pass by its registered name and compares the printed result.
#include <gtest/gtest.h>

#include <string>

#include "ir/parser.h"
#include "ir/printer.h"
#include "passes/export_passes.h"
#include "passes/pass.h"

namespace shardscope::passes {
namespace {

// Runs the registered pass `name` with `options` (`a=1 b=2`) on `input`;
// returns the printed module, or the diagnostics when parsing or the pass
// failed.
std::string run(const std::string& input, const std::string& name,
                const std::string& options = "") {
  ir::DiagnosticSink diags;
  std::unique_ptr<ir::Module> module = ir::parseModule(input, ir::ParseOptions{}, diags);
  if (!module) return "parse failed:\n" + diags.formatAll("<test>");
  const PassInfo* pass = lookupPass(name);
  if (!pass) return "no pass " + name;
  PassOptions parsed;
  std::string error;
  if (!parsePassOptions(options, parsed, error)) return "bad options: " + error;
  PassContext ctx{diags};
  if (!pass->run(*module, parsed, ctx) || diags.hasErrors())
    return "pass failed:\n" + diags.formatAll("<test>");
  return ir::printModule(*module);
}

// Three copies of @f: @f and @f_1 agree on [{"x"}] (2 calls), @f_0 has
// [{"y"}] (1 call, but called first).
const char* kThreeCopies = R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @f_0(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @f(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = call @f_1(%1) : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
func.func private @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> attributes {sdy.original_func_name = "f"} {
  return %arg0 : tensor<8xf32>
}
func.func private @f_0(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<8xf32> attributes {sdy.original_func_name = "f"} {
  return %arg0 : tensor<8xf32>
}
func.func private @f_1(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> attributes {sdy.original_func_name = "f"} {
  return %arg0 : tensor<8xf32>
}
)";

TEST(ExportPassesTest, UnflattenKeepsCopiesWithDifferentShardingsApart) {
  std::string out = run(kThreeCopies, "sdy-unflatten-call-graph");
  EXPECT_NE(out.find("%0 = call @f_0(%arg0)"), std::string::npos) << out;
  EXPECT_NE(out.find("%1 = call @f(%0)"), std::string::npos) << out;
  EXPECT_NE(out.find("%2 = call @f(%1)"), std::string::npos) << out;
  EXPECT_EQ(out.find("sdy.original_func_name"), std::string::npos) << out;
}

TEST(ExportPassesTest, UnflattenFullyDedupsToTheMostCalledShardings) {
  std::string out = run(kThreeCopies, "sdy-unflatten-call-graph", "dedup-functions-fully=true");
  // @f_0 is met first; [{"x"}] overtakes it at the call to @f_1 (its second
  // call), so that call's callee is kept, as sdy does.
  EXPECT_NE(out.find("%0 = call @f_1(%arg0)"), std::string::npos) << out;
  EXPECT_NE(out.find("%1 = call @f_1(%0)"), std::string::npos) << out;
  EXPECT_NE(out.find("%2 = call @f_1(%1)"), std::string::npos) << out;
}

TEST(ExportPassesTest, UnflattenFullyOnATieKeepsTheFirstCopy) {
  std::string input = kThreeCopies;
  // Drop the third call: one call each, so the first copy met stays.
  input.replace(input.find("  %2 = call @f_1(%1)"),
                std::string("  %2 = call @f_1(%1) : (tensor<8xf32>) -> tensor<8xf32>\n").size(),
                "");
  input.replace(input.find("return %2"), 9, "return %1");
  std::string out = run(input, "sdy-unflatten-call-graph", "dedup-functions-fully=true");
  EXPECT_NE(out.find("%0 = call @f_0(%arg0)"), std::string::npos) << out;
  EXPECT_NE(out.find("%1 = call @f_0(%0)"), std::string::npos) << out;
}

TEST(ExportPassesTest, SinkFuncDataFlowEdgesMovesShardingsToArgumentsAndCalls) {
  const char* input = R"(sdy.mesh @mesh = <["a"=2]>
func.func private @bar(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : tensor<8xf32>
  %1 = stablehlo.negate %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = call @bar(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = sdy.func_data_flow_edge %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>} : tensor<8xf32>
  %2 = call @bar(%1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  %3 = sdy.func_data_flow_edge %2 : tensor<8xf32>
  return %1, %3 : tensor<8xf32>, tensor<8xf32>
}
)";
  // The second edge has no sharding: the call's own one becomes fully open.
  EXPECT_EQ(run(input, "sdy-sink-func-data-flow-edges"), R"(module {
  sdy.mesh @mesh = <["a"=2]>
  func.func private @bar(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
    %0 = stablehlo.negate %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %0 = call @bar(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
    %1 = call @bar(%0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
    return %0, %1 : tensor<8xf32>, tensor<8xf32>
  }
}
)");
}

TEST(ExportPassesTest, CallsInsideAManualComputationPrintWithTheirDialect) {
  const char* input = R"(sdy.mesh @mesh = <["x"=2]>
func.func private @foo(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
    %1 = func.call @foo(%arg1) : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %2 = call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
)";
  std::string out = run(input, "sdy-sink-func-data-flow-edges");
  EXPECT_NE(out.find(" = func.call @foo(%arg1)"), std::string::npos) << out;
  EXPECT_NE(out.find(" = call @foo(%arg0)"), std::string::npos) << out;
  EXPECT_EQ(out.find(" = call @foo(%arg1)"), std::string::npos) << out;
}

TEST(ExportPassesTest, DropShardingAndMeshStripsEverySharding) {
  const char* input = R"(sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>, foo.keep = 1 : i64}) -> (tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
)";
  EXPECT_EQ(run(input, "sdy-drop-sharding-and-mesh"), R"(module {
  func.func @f(%arg0: tensor<2x4xf32> {foo.keep = 1 : i64}) -> tensor<2x4xf32> {
    %0 = stablehlo.add %arg0, %arg0 : tensor<2x4xf32>
    return %0 : tensor<2x4xf32>
  }
}
)");
}

const char* kUnreducedHeader = R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
)";

TEST(ExportPassesTest, VerifyUnreducedAxesAcceptsAReshardBeforeTheDrop) {
  std::string input =
      std::string(kUnreducedHeader) +
      R"(func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}], unreduced={"y"}>}) -> tensor<8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}]> : tensor<8xf32>
  %1 = sdy.propagation_barrier %0 allowed_direction=BOTH : tensor<8xf32>
  %2 = stablehlo.negate %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %2 : tensor<8xf32>
}
)";
  EXPECT_EQ(run(input, "sdy-verify-unreduced-axes").rfind("module {", 0), 0u)
      << run(input, "sdy-verify-unreduced-axes");
}

TEST(ExportPassesTest, VerifyUnreducedAxesReportsTheFirstBadOpOfEachFunction) {
  std::string input =
      std::string(kUnreducedHeader) +
      R"(func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}], unreduced={"y"}>}) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}], unreduced=max{"x"}>]>} : tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func @g(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}], unreduced={"y"}>}) {
  return %arg0 : tensor<8xf32>
}
)";
  std::string out = run(input, "sdy-verify-unreduced-axes");
  EXPECT_NE(out.find("'stablehlo.negate' op dropped unreduced axis 'y'"), std::string::npos) << out;
  EXPECT_EQ(out.find("cannot introduce"), std::string::npos)
      << out;  // the second negate is not reached
  EXPECT_NE(out.find("'func.return' op has unreduced axes mismatch for 'y' at return value 0"),
            std::string::npos)
      << out;
}

TEST(ExportPassesTest, VerifyUnreducedAxesComparesCallArgumentsWithTheCallee) {
  std::string input =
      std::string(kUnreducedHeader) +
      R"(func.func private @callee(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>}) -> tensor<8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"y"}>}) -> tensor<8xf32> {
  %0 = call @callee(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
)";
  std::string out = run(input, "sdy-verify-unreduced-axes");
  EXPECT_NE(out.find("'func.call' op has unreduced axes mismatch for 'x, y' at call argument 0."),
            std::string::npos)
      << out;
}

// The pass returns at once when no sharding names unreduced axes; these
// modules have them only where that look must still find them (a
// function's result attributes), or none and an sdy reduction the check
// still reaches.
TEST(ExportPassesTest, VerifyUnreducedAxesFindsAxesOnlyInResultAttributes) {
  std::string input =
      std::string(kUnreducedHeader) +
      R"(func.func @g(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}], unreduced={"y"}>}) {
  return %arg0 : tensor<8xf32>
}
)";
  std::string out = run(input, "sdy-verify-unreduced-axes");
  EXPECT_NE(out.find("'func.return' op has unreduced axes mismatch for 'y' at return value 0"),
            std::string::npos)
      << out;
}

TEST(ExportPassesTest, VerifyUnreducedAxesChecksSdyReductionsWithoutUnreducedAxes) {
  std::string input = std::string(kUnreducedHeader) + R"(func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)";
  std::string out = run(input, "sdy-verify-unreduced-axes");
  EXPECT_NE(out.find("'sdy.all_reduce' op operand must be sharded."), std::string::npos) << out;
  // Without the reduction the same function has nothing to report.
  std::string plain = std::string(kUnreducedHeader) + R"(func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)";
  EXPECT_EQ(run(plain, "sdy-verify-unreduced-axes").rfind("module {", 0), 0u)
      << run(plain, "sdy-verify-unreduced-axes");
}

TEST(ExportPassesTest, InlineMeshesWritesMeshesIntoShardingsAndReplicaGroups) {
  const char* input = R"(sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @rev = <["x"=2], device_ids=[1, 0]>
func.func @f(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {
  %0 = sdy.reshard %arg0 <mesh<["z"=2]>, [{"z"}]> : tensor<4xf32>
  %1 = "stablehlo.all_to_all"(%0) <{concat_dimension = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @rev, axes = [#stablehlo.axis_ref<name = "x">]>, split_count = 1 : i64, split_dimension = 0 : i64}> : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
)";
  EXPECT_EQ(run(input, "sdy-inline-meshes"), R"(module {
  func.func @f(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=4]>, [{"x"}]>}) -> tensor<4xf32> {
    %0 = sdy.reshard %arg0 <mesh<["z"=2]>, [{"z"}]> : tensor<4xf32>
    %1 = "stablehlo.all_to_all"(%0) <{concat_dimension = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes=[<name = "x", size = 2>], device_ids=dense<[1, 0]> : tensor<2xi64>>, axes = [#stablehlo.axis_ref<name = "x">]>, split_count = 1 : i64, split_dimension = 0 : i64}> : (tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
)");
}

const char* kBeforeExport = R"(sdy.mesh @mesh = <["a"=4, "b"=4]>
func.func @main(%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b"}]>}) -> tensor<2x4xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=2, j=4}>} : tensor<2x4xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"b", ?}]> : tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}
)";

TEST(ExportPassesTest, ExportPipelineClosesFixesAndInlines) {
  // "a" does not divide 2 and goes; the constraint becomes a closed reshard;
  // the rule is dropped; meshes are inlined.
  EXPECT_EQ(run(kBeforeExport, "sdy-export-pipeline"), R"(module {
  func.func @main(%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=4, "b"=4]>, [{}, {"b"}]>}) -> tensor<2x4xf32> {
    %0 = stablehlo.negate %arg0 : tensor<2x4xf32>
    %1 = sdy.reshard %0 <mesh<["a"=4, "b"=4]>, [{}, {"b"}]> : tensor<2x4xf32>
    return %1 : tensor<2x4xf32>
  }
}
)");
}

TEST(ExportPipelineTest, OptionsKeepRulesMeshesAndConstraints) {
  std::string out =
      run(kBeforeExport, "sdy-export-pipeline",
          "keep-sharding-rules=true inline-meshes=false avoid-export-for-partitioning=true "
          "update-non-divisible-input-output-shardings=false");
  EXPECT_NE(out.find("sdy.mesh @mesh"), std::string::npos) << out;
  EXPECT_NE(out.find("sdy.sharding_rule"), std::string::npos) << out;
  EXPECT_NE(out.find("sdy.sharding_constraint %0 <@mesh, [{}, {\"b\"}]>"), std::string::npos)
      << out;
  EXPECT_NE(out.find("[{\"a\"}, {\"b\"}]"), std::string::npos) << out;  // closed, "a" kept
}

TEST(ExportPipelineTest, StopsAtTheFirstFailingStep) {
  const char* input = R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}], unreduced={"y"}>}) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)";
  std::string out = run(input, "sdy-export-pipeline");
  EXPECT_NE(out.find("pass failed"), std::string::npos) << out;
  EXPECT_NE(out.find("'stablehlo.negate' op dropped unreduced axis 'y'"), std::string::npos) << out;
}

TEST(ExportPassesTest, CallShardingOverAnUnshardedCalleeIsReshardedFromReplicated) {
  const char* input = R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  %0 = call @baz(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {"y"}], replicated={}>]>} : (tensor<8x2xi32>) -> tensor<8x2xi32>
  return %0 : tensor<8x2xi32>
}
func.func private @baz(%arg0: tensor<8x2xi32>) -> tensor<8x2xi32> {
  return %arg0 : tensor<8x2xi32>
}
)";
  // The callee returns a replicated value: the call says so (closed), and a
  // reshard makes the sharding its users expect.
  std::string out = run(input, "sdy-insert-func-call-reshards");
  EXPECT_NE(
      out.find(
          R"(%0 = call @baz(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>})"),
      std::string::npos)
      << out;
  EXPECT_NE(out.find(R"(%1 = sdy.reshard %0 <@mesh, [{"x", ?}, {"y"}]>)"), std::string::npos)
      << out;
}

TEST(ExportPassesTest, Cmv1KeepsTheReduceScatterOfADotWithAGatheredOperand) {
  const char* input = R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
  %0 = "sdy.all_gather"(%arg0) <{gathering_axes = [#sdy<axis_ref_list{"y"}>, #sdy<axis_ref_list{}>], out_sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.dot %0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %2 = "sdy.reduce_scatter"(%1) <{out_sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>, reduce_scatter_axes = [#sdy<axis_ref_list{"x"}>, #sdy<axis_ref_list{}>]}> : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %3 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %4 = "sdy.reduce_scatter"(%3) <{out_sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>, reduce_scatter_axes = [#sdy<axis_ref_list{"x"}>, #sdy<axis_ref_list{}>]}> : (tensor<8x32xf32>) -> tensor<8x32xf32>
  return %2, %4 : tensor<8x32xf32>, tensor<8x32xf32>
}
)";
  std::string out = run(input, "sdy-remove-all-gather-reduce-scatter-for-cmv1");
  // The gather into the first dot goes; that dot's reduce-scatter stays.
  EXPECT_EQ(out.find("all_gather"), std::string::npos) << out;
  EXPECT_NE(
      out.find(
          R"(%0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>})"),
      std::string::npos)
      << out;
  EXPECT_NE(out.find("reduce_scatter"), std::string::npos) << out;
  // The second dot's reduce-scatter goes and the dot takes its sharding.
  EXPECT_NE(
      out.find(
          R"(%2 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>})"),
      std::string::npos)
      << out;
  EXPECT_NE(out.find("return %1, %2"), std::string::npos) << out;
}

TEST(ExportPassesTest, VerifyUnreducedAxesReadsTheAllReduceKind) {
  std::string input =
      std::string(kUnreducedHeader) +
      R"(func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}], unreduced=max{"y"}>}) -> tensor<8xf32> {
  %0 = "sdy.all_reduce"(%arg0) <{out_sharding = #sdy.sharding<@mesh, [{"x"}]>, reduction_axes = #sdy<axis_ref_list{"y"}>, reduction_op = #sdy<reduction max>}> : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
)";
  EXPECT_EQ(run(input, "sdy-verify-unreduced-axes").rfind("module {", 0), 0u)
      << run(input, "sdy-verify-unreduced-axes");
  std::string sum = input;
  sum.replace(sum.find(", reduction_op = #sdy<reduction max>"),
              std::string(", reduction_op = #sdy<reduction max>").size(), "");
  EXPECT_NE(run(sum, "sdy-verify-unreduced-axes")
                .find("cannot reduce 'max' unreduced axes. Expected 'sum'."),
            std::string::npos)
      << run(sum, "sdy-verify-unreduced-axes");
}

const char* kSingleDevice = R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @dev1 = <[], device_ids=[1]>
func.func @f(%arg0: tensor<4xi1>, %arg1: tensor<4xi32>) -> tensor<4xi32> {
  %0 = sdy.reshard %arg1 <@dev1, []> : tensor<4xi32>
  %1 = stablehlo.select %arg0, %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@dev1, []>]>} : tensor<4xi1>, tensor<4xi32>
  %2 = sdy.reshard %1 <@mesh, [{}]> : tensor<4xi32>
  return %2 : tensor<4xi32>
}
)";

TEST(ExportPassesTest, SingleDeviceOpRunsUnderADeviceCheck) {
  std::string out = run(kSingleDevice, "sdy-resolve-single-device-sharding", "replica-count=4");
  // replica-count > 1: the device is the replica.
  EXPECT_NE(out.find("%0 = stablehlo.replica_id : tensor<ui32>"), std::string::npos) << out;
  EXPECT_NE(out.find("%c = stablehlo.constant dense<1> : tensor<i64>"), std::string::npos) << out;
  // The operand reshard onto the device is read past and erased; the
  // reshard back to replicated is the all-reduce.
  EXPECT_NE(out.find("stablehlo.select %arg0, %arg1, %arg1 : tensor<4xi1>, tensor<4xi32>"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("stablehlo.constant dense<0> : tensor<4xi32>"), std::string::npos) << out;
  EXPECT_NE(out.find(R"(sdy.all_reduce {"x", "y"} %3 out_sharding=<@mesh, [{}]> : tensor<4xi32>)"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("sdy.reshard"), std::string::npos) << out;
}

TEST(ExportPassesTest, SingleDeviceResolutionRejectsBadCounts) {
  EXPECT_NE(
      run(kSingleDevice, "sdy-resolve-single-device-sharding", "replica-count=2 partition-count=2")
          .find("pass failed"),
      std::string::npos);
  EXPECT_NE(run(kSingleDevice, "sdy-resolve-single-device-sharding", "replica-count=two")
                .find("whole numbers"),
            std::string::npos);
}

TEST(ExportPassesTest, SingleDeviceResultsOnTwoDevicesAreAnError) {
  const char* input = R"(sdy.mesh @mesh = <["x"=2]>
sdy.mesh @dev0 = <[], device_ids=[0]>
sdy.mesh @dev1 = <[], device_ids=[1]>
func.func @f(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = stablehlo.custom_call @Two(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@dev0, []>, <@dev1, []>]>} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}
)";
  std::string out = run(input, "sdy-resolve-single-device-sharding");
  EXPECT_NE(out.find("'stablehlo.custom_call' op has results on different single devices"),
            std::string::npos)
      << out;
}

}  // namespace
}  // namespace shardscope::passes
