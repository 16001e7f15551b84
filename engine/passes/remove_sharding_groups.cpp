// `-sdy-remove-sharding-groups`: sharding groups only matter during
// propagation; erase every `sdy.sharding_group`.
#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

bool removeShardingGroups(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  // Nothing to do without such ops; Op::anyLive answers that without a walk.
  if (!ir::Op::anyLive("sdy.sharding_group")) return true;
  std::vector<ir::Op*> groups;
  module.op->walk([&](ir::Op& op) {
    if (op.is("sdy.sharding_group")) groups.push_back(&op);
  });
  for (ir::Op* op : groups) util::eraseOp(op);
  return true;
}

}  // namespace shardscope::passes
