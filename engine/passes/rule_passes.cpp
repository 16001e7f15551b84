// Registration of the rule passes.
//
// `-sdy-populate-op-sharding-rules`: gives every op the registry knows its
// `sdy.sharding_rule` (ops that already carry one keep it), so the rules can
// be read, checked and edited before propagation:
//   %0 = stablehlo.add %a, %b {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=8}>}
#include <functional>

#include "passes/pass.h"
#include "rules/op_sharding_rule_registry.h"

namespace shardscope::passes {

namespace {

// Nested ops before their parent, like MLIR's default walk, so that the one
// "unknown to the registry" warning lands on the same op as in sdy_opt.
void walkPostOrder(ir::Op& op, const std::function<void(ir::Op&)>& fn) {
  for (const auto& region : op.regions())
    for (const auto& block : region->blocks()) {
      std::vector<ir::Op*> ops;
      for (const auto& child : block->ops()) ops.push_back(child.get());
      for (ir::Op* child : ops) walkPostOrder(*child, fn);
    }
  fn(op);
}

bool populateOpShardingRules(ir::Module& module, const PassOptions& options, PassContext& ctx) {
  bool conservative = options.getBool("conservative-propagation", false);
  walkPostOrder(*module.op, [&](ir::Op& op) {
    (void)rules::getOrCreateOpShardingRule(op, conservative, &ctx.diags, /*setOnOp=*/true);
  });
  return true;
}

}  // namespace

void registerRulePasses(std::vector<PassInfo>& out) {
  out.push_back({"sdy-populate-op-sharding-rules",
                 "Attach the registry's `sdy.sharding_rule` to every op that has a rule",
                 {"conservative-propagation"},
                 populateOpShardingRules});
}

}  // namespace shardscope::passes
