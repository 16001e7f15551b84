// `-sdy-sink-func-data-flow-edges`: the export side of add-func-data-flow-edges.
// Each `sdy.func_data_flow_edge` is replaced by its input, and what
// propagation found on the edge goes onto that input: onto the function's
// argument attributes for an edge on a block argument, onto the call's
// `sdy.sharding` for an edge on a call result.
//
//   %1 = call @bar(%0) : (...) -> tensor<8xf32>
//   %2 = sdy.func_data_flow_edge %1 {sdy.sharding = <@mesh, [{"a"}]>}
//     ->  %1 = call @bar(%0) {sdy.sharding = <@mesh, [{"a"}]>}
//
// An edge without a sharding leaves its input fully open (on the input's
// mesh) rather than keeping a sharding propagation never confirmed.
#include "passes/export_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

bool sinkFuncDataFlowEdges(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  if (!ir::Op::anyLive("sdy.func_data_flow_edge")) return true;
  std::vector<ir::Op*> edges;
  module.op->walk([&](ir::Op& op) {
    if (op.is("sdy.func_data_flow_edge")) edges.push_back(&op);
  });
  for (ir::Op* edge : edges) {
    if (edge->numOperands() != 1 || edge->numResults() != 1) continue;
    ir::Value* input = edge->operand(0);
    if (std::optional<TensorSharding> found = util::getSharding(edge->result(0))) {
      util::setSharding(input, *found);
    } else if (std::optional<TensorSharding> old = util::getSharding(input)) {
      util::setSharding(input, util::fullyOpen(old->mesh, old->rank()));
    }
    edge->result(0)->replaceAllUsesWith(input);
    util::eraseOp(edge);
  }
  return true;
}

}  // namespace shardscope::passes
