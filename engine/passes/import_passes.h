// The sdy import passes (run before propagation) and the export passes the
// propagation pipeline ends with, as plain functions over a module. Each pass
// lives in its own file; `registerImportPasses` (import_passes.cpp) exposes
// them to sdy_opt-style drivers under their sdy names.
//
// Every function returns false when the pass failed; the reason is reported
// to `diags` at the location of the offending op.
#pragma once
#include "ir/diagnostics.h"
#include "ir/operation.h"

namespace shardscope::passes {

// ---- Import -----------------------------------------------------------------

// `-sdy-lift-inlined-meshes`: replace meshes written inline in shardings
// (`#sdy.sharding<mesh<["x"=2]>, ...>`) by references to `sdy.mesh` symbols,
// reusing an identical existing mesh or creating `@mesh`, `@mesh_0`, ...
// (`@maximal_mesh_N` for a maximal mesh); duplicate mesh symbols are merged.
bool liftInlinedMeshes(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-remove-size-one-axes`: drop axes of size 1 from every sharding.
bool removeSizeOneAxes(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-constant-or-scalar-splitter`: stablehlo.constant -> sdy.constant, and
// every constant sub-computation (constants, iota, and broadcast / reshape /
// slice / elementwise ops, named computations and calls over them) gets its
// own copy per non-constant user; broadcasts of scalars are copied per user.
bool constantOrScalarSplitter(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-manual-axes-cleanup`: sort each manual computation's manual axes in
// mesh order and add unused manual axes to the replicated axes of its in/out
// shardings.
bool manualAxesCleanup(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-add-data-flow-edges`: an `sdy.data_flow_edge` after every edge owner
// (results of while/case/optimization_barrier/manual and named computations,
// block arguments of the latter two), carrying the owner's sharding.
bool addDataFlowEdges(ir::Module& module, ir::DiagnosticSink& diags);

struct ApplyShardingConstraintsOptions {
  bool debugShardingOrigins = false;
  bool debugPropagationEdgeSharding = false;
};
// `-sdy-apply-sharding-constraints`: copy the closed sharding of a
// sharding_constraint (or a manual computation's in sharding) to its input
// when nothing contradicts it, and move chains of constraints onto the later
// users of their input.
bool applyShardingConstraints(ir::Module& module, ir::DiagnosticSink& diags,
                              const ApplyShardingConstraintsOptions& options = {});

// `-sdy-sharding-group-import`: merge groups sharing a value, renumber them
// 0..N-1, drop duplicates, and check that a group does not cross manual
// computation boundaries and that its values have one shape.
bool shardingGroupImport(ir::Module& module, ir::DiagnosticSink& diags);

// ---- Calls (conservative mode of the propagation pipeline) -------------------

// `-sdy-propagate-sharding-from-func-to-call`: calls without result shardings
// take their callee's result shardings.
bool propagateShardingFromFuncToCall(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-flatten-call-graph`: each function is called once (later calls get
// copies `@foo_0`, ... marked with `sdy.original_func_name`).
bool flattenCallGraph(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-import-func-calls`: calls become named computations holding the
// callee's body (with data-flow edges); imported functions are erased.
bool importFuncCalls(ir::Module& module, ir::DiagnosticSink& diags);
// The same with `add-data-flow-edges-on-named-computations` (true above):
// whether to add data-flow edges to the named computations afterwards.
bool importFuncCallsWithEdges(ir::Module& module, ir::DiagnosticSink& diags,
                              bool addDataFlowEdgesOnNamedComputations);
// `-sdy-add-func-data-flow-edges`: an `sdy.func_data_flow_edge` after each
// static-shaped argument of every function but the main one, and after each
// static-shaped call result, carrying the value's sharding.
bool addFuncDataFlowEdges(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-pre-order-funcs`: order functions callers first.
bool preOrderFuncs(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-export-named-computations`: named computations become private
// functions and calls, carrying the shardings of their data-flow edges.
bool exportNamedComputations(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-propagate-to-func-results`: non-main functions get result shardings
// from the values they return.
bool propagateToFuncResults(ir::Module& module, ir::DiagnosticSink& diags);

struct UnflattenCallGraphOptions {
  // Merge all copies of a function whatever their shardings (the copy most
  // calls agree with is kept).
  bool dedupFunctionsFully = false;
};
// `-sdy-unflatten-call-graph`: calls to identical copies of a function go to
// one copy; `sdy.original_func_name` is dropped.
bool unflattenCallGraph(ir::Module& module, ir::DiagnosticSink& diags,
                        const UnflattenCallGraphOptions& options = {});

// `-sdy-insert-func-call-reshards`: reshard call results whose sharding
// differs from the callee's result sharding.
bool insertFuncCallReshards(ir::Module& module, ir::DiagnosticSink& diags);

// ---- Export -----------------------------------------------------------------

// `-sdy-constant-or-scalar-merger`: dedupe identical constants and identical
// broadcasts of the same scalar within a region.
bool constantOrScalarMerger(ir::Module& module, ir::DiagnosticSink& diags);

struct SinkDataFlowEdgesOptions {
  bool sinkDebugShardingOrigins = false;
  bool sinkDebugPropagationEdgeSharding = false;
};
// `-sdy-sink-data-flow-edges`: move the shardings of data-flow edges back
// onto their owners and erase the edges.
bool sinkDataFlowEdges(ir::Module& module, ir::DiagnosticSink& diags,
                       const SinkDataFlowEdgesOptions& options = {});

// `-sdy-remove-sharding-groups`: erase every sdy.sharding_group.
bool removeShardingGroups(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-sharding-constraint-to-reshard`: sdy.sharding_constraint -> sdy.reshard.
bool shardingConstraintToReshard(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-remove-propagation-debug-info`: drop sharding origins and propagation
// edges attributes everywhere.
bool removePropagationDebugInfo(ir::Module& module, ir::DiagnosticSink& diags);

// `-canonicalize` (the part the pipeline needs): erase side-effect-free ops
// whose results are unused, repeatedly. No rewrite patterns, no folding.
bool eraseTriviallyDeadOps(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-close-shardings`: close every dimension, drop replicated axes.
bool closeShardings(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-insert-explicit-reshards` with its default options (the options and
// the record of why each op was inserted: explicit_reshards/explicit_reshards_pass.h).
bool insertExplicitReshards(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-drop-sharding-rules`: remove non-custom `sdy.sharding_rule` attributes.
bool dropShardingRules(ir::Module& module, ir::DiagnosticSink& diags);

// `-symbol-dce`: erase private functions and meshes nothing refers to.
bool symbolDce(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-remove-sub-axes-in-input-output-shardings`: in function argument and
// result shardings, cut each dimension before its first sub-axis and drop
// sub-axes from replicated/unreduced axes.
bool removeSubAxesInInputOutputShardings(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-update-non-divisible-input-output-shardings`: in function argument
// and result shardings, keep only the axes of each dimension that divide it.
bool updateNonDivisibleInputOutputShardings(ir::Module& module, ir::DiagnosticSink& diags);

// `-xla-sdy-import-shardings` (XLA's pass): GSPMD `mhlo.sharding` strings
// become sdy shardings on one common mesh (import_gspmd_shardings.cpp).
bool importGspmdShardings(ir::Module& module, ir::DiagnosticSink& diags);

}  // namespace shardscope::passes
