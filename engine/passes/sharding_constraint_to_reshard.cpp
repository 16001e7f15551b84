// `-sdy-sharding-constraint-to-reshard`: after propagation a sharding
// constraint means "reshard here":
//   %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}]>  ->  %1 = sdy.reshard %0 <@mesh, [{"a"}]>
// Discardable attributes are kept.
#include "passes/import_passes.h"

namespace shardscope::passes {

bool shardingConstraintToReshard(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  // Nothing to do without such ops; Op::anyLive answers that without a walk.
  if (!ir::Op::anyLive("sdy.sharding_constraint")) return true;
  module.op->walk([](ir::Op& op) {
    if (op.is("sdy.sharding_constraint")) op.setName("sdy.reshard");
  });
  return true;
}

}  // namespace shardscope::passes
