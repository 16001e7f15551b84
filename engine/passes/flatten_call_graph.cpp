// `-sdy-flatten-call-graph`: every function is called at most once. Walking
// the calls callees-first, the first call of a function keeps it; each later
// call gets a fresh copy of the callee (and of everything it calls), named
// `@foo_0`, `@foo_1`, ... and marked `sdy.original_func_name = "foo"`.
#include <set>

#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

bool flattenCallGraph(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  util::SymbolTable symbols(module);
  std::set<std::string> seen;
  util::walkCalls(module, [&](ir::Op& call) {
    ir::Op* callee = symbols.lookupFunc(util::calleeOf(call));
    if (!callee) return;
    if (seen.insert(util::symNameOf(*callee)).second) return;
    util::setCallee(call, symbols.insert(util::cloneFuncRecursively(*callee, symbols)));
  });
  return true;
}

}  // namespace shardscope::passes
