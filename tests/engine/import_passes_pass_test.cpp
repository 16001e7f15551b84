// Tests of the import/export passes (engine/passes/import_passes.h): each
// case parses a module, runs one or more passes and compares the printed
// result, so a case reads as input -> expected.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "ir/parser.h"
#include "ir/printer.h"
#include "passes/import_passes.h"
#include "passes/pass.h"

namespace shardscope::passes {
namespace {

using PassFn = std::function<bool(ir::Module&, ir::DiagnosticSink&)>;

// Runs `passes` on `input`; returns the printed module (or the diagnostics).
std::string run(const std::string& input, const std::vector<PassFn>& passes) {
  ir::DiagnosticSink diags;
  std::unique_ptr<ir::Module> module = ir::parseModule(input, ir::ParseOptions{}, diags);
  if (!module) return "parse failed:\n" + diags.formatAll("<test>");
  for (const PassFn& pass : passes)
    if (!pass(*module, diags)) return "pass failed:\n" + diags.formatAll("<test>");
  return ir::printModule(*module);
}

TEST(ImportPassesTest, AddDataFlowEdgesCopiesTheOwnerSharding) {
  const char* input = R"(sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.optimization_barrier %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)";
  EXPECT_EQ(run(input, {addDataFlowEdges}), R"(module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} %arg0 : tensor<8xf32>
    %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a"}]> : tensor<8xf32>
    return %1 : tensor<8xf32>
  }
}
)");
}

// A block argument nothing uses still gets its owner's sharding: the edge
// being built is not yet the owner's data-flow edge.
TEST(ImportPassesTest, AddDataFlowEdgesShardsAnUnusedBlockArgument) {
  const char* input = R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8x2xi32>, %arg1: tensor<8xi32>) -> tensor<8x2xi32> {
  %0 = sdy.named_computation<"foo">(%arg0, %arg1) in_shardings=[<@mesh, [{?}, {?}]>, <@mesh, [{"y"}]>] (%arg2: tensor<8x2xi32>, %arg3: tensor<8xi32>) {
    sdy.return %arg2 : tensor<8x2xi32>
  } : (tensor<8x2xi32>, tensor<8xi32>) -> tensor<8x2xi32>
  return %0 : tensor<8x2xi32>
}
)";
  const std::string out = run(input, {addDataFlowEdges});
  EXPECT_NE(out.find("sdy.data_flow_edge %arg2 sharding=<@mesh, [{?}, {?}]> : tensor<8x2xi32>\n"
                     "      %3 = sdy.data_flow_edge %arg3 sharding=<@mesh, [{\"y\"}]> : tensor<8xi32>"),
            std::string::npos)
      << out;
}

// An owner nothing uses: its sharding is read before the new edge becomes
// its only user (found by the propagation fuzzer: the pipeline was not
// idempotent on an unused while result).
TEST(ImportPassesTest, AddDataFlowEdgesCopiesTheShardingOfAnUnusedOwner) {
  const char* input = R"(sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.optimization_barrier %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : tensor<8xf32>
  return %arg0 : tensor<8xf32>
}
)";
  EXPECT_EQ(run(input, {addDataFlowEdges}), R"(module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} %arg0 : tensor<8xf32>
    %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a"}]> : tensor<8xf32>
    return %arg0 : tensor<8xf32>
  }
}
)");
}

// Callers move before their callees; functions that do not call each other
// keep their order, so a second run changes nothing.
TEST(ImportPassesTest, PreOrderFuncsKeepsUnrelatedFunctionsInPlace) {
  const char* input = R"(func.func @g() {
  return
}
func.func @f2() {
  return
}
func.func @f1() {
  func.call @f2() : () -> ()
  return
}
func.func @main() {
  func.call @f1() : () -> ()
  return
}
)";
  const char* expected = R"(module {
  func.func @g() {
    return
  }
  func.func @main() {
    call @f1() : () -> ()
    return
  }
  func.func @f1() {
    call @f2() : () -> ()
    return
  }
  func.func @f2() {
    return
  }
}
)";
  EXPECT_EQ(run(input, {preOrderFuncs}), expected);
  EXPECT_EQ(run(expected, {preOrderFuncs}), expected);
}

TEST(ImportPassesTest, SinkDataFlowEdgesMovesEdgeShardingsToTheOwner) {
  const char* input = R"(sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @f(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0:2 = stablehlo.optimization_barrier %arg0, %arg1 : tensor<8xf32>, tensor<8xf32>
  %1 = sdy.data_flow_edge %0#0 : tensor<8xf32>
  %2 = sdy.data_flow_edge %0#1 sharding=<@mesh, [{"b", ?}]> : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}
)";
  // The edge without a sharding gets a fully open one on the same mesh.
  EXPECT_EQ(run(input, {[](ir::Module& m, ir::DiagnosticSink& d) { return sinkDataFlowEdges(m, d); }}),
            R"(module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @f(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %0:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}]>, <@mesh, [{"b", ?}]>]>} %arg0, %arg1 : tensor<8xf32>, tensor<8xf32>
    return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
  }
}
)");
}

const char* kConstantAndConstraint = R"(sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @f(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = stablehlo.constant dense<1.000000e+00> : tensor<8x8xf32>
  %1 = stablehlo.add %arg0, %0 : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  return %0, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}
)";

// The applied constraint keeps the (pointwise) rule sdy computes for it.
TEST(ImportPassesTest, SplitterCopiesConstantsAndConstraintsApplyToInputs) {
  PassFn apply = [](ir::Module& m, ir::DiagnosticSink& d) { return applyShardingConstraints(m, d); };
  EXPECT_EQ(run(kConstantAndConstraint, {constantOrScalarSplitter, apply}), R"(module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @f(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
    %0 = sdy.constant dense<1.000000e+00> : tensor<8x8xf32>
    %1 = sdy.constant dense<1.000000e+00> : tensor<8x8xf32>
    %2 = stablehlo.add %arg0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : tensor<8x8xf32>
    %3 = sdy.sharding_constraint %2 <@mesh, [{}, {"b"}]> {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
    return %1, %3 : tensor<8x8xf32>, tensor<8x8xf32>
  }
}
)");
}

TEST(ImportPassesTest, SplitterCopiesConstantCallsWithTheirCallee) {
  const char* input = R"(func.func @main() -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = call @foo() : () -> tensor<8xf32>
  %1 = stablehlo.abs %0 : tensor<8xf32>
  %2 = stablehlo.abs %0 : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}
func.func private @foo() -> tensor<8xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<8xf32>
  %1 = stablehlo.negate %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
)";
  // @foo only computes a constant, so each user of the call gets its own
  // call to its own copy of @foo (the original is left for symbol-dce).
  EXPECT_EQ(run(input, {constantOrScalarSplitter}), R"(module {
  func.func @main() -> (tensor<8xf32>, tensor<8xf32>) {
    %0 = call @foo_0() : () -> tensor<8xf32>
    %1 = call @foo_1() : () -> tensor<8xf32>
    %2 = stablehlo.abs %0 : tensor<8xf32>
    %3 = stablehlo.abs %1 : tensor<8xf32>
    return %2, %3 : tensor<8xf32>, tensor<8xf32>
  }
  func.func private @foo() -> tensor<8xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<8xf32>
    %1 = stablehlo.negate %0 : tensor<8xf32>
    return %1 : tensor<8xf32>
  }
  func.func private @foo_0() -> tensor<8xf32> attributes {sdy.original_func_name = "foo"} {
    %0 = stablehlo.iota dim = 0 : tensor<8xf32>
    %1 = stablehlo.negate %0 : tensor<8xf32>
    return %1 : tensor<8xf32>
  }
  func.func private @foo_1() -> tensor<8xf32> attributes {sdy.original_func_name = "foo"} {
    %0 = stablehlo.iota dim = 0 : tensor<8xf32>
    %1 = stablehlo.negate %0 : tensor<8xf32>
    return %1 : tensor<8xf32>
  }
}
)");
}

TEST(ImportPassesTest, ManualAxesCleanupSplitsPartlyUsedAxes) {
  const char* input = R"(sdy.mesh @mesh = <["x"=8, "y"=8]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"y":(2)2}]>] out_shardings=[<@mesh, [{"y":(1)2}], replicated={"x":(2)2}>] manual_axes={"x", "y"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
)";
  std::string out = run(input, {manualAxesCleanup});
  EXPECT_NE(out.find(R"(in_shardings=[<@mesh, [{"y":(2)2}], replicated={"x", "y":(1)2, "y":(4)2}>])"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find(R"(out_shardings=[<@mesh, [{"y":(1)2}], replicated={"x", "y":(2)4}>])"), std::string::npos)
      << out;
}

TEST(ImportPassesTest, MergerUndoesTheSplitterAndConstraintsBecomeReshards) {
  std::string out = run(kConstantAndConstraint, {constantOrScalarSplitter, constantOrScalarMerger,
                                                 shardingConstraintToReshard});
  EXPECT_NE(out.find("%0 = sdy.constant dense<1.000000e+00> : tensor<8x8xf32>\n    %1 = stablehlo.add %arg0, %0"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("sdy.reshard %1 <@mesh, [{}, {\"b\"}]>"), std::string::npos) << out;
  EXPECT_EQ(out.find("sdy.sharding_constraint"), std::string::npos) << out;
}

TEST(ImportPassesTest, LiftMeshesCleanUpManualAxesAndMergeGroups) {
  const char* input = R"(sdy.mesh @m = <["a"=2, "b"=1]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=1]>, [{"a", "b"}]>}) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@m, [{?}]>] out_shardings=[<@m, [{?}]>] manual_axes={"b", "a"} (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  sdy.sharding_group %arg0 group_id = 7 : tensor<8xf32>
  sdy.sharding_group %0 group_id = 3 : tensor<8xf32>
  sdy.sharding_group %0 group_id = 7 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)";
  // The inline mesh equals @m; the size-1 axis "b" leaves the argument
  // sharding but, being manual, is added to the replicated axes; groups 3 and
  // 7 share %0, so everything is group 0 and the duplicate goes.
  EXPECT_EQ(run(input, {liftInlinedMeshes, removeSizeOneAxes, manualAxesCleanup, shardingGroupImport}),
            R"(module {
  sdy.mesh @m = <["a"=2, "b"=1]> {stablehlo.mesh = {axes = [{name = "a", size = 2 : i64}, {name = "b", size = 1 : i64}]}}
  func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"a"}]>}) -> tensor<8xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@m, [{?}], replicated={"a", "b"}>] out_shardings=[<@m, [{?}], replicated={"a", "b"}>] manual_axes={"a", "b"} (%arg1: tensor<8xf32>) {
      sdy.return %arg1 : tensor<8xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    sdy.sharding_group %arg0 group_id=0 : tensor<8xf32>
    sdy.sharding_group %0 group_id=0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
)");
}

const char* kTwoCalls = R"(sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}
func.func private @foo(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)";

TEST(ImportPassesTest, FlattenAndImportCalls) {
  EXPECT_EQ(run(kTwoCalls, {flattenCallGraph, importFuncCalls}), R"(module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %0 = sdy.named_computation<"foo">(%arg0) (%arg1: tensor<8xf32>) {
      %4 = sdy.data_flow_edge %arg1 : tensor<8xf32>
      %5 = stablehlo.abs %4 : tensor<8xf32>
      sdy.return %5 : tensor<8xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    %1 = sdy.data_flow_edge %0 : tensor<8xf32>
    %2 = sdy.named_computation<"foo">(%arg0) out_shardings=[<@mesh, [{"a"}]>] (%arg1: tensor<8xf32>) {
      %4 = sdy.data_flow_edge %arg1 : tensor<8xf32>
      %5 = stablehlo.abs %4 : tensor<8xf32>
      sdy.return %5 : tensor<8xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    %3 = sdy.data_flow_edge %2 sharding=<@mesh, [{"a"}]> : tensor<8xf32>
    return %1, %3 : tensor<8xf32>, tensor<8xf32>
  }
}
)");
}

// @foo returns an unsharded value, so the call that wanted [{"a"}] gets a
// reshard from replicated (as sdy: the callee's result counts as fully closed).
TEST(ImportPassesTest, ExportAndUnflattenRestoreOneFunction) {
  EXPECT_EQ(run(kTwoCalls, {flattenCallGraph, importFuncCalls, exportNamedComputations, propagateToFuncResults,
                            [](ir::Module& m, ir::DiagnosticSink& d) { return unflattenCallGraph(m, d); },
                            symbolDce, insertFuncCallReshards}),
            R"(module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %0 = call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
    %1 = call @foo(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
    %2 = sdy.reshard %1 <@mesh, [{"a"}]> : tensor<8xf32>
    return %0, %2 : tensor<8xf32>, tensor<8xf32>
  }
  func.func private @foo(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.abs %arg0 : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
)");
}

TEST(ImportPassesTest, CloseShardingsAndDropDeadOps) {
  const char* input = R"(sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}], replicated={"b"}>}) -> tensor<8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"b"}]> : tensor<8xf32>
  return %arg0 : tensor<8xf32>
}
)";
  EXPECT_EQ(run(input, {closeShardings, eraseTriviallyDeadOps}), R"(module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
    return %arg0 : tensor<8xf32>
  }
}
)");
}

TEST(ImportPassesTest, DeadChainsGoWholeAndLiveOpsStay) {
  // %3 is dead, which makes %2, then %1 dead; %0 feeds the return and
  // stays; the custom call has side effects and stays with its operand.
  const char* input = R"(func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  %1 = stablehlo.negate %0 : tensor<8xf32>
  %2 = stablehlo.add %1, %0 : tensor<8xf32>
  %3 = stablehlo.multiply %2, %1 : tensor<8xf32>
  %4 = stablehlo.sine %arg0 : tensor<8xf32>
  %5 = stablehlo.custom_call @foo(%4) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
)";
  EXPECT_EQ(run(input, {eraseTriviallyDeadOps}), R"(module {
  func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.abs %arg0 : tensor<8xf32>
    %1 = stablehlo.sine %arg0 : tensor<8xf32>
    %2 = stablehlo.custom_call @foo(%1) : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
)");
}

TEST(ImportPassesTest, ShardingGroupAcrossManualComputationIsAnError) {
  const char* input = R"(sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{?}]>] out_shardings=[<@mesh, [{?}]>] manual_axes={} (%arg1: tensor<8xf32>) {
    sdy.sharding_group %arg1 group_id = 5 : tensor<8xf32>
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  sdy.sharding_group %0 group_id = 5 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)";
  std::string out = run(input, {shardingGroupImport});
  EXPECT_NE(out.find("7:3: error: 'sdy.sharding_group' op ShardingGroupOps values cannot cross "
                     "ManualComputationOp boundaries for groupId: 5"),
            std::string::npos)
      << out;
}

TEST(ImportPassesTest, EveryPassIsRegistered) {
  for (const char* name :
       {"sdy-add-data-flow-edges", "sdy-apply-sharding-constraints", "sdy-constant-or-scalar-splitter",
        "sdy-lift-inlined-meshes", "sdy-manual-axes-cleanup", "sdy-sharding-group-import",
        "sdy-sink-data-flow-edges", "sdy-constant-or-scalar-merger", "sdy-remove-sharding-groups",
        "sdy-sharding-constraint-to-reshard", "sdy-close-shardings", "sdy-drop-sharding-rules",
        "sdy-remove-size-one-axes", "symbol-dce", "sdy-flatten-call-graph", "sdy-import-func-calls",
        "sdy-export-named-computations", "sdy-propagate-to-func-results", "sdy-unflatten-call-graph",
        "sdy-insert-func-call-reshards", "sdy-pre-order-funcs", "sdy-propagate-sharding-from-func-to-call",
        "sdy-update-non-divisible-input-output-shardings", "sdy-remove-sub-axes-in-input-output-shardings",
        "sdy-remove-propagation-debug-info", "canonicalize"})
    EXPECT_NE(lookupPass(name), nullptr) << name;
  const PassInfo* sink = lookupPass("sdy-sink-data-flow-edges");
  ASSERT_NE(sink, nullptr);
  EXPECT_EQ(sink->options,
            (std::vector<std::string>{"sink-debug-sharding-origins", "sink-debug-propagation-edge-sharding"}));
}

}  // namespace
}  // namespace shardscope::passes
