// `-sdy-export-named-computations`: the inverse of import-func-calls. Each
// named computation (inner ones first) becomes a private function named after
// it (uniqued: `@foo`, `@foo_0`, ...) and a call to it. The shardings found on
// its data-flow edges become the function's argument shardings and the call's
// result shardings, and the edges go away.
#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {

// Replace the data-flow edge using each of `values` by the value itself.
void removeDataFlowEdges(const std::vector<ir::Value*>& values) {
  for (ir::Value* v : values) {
    if (v->useEmpty()) continue;
    ir::Op* user = v->uses().front().user;
    if (!user->is("sdy.data_flow_edge")) continue;
    user->result(0)->replaceAllUsesWith(v);
    util::eraseOp(user);
  }
}

}  // namespace

bool exportNamedComputations(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  // Nothing to do without such ops; Op::anyLive answers that without a walk.
  if (!ir::Op::anyLive("sdy.named_computation")) return true;
  util::SymbolTable symbols(module);
  std::vector<ir::Op*> ncs;  // post-order: inner ones first
  util::collectPostOrder(*module.op, [](const ir::Op& op) { return op.is("sdy.named_computation"); }, ncs);

  std::vector<ir::Value*> callResults;
  for (ir::Op* nc : ncs) {
    std::vector<TensorSharding> in = util::shardingsFromEdges(util::blockArgEdgeOwners(*nc));
    if (!in.empty()) util::setInShardings(*nc, in);
    std::vector<TensorSharding> out = util::shardingsFromEdges(util::resultEdgeOwners(*nc));
    if (!out.empty()) util::setOutShardings(*nc, out);
    std::vector<TensorSharding> inShardings = util::inShardingsOf(*nc);
    std::optional<std::vector<TensorSharding>> outShardings;
    if (nc->hasAttr("out_shardings")) outShardings = util::outShardingsOf(*nc);
    std::string name;
    if (const ir::Attribute* a = nc->attr("name"); a && a->string()) name = *a->string();

    // The function.
    auto func = std::make_unique<ir::Op>("func.func", nc->loc());
    func->setLocation(nc->location());
    func->setAttr("sym_name", ir::StringAttr{name}, true);
    std::vector<ir::Type> argTypes, resultTypes;
    if (nc->numRegions() && !nc->region(0).empty())
      for (ir::Value* a : nc->region(0).front().arguments()) argTypes.push_back(a->type);
    for (ir::Value* r : nc->resultRange()) resultTypes.push_back(r->type);
    func->setAttr("function_type", ir::TypeAttr{ir::Type::function(argTypes, resultTypes)}, true);
    func->setAttr("sym_visibility", ir::StringAttr{"private"}, true);
    func->setAttr(util::kOriginalFuncNameAttr, ir::StringAttr{name});
    ir::Region& body = func->addRegion();
    if (nc->numRegions()) util::moveBody(nc->region(0), body);
    else body.addBlock();
    if (ir::Op* term = body.front().terminator(); term && term->is("sdy.return")) term->setName("func.return");
    removeDataFlowEdges(body.front().arguments());
    if (nc->hasAttr("in_shardings"))
      for (unsigned i = 0; i < inShardings.size(); ++i) util::setFuncArgSharding(*func, i, inShardings[i]);
    if (const ir::Attribute* thread = nc->attr("execution_thread")) func->setAttr("execution_thread", *thread);
    std::string funcName = symbols.insert(std::move(func));

    // The call.
    auto call = std::make_unique<ir::Op>("func.call", nc->loc());
    call->setLocation(nc->location());
    call->setAttr("callee", ir::SymbolRefAttr{{funcName}}, true);
    for (ir::Value* v : nc->operands()) call->addOperand(v);
    for (ir::Value* r : nc->resultRange()) call->addResult(r->type);
    for (const ir::Op::Attr& a : nc->attrs())
      if (!a.inherent && a.name != "execution_thread") call->setAttr(a.name, a.value);
    if (outShardings) call->setAttr(util::kShardingAttr, TensorShardingPerValue{*outShardings});
    ir::Op* inserted = nc->parentBlock()->insertBefore(nc, std::move(call));
    for (unsigned i = 0; i < nc->numResults(); ++i) {
      nc->result(i)->replaceAllUsesWith(inserted->result(i));
      callResults.push_back(inserted->result(i));
    }
    util::eraseOp(nc);
  }
  removeDataFlowEdges(callResults);
  return true;
}

}  // namespace shardscope::passes
