// Registration of the export passes declared in export_passes.h.
#include "passes/export_passes.h"

#include "passes/pass.h"

namespace shardscope::passes {

void registerExportPipeline(std::vector<PassInfo>& out);  // export_pipeline.cpp

void registerExportPasses(std::vector<PassInfo>& out) {
  out.push_back(passWithoutOptions(
      "sdy-sink-func-data-flow-edges",
      "Move func data-flow edge shardings onto arguments and call results, and erase the edges",
      sinkFuncDataFlowEdges));
  out.push_back(passWithoutOptions("sdy-drop-sharding-and-mesh", "Remove all shardings and meshes",
                                   dropShardingAndMesh));
  out.push_back(passWithoutOptions(
      "sdy-verify-unreduced-axes",
      "Check that no op drops or changes unreduced axes without a reshard", verifyUnreducedAxes));
  out.push_back(passWithoutOptions(
      "sdy-inline-meshes", "Inline meshes into shardings and erase mesh symbols", inlineMeshes));
  out.push_back(
      passWithoutOptions("sdy-remove-all-gather-reduce-scatter-for-cmv1",
                         "Remove all-gathers into and reduce-scatters out of dots (for CMv1)",
                         removeAllGatherReduceScatterForCmv1));
  out.push_back(PassInfo{
      "sdy-resolve-single-device-sharding",
      "Run single-device ops under a device check and all-reduce their results",
      {"replica-count", "partition-count"},
      [](ir::Module& m, const PassOptions& o, PassContext& ctx) {
        std::optional<int64_t> replicas = o.getInt("replica-count", 1);
        std::optional<int64_t> partitions = o.getInt("partition-count", 1);
        if (!replicas || !partitions) {
          ctx.diags.error(m.op->loc(), "replica-count and partition-count take whole numbers");
          return false;
        }
        return resolveSingleDeviceSharding(m, ctx.diags, *replicas, *partitions);
      }});
  registerExportPipeline(out);
}

}  // namespace shardscope::passes
