// `-sdy-insert-explicit-reshards` (the part Shardscope implements): make the
// reduction of unreduced axes explicit.
//
// A value whose sharding has `unreduced` axes holds partial sums along them
// (e.g. a dot_general whose contracting dimension was sharded on "b"). A
// consumer that does not itself keep those axes unreduced needs the full
// value, so an `sdy.all_reduce {"b"} %v out_sharding=<...>` is inserted right
// before it and the consumer reads the reduced value:
//
//   %0 = dot_general ... {sdy.sharding = <@m, [{"a"}, {}], unreduced={"b"}>}
//   %1 = sdy.reshard %0 <@m, [{"a"}, {}]>
// becomes
//   %0 = dot_general ... {sdy.sharding = <@m, [{"a"}, {}], unreduced={"b"}>}
//   %1 = sdy.all_reduce {"b"} %0 out_sharding=<@m, [{"a"}, {}]>
//   %2 = sdy.reshard %1 <@m, [{"a"}, {}]>
//
// Element-wise consumers whose result keeps the axes unreduced delay the
// reduction (a sum of partial sums is still a partial sum). The reference
// pass also inserts reshards and other collectives wherever an op's operand
// shardings disagree with its rule; Shardscope does not do that yet.
#include <algorithm>

#include "passes/import_passes.h"
#include "passes/pass_utils.h"
#include "propagation/propagation_driver.h"

namespace shardscope::passes {

namespace {

// The unreduced axes operand `index` of `user` may keep.
AxisRefList keptUnreduced(const ir::Op& user) {
  if (user.is("sdy.reshard") || user.is("sdy.sharding_constraint")) {
    const ir::Attribute* s = user.attr("sharding");
    if (s && s->as<TensorSharding>()) return s->as<TensorSharding>()->unreduced;
    return {};
  }
  if (propagation::isElementwiseOp(user) && user.numResults() == 1) {
    if (auto s = util::getSharding(user.result(0))) return s->unreduced;
  }
  return {};
}

bool contains(const AxisRefList& list, const AxisRef& a) {
  return std::find(list.begin(), list.end(), a) != list.end();
}

}  // namespace

bool insertExplicitReshards(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  std::vector<ir::Op*> ops;
  module.op->walk([&](ir::Op& op) {
    if (op.numResults() > 0 && !op.is("sdy.all_reduce")) ops.push_back(&op);
  });
  for (ir::Op* op : ops) {
    for (ir::Value* result : op->resultRange()) {
      std::optional<TensorSharding> sharding = util::getSharding(result);
      if (!sharding || sharding->unreduced.empty()) continue;
      std::vector<ir::Use> uses(result->uses().begin(), result->uses().end());
      for (const ir::Use& use : uses) {
        AxisRefList kept = keptUnreduced(*use.user);
        AxisRefList reduce;
        for (const AxisRef& a : sharding->unreduced)
          if (!contains(kept, a)) reduce.push_back(a);
        if (reduce.empty()) continue;
        TensorSharding out = *sharding;
        out.unreduced.clear();
        for (const AxisRef& a : sharding->unreduced)
          if (contains(kept, a)) out.unreduced.push_back(a);
        auto allReduce = std::make_unique<ir::Op>("sdy.all_reduce", use.user->loc());
        allReduce->setAttr("reduction_axes", ir::AxisRefListAttr{reduce}, true);
        allReduce->setAttr("out_sharding", out, true);
        allReduce->addOperand(result);
        ir::Value* reduced = allReduce->addResult(result->type);
        use.user->parentBlock()->insertBefore(use.user, std::move(allReduce));
        use.user->setOperand(use.index, reduced);
      }
    }
  }
  return true;
}

}  // namespace shardscope::passes
