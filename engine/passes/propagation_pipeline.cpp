// `-sdy-propagation-pipeline`: import, user-priority propagation and export,
// in the order of the reference pipeline, composed from the registered
// passes so that each step stays testable on its own.
//
// Calls are handled one of two ways. By default (conservative) every function
// is copied per call, the copies are inlined as named computations for
// propagation and turned back into functions afterwards. With
// `dedup-functions-fully=true` (aggressive) functions stay as they are:
// func data-flow edges carry shardings across calls during propagation and
// are sunk afterwards. Both start with the import pipeline (import_pipeline.h).
#include "passes/propagation_pipeline.h"

#include <string>
#include <vector>

#include "passes/export_passes.h"
#include "passes/import_pipeline.h"
#include "passes/module_dump.h"

namespace shardscope::passes {

namespace {

// The pipeline's propagation pass.
constexpr const char* kPropagationStep = "sdy-user-priority-propagate";

// Which handling of calls (see above) a step belongs to.
enum class CallMode { Both, Conservative, Aggressive };

// One step of the pipeline: a registered pass and how its options derive
// from the pipeline's own.
struct Step {
  const char* pass;
  std::vector<std::pair<const char*, const char*>> forwarded;  // pipeline option -> pass option
  CallMode mode = CallMode::Both;
};

// The steps after the import pipeline (import_pipeline.h) and before the
// export pipeline.
const std::vector<Step>& pipelineSteps() {
  static const std::vector<Step> steps = {
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
        {"propagation-strategy", "propagation-strategy"},
        {"module-dump-directory", "module-dump-directory"}}},
      {"sdy-export-named-computations", {}, CallMode::Conservative},
      {"sdy-propagate-to-func-results", {}},
      {"sdy-sink-func-data-flow-edges", {}, CallMode::Aggressive},
      {"sdy-unflatten-call-graph", {}},
      {"symbol-dce", {}},
      {"sdy-insert-func-call-reshards", {}},
  };
  return steps;
}

// The pass after which the module is dumped as `01.before_propagation`
// (the import cleanups are done, the propagation's own imports not yet).
constexpr const char* kBeforePropagationDumpAfter = "sdy-manual-axes-cleanup";

bool runPipeline(ir::Module& module, const PassOptions& options, PassContext& ctx) {
  const std::string dumpDirectory = options.get("module-dump-directory");
  bool dumpedBefore = false;
  // Shardy's dump index: 1 for the module before propagation, then 2 for
  // the user-priority dumps and the export's first dump.
  const std::optional<int> outerIndex = ctx.moduleDumpIndex;
  for (const PipelineStep& step : propagationPipelineSteps(options)) {
    // The export pipeline times its own steps.
    const bool ok = step.nested ? step.pass->run(module, step.options, ctx) && !ctx.diags.hasErrors()
                                : runPipelineStep(step.pass->name, step.options, module, ctx);
    if (!ok) {
      ctx.moduleDumpIndex = outerIndex;
      return false;
    }
    if (!dumpDirectory.empty() && !dumpedBefore && step.pass->name == kBeforePropagationDumpAfter) {
      saveModuleDump(module, dumpDirectory, "before_propagation", 1, ctx.diags);
      dumpedBefore = true;
      ctx.moduleDumpIndex = 2;
    }
  }
  ctx.moduleDumpIndex = outerIndex;
  return true;
}

}  // namespace

std::vector<PipelineStep> propagationPipelineSteps(const PassOptions& options) {
  const CallMode mode = options.getBool("dedup-functions-fully", false) ? CallMode::Aggressive
                                                                        : CallMode::Conservative;
  std::vector<PipelineStep> out;
  ImportPipelineOptions importOptions;
  importOptions.dedupFunctionsFully = mode == CallMode::Aggressive;
  importOptions.debugShardingOrigins = options.getBool("debug-sharding-origins", false);
  importOptions.debugPropagationEdgeSharding =
      options.getBool("debug-propagation-edge-sharding", false);
  for (auto& [name, passOptions] : importPipelinePasses(importOptions)) {
    const PassInfo* info = lookupPass(name);
    if (!info) continue;  // a step this build does not provide yet
    PipelineStep s;
    s.pass = info;
    s.options = std::move(passOptions);
    out.push_back(std::move(s));
  }
  for (const Step& step : pipelineSteps()) {
    if (step.mode != CallMode::Both && step.mode != mode) continue;
    const std::string name = step.pass;
    const PassInfo* info = lookupPass(name);
    if (!info) continue;  // a step this build does not provide yet
    PipelineStep s;
    s.pass = info;
    for (const auto& [from, to] : step.forwarded)
      if (options.has(from)) s.options.values[to] = options.get(from);
    if (name == kPropagationStep) {
      s.options.values["keep-sharding-rules"] = "true";
      s.propagates = true;
    }
    out.push_back(std::move(s));
  }
  // Then the export pipeline, with the pipeline's options in its words.
  if (const PassInfo* exportPipeline = lookupPass("sdy-export-pipeline")) {
    PipelineStep s;
    s.pass = exportPipeline;
    s.nested = true;
    auto forward = [&](const char* from, const char* to) {
      s.options.values[to] = options.getBool(from, false) ? "true" : "false";
    };
    forward("keep-sharding-rules", "keep-sharding-rules");
    forward("debug-sharding-origins", "dump-sharding-origins");
    forward("debug-propagation-edge-sharding", "dump-propagation-edges");
    forward("enable-inserting-explicit-collectives", "enable-insert-explicit-collectives");
    s.options.values["inline-meshes"] = "false";  // as sdy's registered pipeline
    if (options.has("module-dump-directory"))
      s.options.values["dump-directory"] = options.get("module-dump-directory");
    out.push_back(std::move(s));
  }
  return out;
}

void registerImportPipeline(std::vector<PassInfo>& out);  // import_pipeline.cpp

void registerPipelinePasses(std::vector<PassInfo>& out) {
  registerImportPipeline(out);
  out.push_back(
      PassInfo{"sdy-propagation-pipeline",
               "Import, propagate (user priority > op priority > aggressive) and export",
               {"keep-sharding-rules", "conservative-propagation", "debug-sharding-origins",
                "debug-propagation-edge-sharding", "propagation-strategy", "module-dump-directory",
                "skip-inline", "enable-inserting-explicit-collectives", "dedup-functions-fully"},
               runPipeline});
}

}  // namespace shardscope::passes
