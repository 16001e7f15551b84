// The sdy export passes that run after propagation (beyond those the
// propagation pipeline already ends with, see import_passes.h), as plain
// functions over a module. Each lives in its own file; `registerExportPasses`
// (export_passes.cpp) exposes them under their sdy_opt names, with
// `-sdy-export-pipeline` composing them.
//
// Every function returns false when the pass failed; the reason is reported
// to `diags` at the location of the offending op.
#pragma once
#include <string>
#include <vector>

#include "ir/diagnostics.h"
#include "ir/operation.h"
#include "passes/pass.h"

namespace shardscope::passes {

// `-sdy-sink-func-data-flow-edges`: replace each `sdy.func_data_flow_edge` by
// its input, moving the edge's sharding onto the function argument or call
// result it stands for (fully open when the edge has none).
bool sinkFuncDataFlowEdges(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-drop-sharding-and-mesh`: remove every `sdy.sharding` (ops, function
// arguments and results) and every `sdy.mesh`.
bool dropShardingAndMesh(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-verify-unreduced-axes`: report the first op of each function that
// drops, adds or changes unreduced axes in a way it may not (only explicit
// reshards reduce; calls and returns must match their other side).
bool verifyUnreducedAxes(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-inline-meshes`: write each referenced mesh inline in its shardings
// (and replica groups) and erase the `sdy.mesh` symbols.
bool inlineMeshes(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-remove-all-gather-reduce-scatter-for-cmv1`: drop an all-gather whose
// only user is a dot, or else a reduce-scatter that is a dot's only user (the
// dot takes its sharding).
bool removeAllGatherReduceScatterForCmv1(ir::Module& module, ir::DiagnosticSink& diags);

// `-sdy-resolve-single-device-sharding`: ops whose results live on a single
// device run under a `stablehlo.if` on that device's id; an all-reduce over
// the module's mesh gives every device the value.
bool resolveSingleDeviceSharding(ir::Module& module, ir::DiagnosticSink& diags,
                                 int64_t replicaCount = 1, int64_t partitionCount = 1);

// The options of `-sdy-export-pipeline` (as sdy names them).
struct ExportPipelineOptions {
  bool avoidExportForPartitioning = false;
  bool enableInsertExplicitCollectives = false;
  bool removeAllGatherReduceScatterForCmv1 = false;
  bool enablePerInstructionPartitioning = false;  // accepted; not performed
  bool keepShardingRules = false;
  bool dumpShardingOrigins = false;
  bool dumpPropagationEdges = false;
  bool updateNonDivisibleInputOutputShardings = true;
  bool inlineMeshes = true;
  std::string dumpDirectory;  // module dumps (module_dump.h); empty: none

  static ExportPipelineOptions from(const PassOptions& options);
  // Every option key the pipeline accepts.
  static const std::vector<std::string>& keys();
};
// `-sdy-export-pipeline` (export_pipeline.cpp has the order of the steps).
bool runExportPipeline(ir::Module& module, const ExportPipelineOptions& options, PassContext& ctx);

}  // namespace shardscope::passes
