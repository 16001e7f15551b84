// `-sdy-unflatten-call-graph`: the inverse of flatten-call-graph. Calls to
// copies of one function (same `sdy.original_func_name`, manual axes and
// argument/result shardings) all go to the first such copy called; the
// bookkeeping attributes are then dropped.
#include <map>

#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {

std::string shardingsKey(const std::optional<std::vector<TensorSharding>>& s) {
  if (!s) return "-";
  return TensorShardingPerValue{*s}.str();
}

std::string computationKey(const ir::Module& module, const ir::Op& func) {
  std::string key = util::originalFuncName(func) + "|";
  if (const ir::Attribute* a = func.attr("sdy.func_manual_axes")) key += a->str();
  key += "|" + shardingsKey(util::funcArgShardings(module, func));
  key += "|" + shardingsKey(util::funcResultShardings(module, func));
  return key;
}

}  // namespace

bool unflattenCallGraph(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  // Nothing to do without such ops; Op::anyLive answers that without a walk.
  if (!util::mayHaveCalls()) return true;
  util::SymbolTable symbols(module);
  std::vector<ir::Op*> calls;
  module.op->walk([&](ir::Op& op) {
    if (util::isCallOp(op)) calls.push_back(&op);
  });
  std::map<std::string, std::string> cache;  // key -> function name
  for (ir::Op* call : calls)
    if (ir::Op* func = symbols.lookupFunc(util::calleeOf(*call)))
      cache.try_emplace(computationKey(module, *func), util::symNameOf(*func));
  for (ir::Op* call : calls)
    if (ir::Op* func = symbols.lookupFunc(util::calleeOf(*call)))
      util::setCallee(*call, cache[computationKey(module, *func)]);
  for (ir::Op* func : module.functions()) {
    func->removeAttr(util::kOriginalFuncNameAttr);
    func->removeAttr("sdy.func_manual_axes");
  }
  return true;
}

}  // namespace shardscope::passes
