// `-sdy-unflatten-call-graph`: the inverse of flatten-call-graph. Calls to
// copies of one function (same `sdy.original_func_name`, manual axes and
// argument/result shardings) all go to the first such copy called; the
// bookkeeping attributes are then dropped.
//
// With `dedup-functions-fully=true` the shardings are left out of the key:
// every copy of one original function (and manual axes) merges into a single
// copy, one whose argument/result shardings most calls use: calls are
// counted in program order, and the callee of the call at which a sharding
// overtakes the kept one's count is kept from then on. insert-func-call-reshards
// later reshards the calls whose shardings differ from the kept copy's.
//
//   call @f_0 ([{"y"}]), call @f ([{"x"}]), call @f_1 ([{"x"}])
//     -> [{"x"}] overtakes at the third call: all three go to @f_1
#include <map>

#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {

std::string shardingsKey(const std::optional<std::vector<TensorSharding>>& s) {
  if (!s) return "-";
  return TensorShardingPerValue{*s}.str();
}

std::string computationKey(const ir::Module& module, const ir::Op& func, bool withShardings) {
  std::string key = util::originalFuncName(func) + "|";
  if (const ir::Attribute* a = func.attr("sdy.func_manual_axes")) key += a->str();
  if (!withShardings) return key;
  key += "|" + shardingsKey(util::funcArgShardings(module, func));
  key += "|" + shardingsKey(util::funcResultShardings(module, func));
  return key;
}

// For full dedup: the copy each origin keeps. Calls are counted per sharding
// key (copies with equal shardings count together); a copy replaces the kept
// one only when its key has strictly more calls so far, as the calls are met
// in program order.
void preferMostCalledShardings(const ir::Module& module, const std::vector<ir::Op*>& callees,
                               std::map<std::string, ir::Op*>& kept) {
  std::map<std::string, int64_t> calls;  // full key -> calls so far
  for (ir::Op* func : callees) {
    std::string full = computationKey(module, *func, /*withShardings=*/true);
    int64_t count = ++calls[full];
    ir::Op*& chosen = kept[computationKey(module, *func, /*withShardings=*/false)];
    if (count > calls[computationKey(module, *chosen, /*withShardings=*/true)]) chosen = func;
  }
}

}  // namespace

bool unflattenCallGraph(ir::Module& module, ir::DiagnosticSink& diags,
                        const UnflattenCallGraphOptions& options) {
  (void)diags;
  bool withShardings = !options.dedupFunctionsFully;
  // Nothing to do without such ops; Op::anyLive answers that without a walk.
  if (!util::mayHaveCalls()) return true;
  util::SymbolTable symbols(module);
  std::vector<ir::Op*> calls;
  module.op->walk([&](ir::Op& op) {
    if (util::isCallOp(op)) calls.push_back(&op);
  });
  std::vector<ir::Op*> callees;  // per call, in program order
  for (ir::Op* call : calls) callees.push_back(symbols.lookupFunc(util::calleeOf(*call)));
  std::map<std::string, ir::Op*> kept;  // key -> the copy its calls go to
  for (ir::Op* func : callees)
    if (func) kept.try_emplace(computationKey(module, *func, withShardings), func);
  if (options.dedupFunctionsFully) {
    std::vector<ir::Op*> known;
    for (ir::Op* func : callees)
      if (func) known.push_back(func);
    preferMostCalledShardings(module, known, kept);
  }
  for (size_t i = 0; i < calls.size(); ++i)
    if (callees[i])
      util::setCallee(*calls[i],
                      util::symNameOf(*kept[computationKey(module, *callees[i], withShardings)]));
  for (ir::Op* func : module.functions()) {
    func->removeAttr(util::kOriginalFuncNameAttr);
    func->removeAttr("sdy.func_manual_axes");
  }
  return true;
}

}  // namespace shardscope::passes
