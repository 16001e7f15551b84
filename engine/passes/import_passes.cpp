// Registration of the import passes and of the export passes the propagation
// pipeline ends with (see import_passes.h for what each does).
#include "passes/import_passes.h"

#include "passes/explicit_reshards/explicit_reshards_pass.h"
#include "passes/pass.h"

namespace shardscope::passes {

void registerImportPasses(std::vector<PassInfo>& out) {
  // Import.
  out.push_back(
      passWithoutOptions("symbol-dce", "Erase private functions nothing refers to", symbolDce));
  out.push_back(passWithoutOptions("sdy-lift-inlined-meshes",
                                   "Lift inlined meshes in shardings into sdy.mesh symbols",
                                   liftInlinedMeshes));
  out.push_back(passWithoutOptions(
      "sdy-remove-size-one-axes", "Remove axes of size one from all shardings", removeSizeOneAxes));
  out.push_back(passWithoutOptions(
      "sdy-constant-or-scalar-splitter",
      "Give each user of a constant sub-computation or scalar broadcast its own copy",
      constantOrScalarSplitter));
  out.push_back(passWithoutOptions("sdy-manual-axes-cleanup",
                                   "Sort manual axes and add unused manual axes to replicated axes",
                                   manualAxesCleanup));
  out.push_back(passWithoutOptions("sdy-add-data-flow-edges",
                                   "Insert sdy.data_flow_edge after every data-flow edge owner",
                                   addDataFlowEdges));
  out.push_back(PassInfo{"sdy-apply-sharding-constraints",
                         "Apply sharding constraints to their inputs",
                         {"debug-sharding-origins", "debug-propagation-edge-sharding"},
                         [](ir::Module& m, const PassOptions& o, PassContext& ctx) {
                           ApplyShardingConstraintsOptions opts;
                           opts.debugShardingOrigins = o.getBool("debug-sharding-origins");
                           opts.debugPropagationEdgeSharding =
                               o.getBool("debug-propagation-edge-sharding");
                           return applyShardingConstraints(m, ctx.diags, opts);
                         }});
  out.push_back(passWithoutOptions("sdy-sharding-group-import",
                                   "Merge, renumber and check sharding groups",
                                   shardingGroupImport));

  // Calls.
  out.push_back(
      passWithoutOptions("sdy-propagate-sharding-from-func-to-call",
                         "Give calls without result shardings their callee's result shardings",
                         propagateShardingFromFuncToCall));
  out.push_back(passWithoutOptions(
      "sdy-flatten-call-graph", "Clone functions so that each is called once", flattenCallGraph));
  out.push_back(PassInfo{"sdy-import-func-calls",
                         "Turn calls into named computations",
                         {"add-data-flow-edges-on-named-computations"},
                         [](ir::Module& m, const PassOptions& o, PassContext& ctx) {
                           return importFuncCallsWithEdges(
                               m, ctx.diags, o.getBool("add-data-flow-edges-on-named-computations", true));
                         }});
  out.push_back(passWithoutOptions("sdy-add-func-data-flow-edges",
                                   "Add sdy.func_data_flow_edge ops after function arguments and call results",
                                   addFuncDataFlowEdges));
  out.push_back(
      passWithoutOptions("sdy-pre-order-funcs", "Order functions callers first", preOrderFuncs));
  out.push_back(passWithoutOptions("sdy-export-named-computations",
                                   "Turn named computations into functions and calls",
                                   exportNamedComputations));
  out.push_back(
      passWithoutOptions("sdy-propagate-to-func-results",
                         "Set result shardings of non-main functions from their returned values",
                         propagateToFuncResults));
  out.push_back(PassInfo{"sdy-unflatten-call-graph",
                         "Merge identical copies of functions",
                         {"dedup-functions-fully"},
                         [](ir::Module& m, const PassOptions& o, PassContext& ctx) {
                           UnflattenCallGraphOptions opts;
                           opts.dedupFunctionsFully = o.getBool("dedup-functions-fully");
                           return unflattenCallGraph(m, ctx.diags, opts);
                         }});
  out.push_back(
      passWithoutOptions("sdy-insert-func-call-reshards",
                         "Reshard call results that differ from their callee's result shardings",
                         insertFuncCallReshards));

  // Export.
  out.push_back(passWithoutOptions(
      "sdy-constant-or-scalar-merger",
      "Merge identical constants and scalar broadcasts within a region", constantOrScalarMerger));
  out.push_back(PassInfo{"sdy-sink-data-flow-edges",
                         "Move data-flow edge shardings onto their owners and erase the edges",
                         {"sink-debug-sharding-origins", "sink-debug-propagation-edge-sharding"},
                         [](ir::Module& m, const PassOptions& o, PassContext& ctx) {
                           SinkDataFlowEdgesOptions opts;
                           opts.sinkDebugShardingOrigins = o.getBool("sink-debug-sharding-origins");
                           opts.sinkDebugPropagationEdgeSharding =
                               o.getBool("sink-debug-propagation-edge-sharding");
                           return sinkDataFlowEdges(m, ctx.diags, opts);
                         }});
  out.push_back(passWithoutOptions("sdy-remove-sharding-groups", "Erase all sdy.sharding_group ops",
                                   removeShardingGroups));
  out.push_back(passWithoutOptions("sdy-sharding-constraint-to-reshard",
                                   "Turn sharding constraints into reshards",
                                   shardingConstraintToReshard));
  out.push_back(
      passWithoutOptions("sdy-update-non-divisible-input-output-shardings",
                         "Make function input/output shardings evenly divide their dimensions",
                         updateNonDivisibleInputOutputShardings));
  out.push_back(passWithoutOptions(
      "sdy-remove-sub-axes-in-input-output-shardings",
      "Remove sub-axes from the open dimensions of main's input/output shardings",
      removeSubAxesInInputOutputShardings));
  out.push_back(passWithoutOptions("sdy-close-shardings",
                                   "Close all shardings and drop replicated axes", closeShardings));
  out.push_back(PassInfo{"sdy-insert-explicit-reshards",
                         "Insert sdy.reshard and sdy.all_reduce ops so that every op has compatible shardings",
                         {"enable-full-version"},
                         [](ir::Module& m, const PassOptions& o, PassContext& ctx) {
                           InsertExplicitReshardsOptions opts;
                           opts.enableFullVersion = o.getBool("enable-full-version");
                           return insertExplicitReshards(m, ctx.diags, opts, ctx.reshardCauses);
                         }});
  out.push_back(passWithoutOptions("sdy-remove-propagation-debug-info",
                                   "Remove sharding origins and propagation edges attributes",
                                   removePropagationDebugInfo));
  out.push_back(passWithoutOptions("sdy-drop-sharding-rules",
                                   "Remove non-custom sdy.sharding_rule attributes",
                                   dropShardingRules));
}

}  // namespace shardscope::passes
