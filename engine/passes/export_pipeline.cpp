// `-sdy-export-pipeline`: what runs after propagation, in the reference's
// order, composed from the registered passes:
//
//   constant merger, sink data-flow edges
//   [remove sharding groups, constraints -> reshards]        unless avoid-export-for-partitioning
//   [non-divisible and sub-axis fixes of main's in/out] update-non-divisible-input-output-shardings
//   close shardings
//   [verify unreduced axes, insert explicit reshards,         unless avoid-export-for-partitioning
//    (reshards -> collectives with enable-insert-explicit-collectives), canonicalize,
//    (remove all-gather/reduce-scatter around dots for CMv1)]
//   [remove propagation debug info]                          when dumping origins or edges
//   [drop sharding rules]                                     unless keep-sharding-rules
//   [inline meshes]                                           inline-meshes, unless avoid-export...
//
// The canonicalizer runs restricted to sdy's reshard / collective patterns,
// as in sdy (MLIR's `enable-patterns` with sdy's pattern labels).
// With `dump-directory` the module is dumped after closing the shardings
// (`NN.after_propagation`), after the explicit reshards when collectives
// follow, and at the end of the partitioner steps (module_dump.h), NN
// counting from 0 or from the propagation pipeline's index. Per-instruction
// partitioning is accepted but not performed. A step whose pass this build
// lacks is skipped.
#include "passes/export_passes.h"
#include "passes/module_dump.h"
#include "passes/pass.h"

namespace shardscope::passes {

ExportPipelineOptions ExportPipelineOptions::from(const PassOptions& o) {
  ExportPipelineOptions out;
  out.avoidExportForPartitioning = o.getBool("avoid-export-for-partitioning", false);
  out.enableInsertExplicitCollectives = o.getBool("enable-insert-explicit-collectives", false);
  out.removeAllGatherReduceScatterForCmv1 =
      o.getBool("remove-all-gather-reduce-scatter-for-cmv1", false);
  out.enablePerInstructionPartitioning = o.getBool("enable-per-instruction-partitioning", false);
  out.keepShardingRules = o.getBool("keep-sharding-rules", false);
  out.dumpShardingOrigins = o.getBool("dump-sharding-origins", false);
  out.dumpPropagationEdges = o.getBool("dump-propagation-edges", false);
  out.updateNonDivisibleInputOutputShardings =
      o.getBool("update-non-divisible-input-output-shardings", true);
  out.inlineMeshes = o.getBool("inline-meshes", true);
  out.dumpDirectory = o.get("dump-directory");
  return out;
}

const std::vector<std::string>& ExportPipelineOptions::keys() {
  static const std::vector<std::string> keys = {"replica-count",
                                                "partition-count",
                                                "dump-directory",
                                                "avoid-export-for-partitioning",
                                                "enable-insert-explicit-collectives",
                                                "remove-all-gather-reduce-scatter-for-cmv1",
                                                "enable-per-instruction-partitioning",
                                                "per-instruction-partitioning-filter",
                                                "keep-sharding-rules",
                                                "dump-sharding-origins",
                                                "dump-propagation-edges",
                                                "avoid-reshards-on-calls",
                                                "update-non-divisible-input-output-shardings",
                                                "inline-meshes"};
  return keys;
}

bool runExportPipeline(ir::Module& module, const ExportPipelineOptions& o, PassContext& ctx) {
  auto step = [&](const char* pass, PassOptions options = {}) {
    return runPipelineStep(pass, options, module, ctx);
  };
  auto flag = [](bool value) { return value ? "true" : "false"; };

  if (!step("sdy-constant-or-scalar-merger")) return false;
  if (!step("sdy-sink-data-flow-edges",
            {{{"sink-debug-sharding-origins", flag(o.dumpShardingOrigins)},
              {"sink-debug-propagation-edge-sharding", flag(o.dumpPropagationEdges)}}}))
    return false;
  if (!o.avoidExportForPartitioning)
    if (!step("sdy-remove-sharding-groups") || !step("sdy-sharding-constraint-to-reshard"))
      return false;
  if (o.updateNonDivisibleInputOutputShardings)
    if (!step("sdy-update-non-divisible-input-output-shardings") ||
        !step("sdy-remove-sub-axes-in-input-output-shardings"))
      return false;
  if (!step("sdy-close-shardings")) return false;
  int dumpIndex = ctx.moduleDumpIndex.value_or(0);
  auto dump = [&](const char* name) {
    saveModuleDump(module, o.dumpDirectory, name, dumpIndex++, ctx.diags);
  };
  dump("after_propagation");

  if (!o.avoidExportForPartitioning) {
    if (!step("sdy-verify-unreduced-axes")) return false;
    bool fullReshards = o.enableInsertExplicitCollectives || o.enablePerInstructionPartitioning;
    if (!step("sdy-insert-explicit-reshards", {{{"enable-full-version", flag(fullReshards)}}}))
      return false;
    if (!o.enablePerInstructionPartitioning && o.enableInsertExplicitCollectives) {
      dump("after_explicit_reshards");
      if (!step("canonicalize", {{{"enable-patterns", "sdy-reshard"}}}) || !step("sdy-reshard-to-collectives"))
        return false;
    }
    if (!step("canonicalize", {{{"enable-patterns", "sdy-collective"}}})) return false;
    if (o.enableInsertExplicitCollectives && o.removeAllGatherReduceScatterForCmv1)
      if (!step("sdy-remove-all-gather-reduce-scatter-for-cmv1")) return false;
    dump(o.enableInsertExplicitCollectives ? "after_partitioner_with_global_shapes"
                                           : "after_minimal_partitioner_with_global_shapes");
  }
  if (o.dumpPropagationEdges || o.dumpShardingOrigins)
    if (!step("sdy-remove-propagation-debug-info")) return false;
  if (!o.keepShardingRules)
    if (!step("sdy-drop-sharding-rules")) return false;
  if (!o.avoidExportForPartitioning && o.inlineMeshes)
    if (!step("sdy-inline-meshes")) return false;
  return true;
}

void registerExportPipeline(std::vector<PassInfo>& out) {
  out.push_back(PassInfo{"sdy-export-pipeline", "Export passes run after propagation",
                         ExportPipelineOptions::keys(),
                         [](ir::Module& m, const PassOptions& o, PassContext& ctx) {
                           return runExportPipeline(m, ExportPipelineOptions::from(o), ctx);
                         }});
}

}  // namespace shardscope::passes
