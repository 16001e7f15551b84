// Registration of the export passes declared in export_passes.h.
#include "passes/export_passes.h"

#include "passes/pass.h"

namespace shardscope::passes {

void registerExportPasses(std::vector<PassInfo>& out) {
  out.push_back(
      passWithoutOptions("sdy-sink-func-data-flow-edges",
                         "Move func data-flow edge shardings onto arguments and call results, "
                         "and erase the edges",
                         sinkFuncDataFlowEdges));
}

}  // namespace shardscope::passes
