// `-sdy-insert-func-call-reshards`: a call result whose sharding differs from
// its callee's result sharding gets an `sdy.reshard` to the call's sharding
// right after the call, and the call takes the callee's result shardings.
#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

bool insertFuncCallReshards(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  // Nothing to do without such ops; Op::anyLive answers that without a walk.
  if (!util::mayHaveCalls()) return true;
  util::SymbolTable symbols(module);
  std::vector<ir::Op*> calls;
  module.op->walk([&](ir::Op& op) {
    if (util::isCallOp(op)) calls.push_back(&op);
  });
  for (ir::Op* call : calls) {
    ir::Op* func = symbols.lookupFunc(util::calleeOf(*call));
    if (!func) continue;
    std::optional<std::vector<TensorSharding>> funcShardings = util::funcResultShardings(module, *func);
    std::optional<std::vector<TensorSharding>> callShardings = util::shardingPerValue(*call);
    if (!funcShardings) {
      if (!callShardings) continue;
      funcShardings = std::vector<TensorSharding>();
      for (const TensorSharding& s : *callShardings) funcShardings->push_back(util::fullyClosedLike(s));
    }
    for (unsigned i = 0; i < call->numResults() && i < funcShardings->size(); ++i) {
      ir::Value* result = call->result(i);
      std::optional<TensorSharding> callSharding = util::getSharding(result);
      if (util::isEquivalent((*funcShardings)[i], callSharding)) continue;
      auto reshard = std::make_unique<ir::Op>("sdy.reshard", call->loc());
      reshard->setLocation(call->location());
      reshard->addOperand(result);
      reshard->addResult(result->type);
      reshard->setAttr("sharding", callSharding ? *callSharding : util::fullyClosedLike((*funcShardings)[i]), true);
      // Each reshard goes right after the call (so later results' come first).
      ir::Op* inserted = call->parentBlock()->insertAfter(call, std::move(reshard));
      result->replaceUsesWithIf(inserted->result(0), [&](const ir::Use& u) { return u.user != inserted; });
    }
    call->setAttr(util::kShardingAttr, TensorShardingPerValue{*funcShardings});
  }
  return true;
}

}  // namespace shardscope::passes
