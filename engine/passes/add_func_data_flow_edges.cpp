// `-sdy-add-func-data-flow-edges` (see import_passes.h): the edges that let
// propagation cross function boundaries without inlining. Each argument of a
// function other than the main one, and each call result, is read through an
// `sdy.func_data_flow_edge` that holds its sharding:
//
//   func.func @bar(%arg0: tensor<8xf32>) -> tensor<8xf32> {
//     %0 = sdy.func_data_flow_edge %arg0 : tensor<8xf32>
//     %1 = stablehlo.negate %0 : tensor<8xf32>
//   ...
//   %1 = call @bar(%0) : (tensor<8xf32>) -> tensor<8xf32>
//   %2 = sdy.func_data_flow_edge %1 : tensor<8xf32>
//
// Values that are not static-shaped tensors (tokens) get no edge.
#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {

// A new edge reading `value`, in place of it for every other user.
std::unique_ptr<ir::Op> makeEdge(ir::Value* value, ir::SourceLoc loc) {
  std::optional<TensorSharding> sharding = util::getSharding(value);
  auto edge = std::make_unique<ir::Op>("sdy.func_data_flow_edge", loc);
  edge->addOperand(value);
  edge->addResult(value->type);
  if (sharding) edge->setAttr(util::kShardingAttr, TensorShardingPerValue{{*sharding}});
  return edge;
}

void redirectUsesToEdge(ir::Value* value, ir::Op* edge) {
  value->replaceUsesWithIf(edge->result(0), [edge](const ir::Use& use) { return use.user != edge; });
}

}  // namespace

bool addFuncDataFlowEdges(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  const ir::Op* mainFunc = util::mainFunction(module);
  std::vector<ir::Op*> funcs, calls;
  module.op->walk([&](ir::Op& op) {
    if (util::isFuncOp(op) && &op != mainFunc && op.numRegions() && !op.region(0).empty())
      funcs.push_back(&op);
    if (util::isCallOp(op)) calls.push_back(&op);
  });
  for (ir::Op* func : funcs) {
    ir::Block& entry = func->region(0).front();
    ir::Op* first = entry.empty() ? nullptr : entry.ops().front().get();
    for (ir::Value* arg : entry.arguments()) {
      if (!util::isStaticShaped(arg->type)) continue;
      std::unique_ptr<ir::Op> edge = makeEdge(arg, func->loc());
      ir::Op* placed = first ? entry.insertBefore(first, std::move(edge)) : entry.append(std::move(edge));
      redirectUsesToEdge(arg, placed);
    }
  }
  for (ir::Op* call : calls) {
    ir::Op* after = call;
    for (ir::Value* result : call->results()) {
      if (!util::isStaticShaped(result->type)) continue;
      after = call->parentBlock()->insertAfter(after, makeEdge(result, call->loc()));
      redirectUsesToEdge(result, after);
    }
  }
  return true;
}

}  // namespace shardscope::passes
