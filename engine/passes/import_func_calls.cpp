// `-sdy-import-func-calls`: each call becomes an `sdy.named_computation` named
// after the callee's original name, holding the callee's body:
//
//   %1 = call @foo(%0)           %1 = sdy.named_computation<"foo">(%0) (%arg1: ...) {
//                         ->       ...
//                                  sdy.return ...
//                                }
//
// In shardings come from the callee's arguments, out shardings from the
// call's `sdy.sharding`; other discardable attributes of the call are kept.
// The first call of a function takes its body; later calls copy it. The
// copy is warned about once per process, as sdy_opt does (over all the
// modules of a `-split-input-file` run, not once per module). Imported functions are erased, and data-flow edges are added for
// the new named computations. A recursive call is an error, and so is a
// call graph too large to copy (see ir::checkFlattenable).
#include <atomic>
#include <map>

#include "ir/call_graph.h"
#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {
// Whether this process has warned about a body copied for a second call.
std::atomic<bool> warnedAboutCopiedBody{false};
}  // namespace

bool importFuncCallsWithEdges(ir::Module& module, ir::DiagnosticSink& diags,
                              bool addDataFlowEdgesOnNamedComputations) {
  // A function calling itself would be moved into its own body, and a body
  // is copied for each further call, as flattening does.
  if (util::mayHaveCalls() && !ir::checkFlattenable(ir::CallGraph(module), diags)) return false;
  util::SymbolTable symbols(module);
  std::map<std::string, ir::Op*> movedInto;  // callee -> named computation holding its body
  std::vector<std::string> order;
  util::walkCalls(module, [&](ir::Op& call) {
    std::string calleeName = util::calleeOf(call);
    ir::Op* func = symbols.lookupFunc(calleeName);
    if (!func) {
      diags.error(call.loc(), "Failed to lookup function: " + calleeName);
      return;
    }
    auto nc = std::make_unique<ir::Op>("sdy.named_computation", call.loc());
    nc->setLocation(call.location());
    for (ir::Value* v : call.operands()) nc->addOperand(v);
    for (ir::Value* r : call.resultRange()) nc->addResult(r->type);
    nc->setAttr("name", ir::StringAttr{util::originalFuncName(*func)}, true);
    if (auto in = util::funcArgShardings(module, *func)) nc->setAttr("in_shardings", TensorShardingPerValue{*in}, true);
    if (auto out = util::shardingPerValue(call)) nc->setAttr("out_shardings", TensorShardingPerValue{*out}, true);
    for (const ir::Op::Attr& a : call.attrs())
      if (!a.inherent && a.name != util::kShardingAttr) nc->setAttr(a.name, a.value);
    if (const ir::Attribute* thread = func->attr("execution_thread")) nc->setAttr("execution_thread", *thread);
    ir::Region& region = nc->addRegion();
    auto it = movedInto.find(calleeName);
    if (it != movedInto.end()) {
      if (!warnedAboutCopiedBody.exchange(true))
        diags.warning(call.loc(), "function @" + calleeName +
                                      " has multiple call ops, we need to clone the function body for each call");
      util::ValueMap map;
      const ir::Block& src = it->second->region(0).front();
      ir::Block& dst = region.addBlock();
      for (ir::Value* arg : src.arguments()) {
        ir::Value* n = dst.addArgument(arg->type);
        n->sourceName = arg->sourceName;
        n->loc = arg->loc;
        dst.setArgumentLocation(n->index, src.argumentLocation(arg->index));
        map[arg] = n;
      }
      for (const auto& op : src.ops()) dst.append(util::cloneOp(*op, map));
    } else if (func->numRegions() > 0) {
      util::moveBody(func->region(0), region);
      if (ir::Op* term = region.front().terminator(); term && util::isReturnOp(*term)) term->setName("sdy.return");
    }
    ir::Op* inserted = call.parentBlock()->insertBefore(&call, std::move(nc));
    if (it == movedInto.end()) {
      movedInto[calleeName] = inserted;
      order.push_back(calleeName);
    }
    for (unsigned i = 0; i < call.numResults(); ++i) call.result(i)->replaceAllUsesWith(inserted->result(i));
    util::eraseOp(&call);
  });
  for (const std::string& name : order)
    if (ir::Op* func = symbols.lookupFunc(name)) symbols.erase(func);

  // Edges for the named computations (owners that already have one keep it),
  // unless asked not to add them.
  if (!addDataFlowEdgesOnNamedComputations) return !diags.hasErrors();
  std::vector<ir::Op*> ncs;
  if (ir::Op::anyLive("sdy.named_computation"))  // else no walk: there are none
    module.op->walk([&](ir::Op& op) {
      if (op.is("sdy.named_computation")) ncs.push_back(&op);
    });
  auto withoutEdge = [](std::vector<ir::Value*> owners) {
    std::vector<ir::Value*> out;
    for (ir::Value* v : owners)
      if (!util::dataFlowEdgeUser(v)) out.push_back(v);
    return out;
  };
  for (ir::Op* nc : ncs) {
    util::addDataFlowEdgesFor(withoutEdge(util::blockArgEdgeOwners(*nc)));
    util::addDataFlowEdgesFor(withoutEdge(util::resultEdgeOwners(*nc)));
  }
  return !diags.hasErrors();
}

bool importFuncCalls(ir::Module& module, ir::DiagnosticSink& diags) {
  return importFuncCallsWithEdges(module, diags, true);
}

}  // namespace shardscope::passes
