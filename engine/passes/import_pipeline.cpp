// `-sdy-import-pipeline` (see import_pipeline.h).
#include "passes/import_pipeline.h"

namespace shardscope::passes {

namespace {

const char* flag(bool on) { return on ? "true" : "false"; }

}  // namespace

std::vector<std::pair<std::string, PassOptions>> importPipelinePasses(
    const ImportPipelineOptions& options) {
  std::vector<std::pair<std::string, PassOptions>> out;
  auto add = [&](const char* pass, PassOptions passOptions = {}) {
    out.emplace_back(pass, std::move(passOptions));
  };
  add("symbol-dce");
  add("sdy-lift-inlined-meshes");
  add("sdy-remove-size-one-axes");
  add("sdy-propagate-sharding-from-func-to-call");
  add("sdy-constant-or-scalar-splitter");
  if (options.enableExplicitGatherScatterBatching) add("sdy-explicit-gather-scatter-batching");
  add("symbol-dce");
  add("sdy-manual-axes-cleanup");
  add("sdy-add-data-flow-edges");
  if (options.dedupFunctionsFully) {
    // Constraints are applied before groups are imported, so that a group
    // sees the shardings its members got from their constraints.
    PassOptions constraints;
    constraints.values["debug-sharding-origins"] = flag(options.debugShardingOrigins);
    constraints.values["debug-propagation-edge-sharding"] =
        flag(options.debugPropagationEdgeSharding);
    add("sdy-apply-sharding-constraints", std::move(constraints));
    add("sdy-sharding-group-import");
  }
  return out;
}

void registerImportPipeline(std::vector<PassInfo>& out) {
  out.push_back(PassInfo{"sdy-import-pipeline",
                         "Run the import passes that prepare a module for Shardy propagation",
                         {"dedup-functions-fully"},
                         [](ir::Module& module, const PassOptions& o, PassContext& ctx) {
                           ImportPipelineOptions options;
                           options.dedupFunctionsFully = o.getBool("dedup-functions-fully", false);
                           for (const auto& [pass, passOptions] : importPipelinePasses(options))
                             if (!runPipelineStep(pass, passOptions, module, ctx)) return false;
                           return true;
                         }});
}

}  // namespace shardscope::passes
