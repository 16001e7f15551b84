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

namespace {

// Inserts edges for `owners`, in their order, right after each owner.
void addEdges(const std::vector<ir::Value*>& owners) {
  // Walk backwards: each edge goes right after its owner, so going backwards
  // keeps the edges of consecutive owners in owner order.
  for (auto it = owners.rbegin(); it != owners.rend(); ++it) {
    ir::Value* owner = *it;
    if (!util::isStaticShaped(owner->type)) continue;  // tokens, dynamic shapes
    ir::Op* ownerOp = util::owningOp(owner);
    auto edge = std::make_unique<ir::Op>("sdy.data_flow_edge", ownerOp ? ownerOp->loc() : ir::SourceLoc{});
    edge->addOperand(owner);
    edge->addResult(owner->type);
    if (auto sharding = util::getSharding(owner)) edge->setAttr("sharding", *sharding, true);
    ir::Op* inserted = nullptr;
    if (owner->definingOp) {
      inserted = owner->definingOp->parentBlock()->insertAfter(owner->definingOp, std::move(edge));
    } else {
      ir::Block* block = owner->ownerBlock;
      ir::Op* first = block->empty() ? nullptr : block->ops().front().get();
      inserted = block->insertBefore(first, std::move(edge));
    }
    ir::Value* result = inserted->result(0);
    owner->replaceUsesWithIf(result, [&](const ir::Use& use) { return use.user != inserted; });
  }
}

}  // namespace

bool addDataFlowEdges(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  std::vector<ir::Op*> dataFlowOps;
  module.op->walk([&](ir::Op& op) {
    if (util::isShardableDataFlowOp(op)) dataFlowOps.push_back(&op);
  });
  for (ir::Op* op : dataFlowOps) {
    addEdges(util::blockArgEdgeOwners(*op));
    addEdges(util::resultEdgeOwners(*op));
  }
  return true;
}

}  // namespace shardscope::passes
