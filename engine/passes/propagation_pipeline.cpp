// `-sdy-propagation-pipeline`: import, user-priority propagation and export,
// in the order of the reference pipeline, composed from the registered
// passes so that each step stays testable on its own.
//
// Calls are handled one of two ways. By default (conservative) every function
// is copied per call, the copies are inlined as named computations for
// propagation and turned back into functions afterwards. With
// `dedup-functions-fully=true` (aggressive) functions stay as they are:
// func data-flow edges carry shardings across calls during propagation and
// are sunk afterwards.
#include <string>
#include <vector>

#include "passes/export_passes.h"
#include "passes/pass.h"

namespace shardscope::passes {

namespace {

// Which handling of calls (see above) a step belongs to.
enum class CallMode { Both, Conservative, Aggressive };

// One step of the pipeline: a registered pass and how its options derive
// from the pipeline's own.
struct Step {
  const char* pass;
  std::vector<std::pair<const char*, const char*>> forwarded;  // pipeline option -> pass option
  CallMode mode = CallMode::Both;
};

// The steps up to (and without) the export pipeline.
const std::vector<Step>& pipelineSteps() {
  static const std::vector<Step> steps = {
      {"symbol-dce", {}},
      {"sdy-lift-inlined-meshes", {}},
      {"sdy-remove-size-one-axes", {}},
      {"sdy-propagate-sharding-from-func-to-call", {}},
      {"sdy-constant-or-scalar-splitter", {}},
      {"symbol-dce", {}},
      {"sdy-manual-axes-cleanup", {}},
      {"sdy-add-data-flow-edges", {}},
      {"sdy-add-func-data-flow-edges", {}, CallMode::Aggressive},
      {"sdy-flatten-call-graph", {}, CallMode::Conservative},
      {"symbol-dce", {}, CallMode::Conservative},
      {"sdy-import-func-calls", {}, CallMode::Conservative},
      {"symbol-dce", {}, CallMode::Conservative},
      {"sdy-apply-sharding-constraints",
       {{"debug-sharding-origins", "debug-sharding-origins"},
        {"debug-propagation-edge-sharding", "debug-propagation-edge-sharding"}},
       CallMode::Conservative},
      {"sdy-sharding-group-import", {}, CallMode::Conservative},
      {"sdy-pre-order-funcs", {}},
      {"sdy-user-priority-propagate",
       {{"conservative-propagation", "conservative-propagation"},
        {"debug-sharding-origins", "debug-sharding-origins"},
        {"debug-propagation-edge-sharding", "debug-propagation-edge-sharding"},
        {"propagation-strategy", "propagation-strategy"}}},
      {"sdy-export-named-computations", {}, CallMode::Conservative},
      {"sdy-propagate-to-func-results", {}},
      {"sdy-sink-func-data-flow-edges", {}, CallMode::Aggressive},
      {"sdy-unflatten-call-graph", {}},
      {"symbol-dce", {}},
      {"sdy-insert-func-call-reshards", {}},
  };
  return steps;
}

bool runPipeline(ir::Module& module, const PassOptions& options, PassContext& ctx) {
  CallMode mode = options.getBool("dedup-functions-fully", false) ? CallMode::Aggressive
                                                                  : CallMode::Conservative;
  for (const Step& step : pipelineSteps()) {
    if (step.mode != CallMode::Both && step.mode != mode) continue;
    std::string name = step.pass;
    PassOptions stepOptions;
    for (const auto& [from, to] : step.forwarded)
      if (options.has(from)) stepOptions.values[to] = options.get(from);
    if (name == "sdy-user-priority-propagate") stepOptions.values["keep-sharding-rules"] = "true";
    if (!runPipelineStep(name, stepOptions, module, ctx)) return false;
  }
  ExportPipelineOptions exportOptions;
  exportOptions.keepShardingRules = options.getBool("keep-sharding-rules", false);
  exportOptions.dumpShardingOrigins = options.getBool("debug-sharding-origins", false);
  exportOptions.dumpPropagationEdges = options.getBool("debug-propagation-edge-sharding", false);
  exportOptions.enableInsertExplicitCollectives =
      options.getBool("enable-inserting-explicit-collectives", false);
  exportOptions.inlineMeshes = false;  // as sdy's registered pipeline
  return runExportPipeline(module, exportOptions, ctx);
}

}  // namespace

void registerPipelinePasses(std::vector<PassInfo>& out) {
  out.push_back(
      PassInfo{"sdy-propagation-pipeline",
               "Import, propagate (user priority > op priority > aggressive) and export",
               {"keep-sharding-rules", "conservative-propagation", "debug-sharding-origins",
                "debug-propagation-edge-sharding", "propagation-strategy", "module-dump-directory",
                "skip-inline", "enable-inserting-explicit-collectives", "dedup-functions-fully"},
               runPipeline});
}

}  // namespace shardscope::passes
