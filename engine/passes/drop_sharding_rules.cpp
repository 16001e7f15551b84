// `-sdy-drop-sharding-rules`: remove the `sdy.sharding_rule` attributes that
// propagation left on ops, except custom rules (`..., custom>`), which carry
// information of their own.
#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

bool dropShardingRules(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  module.op->walk([](ir::Op& op) {
    const ir::Attribute* a = op.attr(util::kShardingRuleAttr);
    if (!a) return;
    if (const OpShardingRule* rule = a->as<OpShardingRule>(); rule && rule->isCustom) return;
    op.removeAttr(util::kShardingRuleAttr);
  });
  return true;
}

}  // namespace shardscope::passes
