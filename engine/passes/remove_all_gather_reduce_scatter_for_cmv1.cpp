// `-sdy-remove-all-gather-reduce-scatter-for-cmv1`: for a partitioner (XLA's
// CMv1) that turns a dot with sharded operands into its own collectives, the
// explicit ones around a dot are dropped:
//   - an `sdy.all_gather` whose only user is a dot feeds the dot directly;
//   - otherwise, an `sdy.reduce_scatter` that is the only user of a dot
//     (whose result has no unreduced axes) goes, and the dot takes its
//     output sharding.
//
//   %0 = sdy.all_gather [{"x"}, {}] %arg1 out_sharding=<@mesh, [{}, {}]>
//   %1 = stablehlo.dot %arg0, %0       ->  %1 = stablehlo.dot %arg0, %arg1
#include "passes/export_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

bool removeAllGatherReduceScatterForCmv1(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  if (!ir::Op::anyLive("stablehlo.dot") && !ir::Op::anyLive("stablehlo.dot_general")) return true;
  std::vector<ir::Op*> dots;
  module.op->walk([&](ir::Op& op) {
    if (op.is("stablehlo.dot") || op.is("stablehlo.dot_general")) dots.push_back(&op);
  });
  std::vector<ir::Op*> toBypass;  // collectives replaced by their operand
  for (ir::Op* dot : dots) {
    bool gatheredOperand = false;
    for (unsigned i = 0; i < dot->numOperands(); ++i) {
      ir::Op* def = dot->operand(i)->definingOp;
      if (def && def->is("sdy.all_gather") && def->result(0)->hasOneUse()) {
        toBypass.push_back(def);
        gatheredOperand = true;
      }
    }
    // With a gathered operand, the partitioner still needs the reduce-scatter.
    if (gatheredOperand || dot->numResults() != 1 || !dot->result(0)->hasOneUse()) continue;
    ir::Op* user = dot->result(0)->uses().front().user;
    if (!user->is("sdy.reduce_scatter")) continue;
    std::optional<TensorSharding> dotSharding = util::getSharding(dot->result(0));
    std::optional<TensorSharding> scattered = util::getSharding(user->result(0));
    if (!dotSharding || !dotSharding->unreduced.empty() || !scattered) continue;
    dot->setAttr(util::kShardingAttr, TensorShardingPerValue{{*scattered}});
    toBypass.push_back(user);
  }
  for (ir::Op* op : toBypass) {
    op->result(0)->replaceAllUsesWith(op->operand(0));
    util::eraseOp(op);
  }
  return true;
}

}  // namespace shardscope::passes
