// `-sdy-propagate-sharding-from-func-to-call`: a call without result
// shardings takes its callee's result shardings (fully open where a result has
// none), when the callee has any on a non-maximal mesh.
#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

bool propagateShardingFromFuncToCall(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  // Nothing to do without such ops; Op::anyLive answers that without a walk.
  if (!util::mayHaveCalls()) return true;
  util::SymbolTable symbols(module);
  module.op->walk([&](ir::Op& op) {
    if (!util::isCallOp(op) || util::shardingPerValue(op)) return;
    ir::Op* callee = symbols.lookupFunc(util::calleeOf(op));
    if (!callee) return;
    if (auto shardings = util::funcResultShardings(module, *callee))
      op.setAttr(util::kShardingAttr, TensorShardingPerValue{*shardings});
  });
  return true;
}

}  // namespace shardscope::passes
