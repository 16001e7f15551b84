// Op-priority propagation (see op_priority_propagation.h).
#include "propagation/op_name.h"
#include "propagation/op_priority_propagation.h"

#include "propagation/aggressive_factor_propagation.h"
#include "propagation/basic_factor_propagation.h"

#include <memory>

namespace shardscope::propagation {

namespace {

bool isScalarValue(const ir::Value* v) { return v->type->isRankedTensor() && v->type->rank() == 0; }

PropagationDirection directionByUses(const ir::Op& op, bool allowMultiUse) {
  if (allowMultiUse) return PropagationDirection::Both;
  for (ir::Value* v : op.operands())
    if (!v->hasOneUse() && !isScalarValue(v)) return PropagationDirection::None;
  return PropagationDirection::Both;
}

bool isOffloadCustomCall(const ir::Op& op) {
  if (!SS_OP_IS(op, "stablehlo.custom_call")) return false;
  const ir::Attribute* a = op.attr("call_target_name");
  if (!a) return false;
  const std::string* s = a->string();
  return s && (*s == "MoveToDevice" || *s == "MoveToHost");
}

PropagationDirection passThrough(const ir::Op& op, bool allowMultiUse) {
  if (isElementwiseOp(op) || isOffloadCustomCall(op) || SS_OP_IS(op, "stablehlo.reshape") ||
      SS_OP_IS(op, "stablehlo.transpose") || SS_OP_IS(op, "sdy.data_flow_edge") || SS_OP_IS(op, "sdy.func_data_flow_edge"))
    return directionByUses(op, allowMultiUse);
  if (SS_OP_IS(op, "stablehlo.dynamic_slice") || SS_OP_IS(op, "stablehlo.dynamic_update_slice"))
    return intersectionOf(directionByUses(op, allowMultiUse), PropagationDirection::Forward);
  return PropagationDirection::None;
}

}  // namespace

PropagationDirection opPriorityStageDirection(int stage, const ir::Op& op, int64_t factor,
                                              const OpShardingRule* rule) {
  switch (stage) {
    case 0: return passThrough(op, false);
    case 1: return passThrough(op, true);
    case 2:
      if (rule && rule->factorType(factor) != FactorType::Passthrough) return PropagationDirection::None;
      return SS_OP_IS(op, "stablehlo.broadcast_in_dim") ? PropagationDirection::Backward
                                                 : PropagationDirection::Both;
    case 3:
      return SS_OP_IS(op, "stablehlo.broadcast_in_dim") ? PropagationDirection::Backward
                                                 : PropagationDirection::Both;
    default: return PropagationDirection::Both;
  }
}

namespace {

// The factor-independent parts of opPriorityStageDirection for the op asked
// about last. The driver asks for every factor of one op in a row, and an
// op's structure (its name, operands and their uses) does not change during
// a propagation run, so they are computed once per op instead of per factor:
// the union over the stages up to `stage` of every term but stage 2's, the
// only one that depends on the factor (through the rule's factor type).
//
// E.g. at stage 3 a `stablehlo.add` whose operands have other users: stages
// 0 and 2 give None, stage 1 and 3 Both, so every factor gets Both without
// looking at the rule.
struct StageDirectionCache {
  const ir::Op* op = nullptr;
  PropagationDirection fixed = PropagationDirection::None;  // stages other than 2
  PropagationDirection passthroughTerm = PropagationDirection::None;  // stage 2, passthrough factors

  void load(const ir::Op& o, int stage) {
    if (op == &o) return;
    op = &o;
    const bool broadcast = SS_OP_IS(o, "stablehlo.broadcast_in_dim");
    const PropagationDirection late = broadcast ? PropagationDirection::Backward : PropagationDirection::Both;
    fixed = PropagationDirection::None;
    if (stage >= 0) fixed = unionOf(fixed, shardscope::propagation::passThrough(o, false));
    if (stage >= 1) fixed = unionOf(fixed, shardscope::propagation::passThrough(o, true));
    if (stage >= 3) fixed = unionOf(fixed, late);
    if (stage >= 4) fixed = PropagationDirection::Both;
    passthroughTerm = stage >= 2 ? late : PropagationDirection::None;
  }
  // As the union of opPriorityStageDirection(s, op, factor, rule) over
  // s = 0..stage for the loaded op.
  PropagationDirection direction(int64_t factor, const OpShardingRule* rule) const {
    // Adding stage 2's term can change nothing once every direction is in.
    if (fixed == PropagationDirection::Both || passthroughTerm == PropagationDirection::None) return fixed;
    if (rule && rule->factorType(factor) != FactorType::Passthrough) return fixed;
    return unionOf(fixed, passthroughTerm);
  }
};

}  // namespace

GetDirectionFn opPriorityDirection(int stage, GetDirectionFn outer) {
  auto cache = std::make_shared<StageDirectionCache>();
  // No outer function, or propagateAny (the tools' case): it allows every
  // direction and watches nothing, so it is not asked. (Asked for every
  // factor of every visit, through a std::function, it cost a call each.)
  using DirectionPointer = PropagationDirection (*)(const ir::Op&, int64_t, const OpShardingRule*);
  const DirectionPointer* pointer = outer ? outer.target<DirectionPointer>() : nullptr;
  if (!outer || (pointer && *pointer == &propagateAny))
    return [stage, cache](const ir::Op& op, int64_t factor, const OpShardingRule* rule) {
      cache->load(op, stage);
      return cache->direction(factor, rule);
    };
  return [stage, outer, cache](const ir::Op& op, int64_t factor, const OpShardingRule* rule) {
    cache->load(op, stage);
    // `outer` is asked even when it cannot widen anything: it may watch for
    // a cancel request (propagation.cpp), and must see every question.
    return intersectionOf(cache->direction(factor, rule),
                          outer ? outer(op, factor, rule) : PropagationDirection::Both);
  };
}

bool runAggressive(PropagationDriver& driver, const GetDirectionFn& direction, RunLabel label) {
  static const BasicFactorPropagation basic;
  static const AggressiveFactorPropagation aggressive;
  bool ok = true;
  switch (driver.options().strategy) {
    case PropagationStrategy::Basic: ok = driver.run(basic, direction, label); break;
    case PropagationStrategy::Aggressive: ok = driver.run(aggressive, direction, label); break;
    case PropagationStrategy::BasicThenAggressive:
      ok = driver.run(basic, direction, label);
      ok = driver.run(aggressive, direction, label) && ok;
      break;
  }
  return ok;
}

bool runOpPriority(PropagationDriver& driver, const GetDirectionFn& direction, RunLabel label) {
  if (!driver.options().runOpPriorityPropagation) return runAggressive(driver, direction, label);
  bool ok = true;
  for (int stage = 0; stage < kNumOpPriorityStages; ++stage) {
    RunLabel l = label;
    l.opPriority = stage;
    ok = runAggressive(driver, opPriorityDirection(stage, direction), l) && ok;
  }
  return ok;
}

}  // namespace shardscope::propagation
