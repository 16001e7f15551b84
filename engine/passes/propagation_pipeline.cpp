// `-sdy-propagation-pipeline`: import, user-priority propagation and export,
// in the order of the reference pipeline, composed from the registered
// passes so that each step stays testable on its own.
#include "passes/propagation_pipeline.h"

#include <chrono>
#include <string>
#include <vector>

namespace shardscope::passes {

namespace {

// The pipeline's propagation pass.
constexpr const char* kPropagationStep = "sdy-user-priority-propagate";

// One step of the pipeline: a registered pass and how its options derive
// from the pipeline's own.
struct Step {
  const char* pass;
  std::vector<std::pair<const char*, const char*>> forwarded;  // pipeline option -> pass option
};

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
      {"sdy-flatten-call-graph", {}},
      {"symbol-dce", {}},
      {"sdy-import-func-calls", {}},
      {"symbol-dce", {}},
      {"sdy-apply-sharding-constraints",
       {{"debug-sharding-origins", "debug-sharding-origins"},
        {"debug-propagation-edge-sharding", "debug-propagation-edge-sharding"}}},
      {"sdy-sharding-group-import", {}},
      {"sdy-pre-order-funcs", {}},
      {"sdy-user-priority-propagate",
       {{"conservative-propagation", "conservative-propagation"},
        {"debug-sharding-origins", "debug-sharding-origins"},
        {"debug-propagation-edge-sharding", "debug-propagation-edge-sharding"},
        {"propagation-strategy", "propagation-strategy"}}},
      {"sdy-export-named-computations", {}},
      {"sdy-propagate-to-func-results", {}},
      {"sdy-unflatten-call-graph", {}},
      {"symbol-dce", {}},
      {"sdy-insert-func-call-reshards", {}},
      {"sdy-constant-or-scalar-merger", {}},
      {"sdy-sink-data-flow-edges",
       {{"debug-sharding-origins", "sink-debug-sharding-origins"},
        {"debug-propagation-edge-sharding", "sink-debug-propagation-edge-sharding"}}},
      {"sdy-remove-sharding-groups", {}},
      {"sdy-sharding-constraint-to-reshard", {}},
      {"sdy-update-non-divisible-input-output-shardings", {}},
      {"sdy-remove-sub-axes-in-input-output-shardings", {}},
      {"sdy-close-shardings", {}},
      {"sdy-insert-explicit-reshards", {}},
      {"canonicalize", {}},
      {"sdy-remove-propagation-debug-info", {}},
      {"sdy-drop-sharding-rules", {}},
  };
  return steps;
}

bool runPipeline(ir::Module& module, const PassOptions& options, PassContext& ctx) {
  for (const PipelineStep& step : propagationPipelineSteps(options)) {
    auto start = std::chrono::steady_clock::now();
    bool ok = step.pass->run(module, step.options, ctx) && !ctx.diags.hasErrors();
    if (ctx.timings)
      ctx.timings->push_back(
          {step.pass->name,
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1});
    if (!ok) return false;
  }
  return true;
}

}  // namespace

std::vector<PipelineStep> propagationPipelineSteps(const PassOptions& options) {
  const bool keepRules = options.getBool("keep-sharding-rules", false);
  std::vector<PipelineStep> out;
  for (const Step& step : pipelineSteps()) {
    const std::string name = step.pass;
    if (name == "sdy-drop-sharding-rules" && keepRules) continue;
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
  return out;
}

void registerPipelinePasses(std::vector<PassInfo>& out) {
  out.push_back(PassInfo{"sdy-propagation-pipeline",
                         "Import, propagate (user priority > op priority > aggressive) and export",
                         {"keep-sharding-rules", "conservative-propagation", "debug-sharding-origins",
                          "debug-propagation-edge-sharding", "propagation-strategy", "module-dump-directory",
                          "skip-inline", "enable-inserting-explicit-collectives"},
                         runPipeline});
}

}  // namespace shardscope::passes
