// `-sdy-apply-sharding-constraints`: let a sharding constraint (or a manual
// computation's in sharding) decide the sharding of its input.
//
// The sharding is copied onto the input when the input has none, the
// constraint is fully closed, and no other constraint / manual computation
// using the input asks for something else:
//
//   %0 = stablehlo.add %a, %a                 %0 = stablehlo.add %a, %a {sdy.sharding = <[{}, {"b"}]>}
//   %1 = sdy.sharding_constraint %0 <[{}, {"b"}]>   ->   (unchanged)
//
// When the input is (or is the target of) a data-flow edge, the edge is left
// alone: the constraint moves right after the input and takes over all its
// uses instead. A chain of constraints `x -> c1 -> c2` also takes over the
// uses of `x` that come after the chain's tail in the same block.
#include <algorithm>

#include "passes/import_passes.h"
#include "passes/pass_utils.h"
#include "propagation/sharding_debug_info.h"
#include "propagation/sharding_projection.h"
#include "rules/op_sharding_rule_registry.h"

namespace shardscope::passes {

namespace {

bool isConstraintOrManual(const ir::Op* op) {
  return op && (op->is("sdy.sharding_constraint") || op->is("sdy.manual_computation"));
}

std::optional<TensorSharding> constraintSharding(const ir::Op& op) {
  if (const ir::Attribute* a = op.attr("sharding"))
    if (auto* s = a->as<TensorSharding>()) return *s;
  return std::nullopt;
}

// Does a sharding_constraint or manual computation use `input` with a
// sharding other than `sharding`?
bool usedByConstraintWithDifferentSharding(ir::Value* input, const TensorSharding& sharding) {
  for (const ir::Use& use : input->uses()) {
    if (use.user->is("sdy.sharding_constraint")) {
      auto s = constraintSharding(*use.user);
      if (!s || !(*s == sharding)) return true;
    } else if (use.user->is("sdy.manual_computation")) {
      auto in = util::inShardingsOf(*use.user);
      if (use.index >= in.size() || !(in[use.index] == sharding)) return true;
    }
  }
  return false;
}

// Is `input` used by a sharding_constraint or manual computation other than `excluded`?
bool usedByShardingConstraint(ir::Value* input, const ir::Op* excluded = nullptr) {
  for (const ir::Use& use : input->uses())
    if (use.user != excluded && isConstraintOrManual(use.user)) return true;
  return false;
}

bool isFullyClosed(const TensorSharding& s) {
  return std::all_of(s.dims.begin(), s.dims.end(), [](const DimensionSharding& d) { return d.closed; });
}

bool shouldApply(ir::Value* input, const TensorSharding& sharding) {
  if (!util::shardableValue(input)) return false;  // e.g. a scalar block argument
  if (util::getSharding(input)) return false;
  if (!isFullyClosed(sharding)) return false;
  return !usedByConstraintWithDifferentSharding(input, sharding);
}

// Move `op` right after the definition of `value` (or to the front of the
// value's block for a block argument).
void moveAfterValue(ir::Op* op, ir::Value* value) {
  std::unique_ptr<ir::Op> owned = op->parentBlock()->take(op);
  if (ir::Op* def = value->definingOp) {
    def->parentBlock()->insertAfter(def, std::move(owned));
  } else {
    ir::Block* block = value->ownerBlock;
    ir::Op* first = block->empty() ? nullptr : block->ops().front().get();
    block->insertBefore(first, std::move(owned));
  }
}

// Called around the sharding update of a constraint's input, to record it
// as a propagation step (`debug-propagation-edge-sharding`).
using ApplyFn = std::function<void(const std::function<void()>& update)>;

void applyConstraint(ir::Value* input, const TensorSharding& sharding,
                     const std::function<ir::Op*()>& constraintAfterValue, const ApplyFn& observe) {
  if (!shouldApply(input, sharding)) return;
  bool edge = (input->definingOp && input->definingOp->is("sdy.data_flow_edge")) ||
              util::lookupDataFlowEdge(input) != nullptr;
  if (!edge) {
    auto update = [&] { util::setSharding(input, sharding); };
    if (observe)
      observe(update);
    else
      update();
    return;
  }
  ir::Op* constraint = constraintAfterValue();
  ir::Value* result = constraint->result(0);
  input->replaceUsesWithIf(result, [&](const ir::Use& use) { return use.user != constraint; });
  if (!sharding.unreduced.empty()) {
    // Unreduced axes do not propagate, so they go onto the input directly.
    TensorSharding current = util::getSharding(input).value_or(
        util::fullyOpen(sharding.mesh, util::rankOf(input)));
    current.unreduced = sharding.unreduced;
    current.unreducedReduction = sharding.unreducedReduction;
    util::setSharding(input, current);
  }
}

// The last constraint of the chain starting at `head`, when the chain can
// take over the later uses of its input; nullptr otherwise.
ir::Op* tailOfChain(ir::Op* head) {
  ir::Value* input = head->operand(0);
  if (input->definingOp && input->definingOp->is("sdy.sharding_constraint")) return nullptr;
  if (util::getSharding(input)) return nullptr;
  if (usedByShardingConstraint(input, head)) return nullptr;
  ir::Op* tail = head;
  while (tail->result(0)->hasOneUse() &&
         tail->result(0)->uses().front().user->is("sdy.sharding_constraint"))
    tail = tail->result(0)->uses().front().user;
  if (tail == head) return nullptr;
  if (usedByShardingConstraint(tail->result(0))) return nullptr;
  return tail;
}

// Records the update of `constraint`'s input as one step, the way sdy's
// source-sharding handler does: the constraint's result is the source of the
// axes its operand gains. (Origins are seeded by the propagation passes from
// the constraints themselves, so only edges are recorded here.)
void recordConstraintStep(propagation::ShardingDebugInfo& debug, ir::Module& module, ir::Op* constraint,
                          const OpShardingRule& rule, const std::function<void()>& update) {
  ir::Value* input = constraint->operand(0);
  ir::Value* result = constraint->result(0);
  std::optional<TensorSharding> resultSharding = util::getSharding(result);
  const Mesh* mesh = resultSharding ? module.meshOf(*resultSharding) : nullptr;
  if (!mesh || !input->type->isRankedTensor()) {
    update();
    return;
  }
  auto project = [&] {
    return propagation::ShardingProjection::build({util::getSharding(input)}, {util::getSharding(result)}, rule,
                                                  *mesh);
  };
  propagation::ShardingProjection before = project();
  update();
  propagation::ShardingProjection after = project();
  if (before == after) return;
  propagation::StepEvent event;
  event.op = constraint;
  event.operands = {input};
  event.results = {result};
  event.rule = &rule;
  event.mesh = mesh;
  event.before = &before;
  event.after = &after;
  debug.onStep(event);
}

}  // namespace

bool applyShardingConstraints(ir::Module& module, ir::DiagnosticSink& diags,
                              const ApplyShardingConstraintsOptions& options) {
  (void)diags;
  // Nothing to do without such ops; Op::anyLive answers that without a walk.
  if (!ir::Op::anyLive("sdy.sharding_constraint") && !ir::Op::anyLive("sdy.manual_computation")) return true;
  propagation::ShardingDebugInfo debug(module, /*origins=*/false, options.debugPropagationEdgeSharding);
  debug.prepare();
  std::vector<ir::Op*> ops;
  util::collectPostOrder(*module.op, [](const ir::Op& op) { return isConstraintOrManual(&op); }, ops);
  for (ir::Op* op : ops) {
    if (op->is("sdy.sharding_constraint")) {
      if (op->numOperands() != 1 || op->numResults() != 1) continue;
      auto sharding = constraintSharding(*op);
      if (!sharding) continue;
      ir::Op* head = op;
      if (ir::Op* tail = tailOfChain(head)) {
        ir::Value* input = head->operand(0);
        input->replaceUsesWithIf(tail->result(0), [&](const ir::Use& use) {
          return use.user != head && !util::isReturnOp(*use.user) &&
                 use.user->parentBlock() == tail->parentBlock() &&
                 util::isBeforeInBlock(tail, use.user);
        });
      }
      ir::Value* input = op->operand(0);
      // As in sdy, the constraint gets its (pointwise) sharding rule when its
      // input is updated directly; with debugging the update is a step.
      ApplyFn observe = [&](const std::function<void()>& update) {
        std::optional<OpShardingRule> rule = rules::getOrCreateOpShardingRule(*op, false, nullptr, true);
        if (debug.enabled() && rule)
          recordConstraintStep(debug, module, op, *rule, update);
        else
          update();
      };
      applyConstraint(
          input, *sharding,
          [&]() {
            moveAfterValue(op, input);
            return op;
          },
          observe);
    } else {
      std::vector<TensorSharding> in = util::inShardingsOf(*op);
      for (unsigned i = 0; i < op->numOperands() && i < in.size(); ++i) {
        ir::Value* operand = op->operand(i);
        TensorSharding sharding = in[i];
        ir::SourceLoc loc = op->loc();
        applyConstraint(operand, sharding, [&]() {
          auto c = std::make_unique<ir::Op>("sdy.sharding_constraint", loc);
          c->addOperand(operand);
          c->addResult(operand->type);
          c->setAttr("sharding", sharding, true);
          if (ir::Op* def = operand->definingOp) return def->parentBlock()->insertAfter(def, std::move(c));
          ir::Block* block = operand->ownerBlock;
          ir::Op* first = block->empty() ? nullptr : block->ops().front().get();
          return block->insertBefore(first, std::move(c));
        }, nullptr);
      }
    }
  }
  if (debug.enabled()) debug.save();
  return true;
}

}  // namespace shardscope::passes
