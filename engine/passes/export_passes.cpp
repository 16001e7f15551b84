// Registration of the export passes declared in export_passes.h.
#include "passes/export_passes.h"

#include "passes/pass.h"

namespace shardscope::passes {

namespace {

// A pass without options.
PassInfo withoutOptions(std::string name, std::string summary,
                        bool (*fn)(ir::Module&, ir::DiagnosticSink&)) {
  return PassInfo{std::move(name), std::move(summary), {},
                  [fn](ir::Module& m, const PassOptions&, PassContext& ctx) { return fn(m, ctx.diags); }};
}

}  // namespace

void registerExportPasses(std::vector<PassInfo>& out) {
  out.push_back(withoutOptions("sdy-sink-func-data-flow-edges",
                               "Move func data-flow edge shardings onto arguments and call results, "
                               "and erase the edges",
                               sinkFuncDataFlowEdges));
}

}  // namespace shardscope::passes
