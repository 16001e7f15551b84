// `-sdy-pre-order-funcs`: reorder the functions so that callers come before
// their callees (reverse post-order of the call graph).
#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

bool preOrderFuncs(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  std::vector<ir::Op*> post = util::funcsInPostOrder(module);
  ir::Block& body = module.body();
  for (auto it = post.rbegin(); it != post.rend(); ++it) body.append(body.take(*it));
  return true;
}

}  // namespace shardscope::passes
