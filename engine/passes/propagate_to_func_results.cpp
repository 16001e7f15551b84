// `-sdy-propagate-to-func-results`: every function but the main one gets,
// for each result, the sharding of the value it returns (or none).
#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

bool propagateToFuncResults(ir::Module& module, ir::DiagnosticSink& diags) {
  ir::Op* main = util::mainFunction(module);
  if (!main) {
    diags.error(module.op->loc(), "Failed to lookup function: main");
    return false;
  }
  for (ir::Op* func : module.functions()) {
    if (func == main || func->numRegions() == 0 || func->region(0).empty()) continue;
    ir::Op* ret = func->region(0).front().terminator();
    if (!ret || !util::isReturnOp(*ret)) continue;
    for (unsigned i = 0; i < ret->numOperands(); ++i) {
      if (auto s = util::getSharding(ret->operand(i)))
        util::setFuncResultSharding(*func, i, *s);
      else
        util::removeFuncResultSharding(*func, i);
    }
  }
  return true;
}

}  // namespace shardscope::passes
