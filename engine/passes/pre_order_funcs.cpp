// `-sdy-pre-order-funcs`: reorder the functions so that callers come before
// their callees (reverse post-order of the call graph).
//
// Functions that do not call each other keep their module order. The
// reference's traversal reverses them instead (`@a`, `@b` becomes `@b`, `@a`),
// so running the propagation pipeline on its own output swapped them back and
// forth; keeping them in place makes the pass, and the pipeline, idempotent:
//   @g() {}  @main() { call @f }  @f() {}   ->   @g  @main  @f
#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

bool preOrderFuncs(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  std::vector<ir::Op*> post = util::funcsInPostOrder(module, /*rootsLastFirst=*/true);
  ir::Block& body = module.body();
  for (auto it = post.rbegin(); it != post.rend(); ++it) body.append(body.take(*it));
  return true;
}

}  // namespace shardscope::passes
