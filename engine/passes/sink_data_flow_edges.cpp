// `-sdy-sink-data-flow-edges`: the inverse of add-data-flow-edges. The
// sharding found on each `sdy.data_flow_edge` goes back onto its owner (the
// op's `sdy.sharding`, or a manual/named computation's in/out shardings) and
// the edges are replaced by their inputs.
//
// With `sink-debug-sharding-origins` / `sink-debug-propagation-edge-sharding`
// the edges' `sdy.sharding_origins` / `sdy.propagation_edges` are collected
// into `sdy.{block_arg,result}_{sharding_origins,propagation_edges}` arrays on
// the owning op.
#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {

void setBlockArgOwnerShardings(ir::Op& op, const std::vector<TensorSharding>& shardings) {
  if (op.is("sdy.manual_computation")) {
    std::vector<TensorSharding> in = util::inShardingsOf(op);
    std::vector<std::string> manual = util::manualAxesOf(op);
    for (size_t i = 0; i < in.size() && i < shardings.size(); ++i)
      in[i] = util::addFreeAxesToManualSharding(in[i], shardings[i], manual);
    util::setInShardings(op, in);
  } else if (op.is("sdy.named_computation")) {
    util::setInShardings(op, shardings);
  }
}

void setResultOwnerShardings(ir::Op& op, const std::vector<TensorSharding>& shardings) {
  if (op.is("sdy.manual_computation") || op.is("sdy.named_computation"))
    util::setOutShardings(op, shardings);
  else
    op.setAttr(util::kShardingAttr, TensorShardingPerValue{shardings});
}

void saveDebugInfo(const std::vector<ir::Value*>& owners, ir::Op& op, const SinkDataFlowEdgesOptions& o,
                   bool blockArgs) {
  if (!o.sinkDebugShardingOrigins && !o.sinkDebugPropagationEdgeSharding) return;
  std::vector<ir::Attribute> origins, edges;
  for (ir::Value* owner : owners) {
    ir::Op* edge = util::dataFlowEdgeUser(owner);
    if (!edge) continue;
    if (o.sinkDebugShardingOrigins)
      if (const ir::Attribute* a = edge->attr(util::kShardingOriginsAttr))
        if (a->dict()) origins.push_back(*a);
    if (o.sinkDebugPropagationEdgeSharding)
      if (const ir::Attribute* a = edge->attr(util::kPropagationEdgesAttr)) {
        bool empty = (a->array() && a->array()->elems.empty()) || (a->dict() && a->dict()->entries.empty());
        if (!empty) edges.push_back(*a);
      }
  }
  if (o.sinkDebugShardingOrigins)
    op.setAttr(blockArgs ? util::kBlockArgShardingOriginsAttr : util::kResultShardingOriginsAttr,
               ir::Attribute::makeArray(std::move(origins)));
  if (o.sinkDebugPropagationEdgeSharding)
    op.setAttr(blockArgs ? util::kBlockArgPropagationEdgesAttr : util::kResultPropagationEdgesAttr,
               ir::Attribute::makeArray(std::move(edges)));
}

}  // namespace

bool sinkDataFlowEdges(ir::Module& module, ir::DiagnosticSink& diags,
                       const SinkDataFlowEdgesOptions& options) {
  (void)diags;
  // Owners come before their edges in pre-order, so the shardings are read
  // before any edge is erased.
  // Nothing to do without such ops; Op::anyLive answers that without a walk.
  if (!ir::Op::anyLive("sdy.data_flow_edge") && !util::mayHaveShardableDataFlowOps()) return true;
  std::vector<ir::Op*> ops;
  module.op->walk([&](ir::Op& op) {
    if (op.is("sdy.data_flow_edge") || util::isShardableDataFlowOp(op)) ops.push_back(&op);
  });
  for (ir::Op* op : ops) {
    if (op->is("sdy.data_flow_edge")) {
      if (op->numOperands() == 1 && op->numResults() == 1) {
        op->result(0)->replaceAllUsesWith(op->operand(0));
        util::eraseOp(op);
      }
      continue;
    }
    std::vector<ir::Value*> argOwners = util::blockArgEdgeOwners(*op);
    std::vector<TensorSharding> argShardings = util::shardingsFromEdges(argOwners);
    if (!argShardings.empty()) setBlockArgOwnerShardings(*op, argShardings);
    saveDebugInfo(argOwners, *op, options, /*blockArgs=*/true);

    std::vector<ir::Value*> resultOwners = util::resultEdgeOwners(*op);
    std::vector<TensorSharding> resultShardings = util::shardingsFromEdges(resultOwners);
    if (!resultShardings.empty()) setResultOwnerShardings(*op, resultShardings);
    saveDebugInfo(resultOwners, *op, options, /*blockArgs=*/false);
  }
  return true;
}

}  // namespace shardscope::passes
