// Causes of collectives (see collective_cause.h).
#include "comm/collective_cause.h"

#include "passes/pass_utils.h"
#include "propagation/axis_algebra.h"
#include "rules/op_sharding_rule_registry.h"

namespace shardscope::comm {

namespace {

using passes::CollectiveKind;

std::string lineText(uint32_t line) { return line ? ", line " + std::to_string(line) : std::string(); }

std::string axesText(const AxisRefList& axes) {
  std::string out;
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i) out += ", ";
    out += axes[i].str();
  }
  return out.empty() ? "no axis" : out;
}

// The dimension of `s` holding an axis overlapping `axis`, or -1.
int64_t dimHolding(const std::optional<TensorSharding>& s, const AxisRef& axis) {
  if (!s) return -1;
  for (size_t d = 0; d < s->dims.size(); ++d)
    for (const AxisRef& a : s->dims[d].axes)
      if (propagation::overlaps(a, axis)) return static_cast<int64_t>(d);
  return -1;
}

bool dimHas(const std::optional<TensorSharding>& s, int64_t dim, const AxisRef& axis) {
  if (!s || dim < 0 || dim >= s->rank()) return false;
  for (const AxisRef& a : s->dims[static_cast<size_t>(dim)].axes)
    if (propagation::overlaps(a, axis)) return true;
  return false;
}

// The dimension of `mapping` made of (among others) `factor`, or -1.
int64_t dimOfFactor(const TensorFactorMapping& mapping, int64_t factor) {
  for (size_t d = 0; d < mapping.dims.size(); ++d)
    for (int64_t f : mapping.dims[d])
      if (f == factor) return static_cast<int64_t>(d);
  return -1;
}

// Kinds that take an axis away from the collected value (it leaves a
// dimension); the others bring one in.
bool removesAxes(CollectiveKind kind) {
  return kind == CollectiveKind::AllGather || kind == CollectiveKind::AllReduce ||
         kind == CollectiveKind::ReduceScatter;
}

// "%arg0: argument sharding, line 3".
std::string originText(const ShardingSide& s) { return s.value + ": " + s.origin; }

// Looks for a factor of `consumer`'s rule explaining the collective; fills
// `cause` and returns true when found.
// Where the side lacking an axis is: the tensor and its dimension.
struct Lacking {
  explain::TensorRef tensor;
  int64_t dim = -1;
};

bool explainByFactor(CollectiveKind kind, const AxisRefList& axes, const ir::Op& consumer, unsigned operand,
                     const ir::Value* result, const std::string& head, CollectiveCause& cause, ValueNames& names,
                     const ir::Value* collected, Lacking& lacking) {
  std::optional<OpShardingRule> rule = rules::createOpShardingRule(consumer);
  if (!rule || operand >= rule->operands.size()) return false;
  const TensorFactorMapping& own = rule->operands[operand];
  for (const AxisRef& axis : axes) {
    // Gathered axes are found on the collected value; sliced or moved ones on
    // the sharding the consumer reads.
    int64_t dim = removesAxes(kind) ? dimHolding(cause.source.sharding, axis) : dimHolding(cause.needed, axis);
    if (dim < 0 || dim >= static_cast<int64_t>(own.dims.size()) || own.dims[static_cast<size_t>(dim)].empty())
      continue;
    for (int64_t factor : own.dims[static_cast<size_t>(dim)]) {
      // The other tensors of the op that map this factor.
      struct Candidate {
        const TensorFactorMapping* mapping;
        const ir::Value* value;
      };
      std::vector<Candidate> others;
      for (unsigned j = 0; j < rule->operands.size() && j < consumer.numOperands(); ++j)
        if (j != operand) others.push_back({&rule->operands[j], consumer.operand(j)});
      for (unsigned r = 0; r < rule->results.size() && r < consumer.numResults(); ++r)
        others.push_back({&rule->results[r], consumer.result(r)});
      for (const Candidate& c : others) {
        // The collected value itself, read a second time, explains nothing.
        if (c.value == result) continue;
        int64_t otherDim = dimOfFactor(*c.mapping, factor);
        if (otherDim < 0) continue;
        std::optional<TensorSharding> s = passes::util::getSharding(const_cast<ir::Value*>(c.value));
        bool otherHas = dimHas(s, otherDim, axis);
        // A gather happens when the other side lacks the axis; a slice or a
        // move when the other side has it.
        if (otherHas == removesAxes(kind)) continue;
        cause.factor = OpShardingRule::factorName(factor);
        cause.other = describeSharding(c.value, names);
        const ShardingSide& with = removesAxes(kind) ? cause.source : cause.other;
        const ShardingSide& without = removesAxes(kind) ? cause.other : cause.source;
        cause.text = head + ": factor " + cause.factor + " is sharded on " + axis.str() + " in " + with.value +
                     " but not in " + without.value + " (" + originText(with) + "; " + originText(without) + ")";
        if (removesAxes(kind))
          lacking = {explain::TensorRef::of(c.value), otherDim};
        else
          lacking = {explain::TensorRef::of(collected), dimOfFactor(own, factor)};
        return true;
      }
    }
  }
  return false;
}

// Why `lacking` holds none of `axes`, one note per axis it could not take.
void addBlocked(const ir::Module& module, const Lacking& lacking, const AxisRefList& axes, CollectiveCause& cause,
                ValueNames& names) {
  if (!lacking.tensor.valid() || lacking.dim < 0) return;
  explain::ShardingState state = explain::moduleShardingState(module);
  // Values are named as the report names them (as the module prints).
  state.name = [&names, plain = state.name](const explain::TensorRef& t) {
    return t.value ? names.name(t.value) : plain(t);
  };
  for (const AxisRef& axis : axes)
    if (std::optional<explain::AxisBlock> b = explain::explainBlockedAxis(state, lacking.tensor, lacking.dim, axis))
      cause.blocked.push_back({state.name(lacking.tensor), lacking.dim, std::move(*b)});
}

}  // namespace

std::string BlockedAxisNote::text() const {
  return "why not " + block.axis.str() + " on " + value + " dimension " + std::to_string(dim) + ": " + block.text;
}

ShardingSide describeSharding(const ir::Value* v, ValueNames& names) {
  ShardingSide side;
  side.value = names.name(v);
  if (!v) return side;
  side.sharding = passes::util::getSharding(const_cast<ir::Value*>(v));
  const ir::Op* owner = v->isBlockArgument() ? v->ownerOp() : v->definingOp;
  if (owner) side.line = owner->loc().line;
  std::string what;
  if (v->isBlockArgument()) {
    if (owner && owner->is("func.func"))
      what = "argument sharding";
    else if (owner && owner->is("sdy.manual_computation"))
      what = "manual computation in_shardings";
    else
      what = "sharding of " + (owner ? owner->name() : std::string("its op")) + "'s block argument";
  } else if (owner->is("sdy.sharding_constraint")) {
    what = "sharding constraint";
  } else if (owner->is("sdy.reshard")) {
    what = "reshard";
  } else if (owner->name().starts_with("sdy.") && owner->hasAttr("out_sharding")) {
    what = "out_sharding of " + owner->name();
  } else if (owner->is("sdy.data_flow_edge")) {
    what = "data-flow edge sharding";
  } else {
    what = "sharding on the op " + names.opLabel(*owner);
  }
  side.origin = side.sharding ? what + lineText(side.line) : "no sharding (replicated)";
  return side;
}

CollectiveCause explainCollective(CollectiveKind kind, const AxisRefList& axes, const ir::Value* collected,
                                  const ir::Value* result, ValueNames& names, const passes::ReshardCause* recorded,
                                  const ir::Module* module) {
  CollectiveCause cause;
  cause.source = describeSharding(collected, names);
  const ir::Op* consumer = nullptr;
  unsigned operand = 0;
  if (result && !result->uses().empty()) {
    consumer = result->uses().front().user;
    operand = result->uses().front().index;
  }
  if (result) cause.needed = passes::util::getSharding(const_cast<ir::Value*>(result));
  std::string head = std::string(passes::collectiveKindName(kind)) + " on " + axesText(axes);
  if (consumer) {
    cause.consumer = names.opLabel(*consumer);
    cause.consumerLine = consumer->loc().line;
    head += " before " + cause.consumer;
    if (cause.consumerLine) head += " (line " + std::to_string(cause.consumerLine) + ")";
  }
  // The factor and the tensor lacking the axis, from the consumer's rule.
  Lacking lacking;
  const bool byFactor =
      consumer && explainByFactor(kind, axes, *consumer, operand, result, head, cause, names, collected, lacking);
  // Why the side without the axes lacks them: the tensor the factor found,
  // else a function result the consumer returns into (its written sharding
  // lacks the gathered axes; same shape, same dimensions).
  if (module && byFactor) {
    addBlocked(*module, lacking, axes, cause, names);
  } else if (module && consumer && consumer->is("func.return") && removesAxes(kind)) {
    if (const ir::Op* func = consumer->parentOp(); func && func->is("func.func"))
      for (const AxisRef& axis : axes)
        if (int64_t dim = dimHolding(cause.source.sharding, axis); dim >= 0)
          addBlocked(*module, {explain::TensorRef::funcResult(func, operand), dim}, {axis}, cause, names);
  }
  // The sentence: the factor's two tensors and where each sharding came
  // from ("factor j is sharded on "x" in %arg1 but not in %arg0 (...)") when
  // the rule finds the factor the pass that inserted it names; else what
  // that pass said (it knows the factor it chose).
  const bool sameFactor = byFactor && recorded && !recorded->factorName.empty() &&
                          recorded->factorName == cause.factor;
  if (recorded && !recorded->reason.empty() && !sameFactor) {
    cause.factor = recorded->factorName;
    cause.text = head + ": " + recorded->reason + " (" + originText(cause.source) + ")";
    return cause;
  }
  if (byFactor) return cause;
  std::string sourceText = cause.source.sharding ? cause.source.sharding->strBody() : std::string("replicated");
  std::string neededText = cause.needed ? cause.needed->strBody() : std::string("replicated");
  cause.text = head + ": " + cause.source.value + " is sharded " + sourceText + " (" + cause.source.origin + ")" +
               (consumer ? " but " + cause.consumer + " reads it as " : " but it is needed as ") + neededText;
  return cause;
}

}  // namespace shardscope::comm
