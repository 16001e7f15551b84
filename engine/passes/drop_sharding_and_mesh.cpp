// `-sdy-drop-sharding-and-mesh`: strip a module of everything Shardy added,
// for a consumer that knows nothing of shardings: every `sdy.sharding` (on
// ops, function arguments and results) and every `sdy.mesh` goes.
//
//   func.func @f(%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>})
//     ->  func.func @f(%arg0: tensor<2x4xf32>)
#include "passes/export_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

bool dropShardingAndMesh(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  std::vector<ir::Op*> meshes;
  module.op->walk([&](ir::Op& op) {
    op.removeAttr(util::kShardingAttr);
    if (util::isFuncOp(op)) {
      for (unsigned i = 0; i < util::funcArgTypes(op).size(); ++i)
        util::removeFuncArgSharding(op, i);
      for (unsigned i = 0; i < util::numFuncResults(op); ++i) util::removeFuncResultSharding(op, i);
    }
    if (op.is("sdy.mesh")) meshes.push_back(&op);
  });
  for (ir::Op* mesh : meshes) util::eraseOp(mesh);
  return true;
}

}  // namespace shardscope::passes
