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
// a propagation run, so they are computed once per op instead of per factor.
struct StageDirectionCache {
  const ir::Op* op = nullptr;
  PropagationDirection passThrough[2] = {PropagationDirection::None, PropagationDirection::None};
  bool broadcast = false;

  void load(const ir::Op& o, int stage) {
    if (op == &o) return;
    op = &o;
    if (stage >= 0) passThrough[0] = shardscope::propagation::passThrough(o, false);
    if (stage >= 1) passThrough[1] = shardscope::propagation::passThrough(o, true);
    broadcast = SS_OP_IS(o, "stablehlo.broadcast_in_dim");
  }
  // As opPriorityStageDirection(s, op, factor, rule) for the loaded op.
  PropagationDirection stageDirection(int s, int64_t factor, const OpShardingRule* rule) const {
    switch (s) {
      case 0: return passThrough[0];
      case 1: return passThrough[1];
      case 2:
        if (rule && rule->factorType(factor) != FactorType::Passthrough) return PropagationDirection::None;
        return broadcast ? PropagationDirection::Backward : PropagationDirection::Both;
      case 3: return broadcast ? PropagationDirection::Backward : PropagationDirection::Both;
      default: return PropagationDirection::Both;
    }
  }
};

}  // namespace

GetDirectionFn opPriorityDirection(int stage, GetDirectionFn outer) {
  auto cache = std::make_shared<StageDirectionCache>();
  return [stage, outer, cache](const ir::Op& op, int64_t factor, const OpShardingRule* rule) {
    cache->load(op, stage);
    PropagationDirection acc = PropagationDirection::None;
    for (int s = 0; s <= stage; ++s) acc = unionOf(acc, cache->stageDirection(s, factor, rule));
    return intersectionOf(acc, outer ? outer(op, factor, rule) : PropagationDirection::Both);
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
