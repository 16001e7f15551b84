// `-sdy-add-data-flow-edges`: put an `sdy.data_flow_edge` after every
// data-flow edge owner so propagation has one op per edge.
//
//   %0:2 = stablehlo.while(...)          %0:2 = stablehlo.while(...)
//   return %0#0                    ->    %1 = sdy.data_flow_edge %0#0
//                                        %2 = sdy.data_flow_edge %0#1
//                                        return %1
#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

bool addDataFlowEdges(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  // Nothing to do without such ops; Op::anyLive answers that without a walk.
  if (!util::mayHaveShardableDataFlowOps()) return true;
  std::vector<ir::Op*> dataFlowOps;
  module.op->walk([&](ir::Op& op) {
    if (util::isShardableDataFlowOp(op)) dataFlowOps.push_back(&op);
  });
  for (ir::Op* op : dataFlowOps) {
    util::addDataFlowEdgesFor(util::blockArgEdgeOwners(*op));
    util::addDataFlowEdgesFor(util::resultEdgeOwners(*op));
  }
  return true;
}

}  // namespace shardscope::passes
