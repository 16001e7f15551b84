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
  registerExportPipeline(out);
}

}  // namespace shardscope::passes
