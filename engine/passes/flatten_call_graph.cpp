// `-sdy-flatten-call-graph`: every function is called at most once. Walking
// the calls callees-first, the first call of a function keeps it; each later
// call gets a fresh copy of the callee (and of everything it calls), named
// `@foo_0`, `@foo_1`, ... and marked `sdy.original_func_name = "foo"`.
//
// A recursive call is an error (there is no finite flat graph), and so is a
// call graph whose flat form would be too large to build (see
// ir::checkFlattenable): both are found before anything is copied.
#include <set>

#include "ir/call_graph.h"
#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

bool flattenCallGraph(ir::Module& module, ir::DiagnosticSink& diags) {
  if (!util::mayHaveCalls()) return true;
  if (!ir::checkFlattenable(ir::CallGraph(module), diags)) return false;
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
