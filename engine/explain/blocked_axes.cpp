// What blocked each candidate axis of a dimension (see blocked_axes.h).
#include "explain/blocked_axes.h"

#include "explain/sharding_origin.h"
#include "propagation/axis_algebra.h"
#include "propagation/basic_factor_propagation.h"
#include "propagation/sharding_projection.h"
#include "propagation/value_shardings.h"
#include "rules/op_sharding_rule_registry.h"
#include "sharding/checked_size.h"

namespace shardscope::explain {

namespace {

using propagation::axisSize;
using propagation::overlaps;

std::string axesText(const AxisRefList& axes) {
  std::string out = "{";
  for (size_t i = 0; i < axes.size(); ++i) out += (i ? ", " : "") + axes[i].str();
  return out + "}";
}

std::string withPriority(const std::string& text, const std::optional<int64_t>& p) {
  return p ? text + "p" + std::to_string(*p) : text;
}

std::string lineText(uint32_t line) { return line ? " (line " + std::to_string(line) + ")" : ""; }

const std::vector<int64_t>* shapeOf(const TensorRef& t) {
  if (t.value) return t.value->type->isRankedTensor() ? &t.value->type->shape : nullptr;
  if (!t.func) return nullptr;
  // The function result has the type of the returned value.
  const ir::Op* ret = nullptr;
  if (t.func->numRegions() && !t.func->region(0).empty())
    for (const auto& op : t.func->region(0).front().ops())
      if (op->is("func.return")) ret = op.get();
  if (!ret || t.result >= ret->numOperands()) return nullptr;
  const ir::Value* v = ret->operand(t.result);
  return v->type->isRankedTensor() ? &v->type->shape : nullptr;
}

// The sharding of a function result as written on the func.func.
std::optional<TensorSharding> funcResult(const TensorRef& t) {
  return propagation::funcResultSharding(*t.func, t.result);
}

std::string plainName(const ir::Value* v) {
  if (!v || v->sourceName.empty()) return "a value";
  return v->sourceName.front() == '%' ? v->sourceName : "%" + v->sourceName;
}

std::string funcName(const ir::Op* func) {
  const ir::Attribute* a = func->attr("sym_name");
  return a && a->string() ? "@" + *a->string() : std::string("@?");
}

// An op with a sharding rule around the tensor, or a function's return
// (identity between the returned value and the function result).
struct Neighbour {
  std::string label;  // "%0 = stablehlo.add", "func.return"
  uint32_t line = 0;
  OpShardingRule rule;
  std::vector<TensorRef> tensors;  // operands then results
  size_t self = 0;                 // the tensor index of the one explained
};

OpShardingRule identityRule(const std::vector<int64_t>& shape) {
  OpShardingRule rule;
  TensorFactorMapping m;
  for (size_t d = 0; d < shape.size(); ++d) {
    rule.factorSizes.push_back(shape[d]);
    m.dims.push_back({static_cast<int64_t>(d)});
  }
  rule.operands.push_back(m);
  rule.results.push_back(m);
  return rule;
}

std::optional<Neighbour> ruleNeighbour(const ShardingState& state, const ir::Op& op, size_t self) {
  std::optional<OpShardingRule> rule;
  if (const OpShardingRule* existing = rules::existingOpShardingRule(op))
    rule = *existing;
  else
    rule = rules::createOpShardingRule(op);
  if (!rule || rule->operands.size() != op.numOperands() || rule->results.size() != op.numResults())
    return std::nullopt;
  Neighbour n;
  n.rule = std::move(*rule);
  n.line = op.loc().line;
  n.label =
      op.numResults() ? state.name(TensorRef::of(op.result(0))) + " = " + op.name() : op.name();
  for (const ir::Value* v : op.operands()) n.tensors.push_back(TensorRef::of(v));
  for (const ir::Value* v : op.resultRange()) n.tensors.push_back(TensorRef::of(v));
  n.self = self;
  return n;
}

std::vector<Neighbour> neighboursOf(const ShardingState& state, const TensorRef& t) {
  std::vector<Neighbour> out;
  auto addReturn = [&](const ir::Op& ret, unsigned i, bool selfIsResult) {
    const ir::Op* func = ret.parentOp();
    if (!func || !func->is("func.func")) return;
    const std::vector<int64_t>* shape =
        ret.operand(i)->type->isRankedTensor() ? &ret.operand(i)->type->shape : nullptr;
    if (!shape) return;
    Neighbour n;
    n.label = "func.return";
    n.line = ret.loc().line;
    n.rule = identityRule(*shape);
    n.tensors = {TensorRef::of(ret.operand(i)), TensorRef::funcResult(func, i)};
    n.self = selfIsResult ? 1 : 0;
    out.push_back(std::move(n));
  };
  if (t.func) {
    if (!t.func->numRegions() || t.func->region(0).empty()) return out;
    for (const auto& op : t.func->region(0).front().ops())
      if (op->is("func.return") && t.result < op->numOperands()) addReturn(*op, t.result, true);
    return out;
  }
  const ir::Value* v = t.value;
  if (!v) return out;
  if (const ir::Op* def = v->definingOp)
    if (auto n = ruleNeighbour(state, *def, def->numOperands() + v->index))
      out.push_back(std::move(*n));
  for (const ir::Use& use : v->uses()) {
    if (use.user->is("func.return")) {
      addReturn(*use.user, use.index, false);
      continue;
    }
    if (auto n = ruleNeighbour(state, *use.user, use.index)) out.push_back(std::move(*n));
  }
  return out;
}

const Mesh* meshFor(const ShardingState& state, const std::optional<TensorSharding>& s) {
  if (!s || !state.module) return nullptr;
  const Mesh* m = state.module->meshOf(*s);
  return m && !m->empty() ? m : nullptr;
}

// Where a candidate is offered: a neighbour's tensor holding it on a factor
// of the explained dimension.
struct Offer {
  size_t neighbour = 0;
  size_t tensor = 0;
  int64_t factor = -1;
  bool overflow = false;  // held only as an overflow axis of the factor
};

struct Analysis {
  const ShardingState& state;
  TensorRef tensor;
  int64_t dim;
  std::optional<TensorSharding> sharding;
  const Mesh* mesh = nullptr;
  std::vector<Neighbour> neighbours;
  // Per neighbour: the projection of its tensors' shardings.
  std::vector<propagation::ShardingProjection> projections;
  std::vector<std::vector<std::optional<TensorSharding>>> shardings;

  std::string name(const TensorRef& t) const { return state.name(t); }
  std::optional<int64_t> priority(const TensorRef& t, int64_t d) const {
    return state.priority && d >= 0 ? state.priority(t, d) : std::nullopt;
  }
  const std::vector<int64_t>& selfFactors(size_t n) const {
    static const std::vector<int64_t> kNone;
    const Neighbour& nb = neighbours[n];
    const TensorFactorMapping* m = nb.self < nb.rule.operands.size()
                                       ? &nb.rule.operands[nb.self]
                                       : &nb.rule.results[nb.self - nb.rule.operands.size()];
    return static_cast<size_t>(dim) < m->dims.size() ? m->dims[static_cast<size_t>(dim)] : kNone;
  }
  int64_t dimOf(size_t n, size_t tensor, int64_t factor) const {
    const Neighbour& nb = neighbours[n];
    const TensorFactorMapping& m = tensor < nb.rule.operands.size()
                                       ? nb.rule.operands[tensor]
                                       : nb.rule.results[tensor - nb.rule.operands.size()];
    for (size_t d = 0; d < m.dims.size(); ++d)
      for (int64_t f : m.dims[d])
        if (f == factor) return static_cast<int64_t>(d);
    return -1;
  }
};

// Every place a neighbour's tensor holds an axis overlapping `axis` on a
// factor of the explained dimension.
std::vector<Offer> offersOf(const Analysis& a, const AxisRef& axis) {
  std::vector<Offer> out;
  for (size_t n = 0; n < a.neighbours.size(); ++n) {
    for (int64_t f : a.selfFactors(n)) {
      const propagation::ShardingProjection& p = a.projections[n];
      for (size_t t = 0; t < p.numTensors(); ++t) {
        if (t == a.neighbours[n].self) continue;
        const propagation::FactorSharding* fs = p.tensor(t).find(f);
        if (!fs) continue;
        bool inAxes = false, inOverflow = false;
        for (const AxisRef& x : fs->axes) inAxes |= overlaps(x, axis);
        for (const AxisRef& x : fs->overflowAxes) inOverflow |= overlaps(x, axis);
        if (inAxes || inOverflow) out.push_back({n, t, f, !inAxes});
      }
    }
  }
  return out;
}

// The axis a neighbour offers for `name` (the first offer's), if any.
std::optional<AxisRef> offeredAxis(const Analysis& a, const AxisRef& full) {
  for (const Offer& o : offersOf(a, full)) {
    const propagation::FactorSharding* fs =
        a.projections[o.neighbour].tensor(o.tensor).find(o.factor);
    for (const AxisRef& x : o.overflow ? fs->overflowAxes : fs->axes)
      if (overlaps(x, full)) return x;
  }
  return std::nullopt;
}

AxisBlock start(const AxisRef& axis, BlockReason reason) {
  AxisBlock b;
  b.axis = axis;
  b.reason = reason;
  return b;
}

void setOp(AxisBlock& b, const Neighbour& n, int64_t factor) {
  b.op = n.label;
  b.line = n.line;
  b.factor = OpShardingRule::factorName(factor);
}

std::string factorAt(const AxisBlock& b) {
  return "factor " + b.factor + " of " + b.op + lineText(b.line);
}

// A block found in tensor `who` of neighbour `n` along `factor`, which
// holds `blockerAxes` there.
AxisBlock blockIn(const AxisRef& axis, BlockReason reason, const Neighbour& n, int64_t factor,
                  const std::string& who, const AxisRefList& blockerAxes) {
  AxisBlock b = start(axis, reason);
  setOp(b, n, factor);
  b.blocker = who;
  b.blockerAxes = axesText(blockerAxes);
  return b;
}

// Reasons that lie in the explained tensor itself.
std::optional<AxisBlock> ownReason(const Analysis& a, const AxisRef& axis) {
  const std::string self = a.name(a.tensor);
  if (!a.sharding) return std::nullopt;
  const TensorSharding& s = *a.sharding;
  for (const AxisRef& r : s.replicated)
    if (overlaps(r, axis)) {
      AxisBlock b = start(axis, BlockReason::Replicated);
      b.blocker = self;
      b.blockerAxes = axesText(s.replicated);
      b.text = "replicated: " + self + " lists " + r.str() + " in replicated=" + b.blockerAxes;
      return b;
    }
  for (const AxisRef& u : s.unreduced)
    if (overlaps(u, axis)) {
      AxisBlock b = start(axis, BlockReason::UsedElsewhere);
      b.blocker = self;
      b.blockerAxes = axesText(s.unreduced);
      b.text = "used: " + u.str() + " is an unreduced axis of " + self +
               " (unreduced=" + b.blockerAxes + ")";
      return b;
    }
  for (size_t d = 0; d < s.dims.size(); ++d) {
    if (static_cast<int64_t>(d) == a.dim) continue;
    for (const AxisRef& x : s.dims[d].axes)
      if (overlaps(x, axis)) {
        AxisBlock b = start(axis, BlockReason::UsedElsewhere);
        b.otherDim = static_cast<int64_t>(d);
        b.blocker = self;
        b.blockerAxes = s.dims[d].str();
        b.text = "used: " + x.str() + " already shards dimension " + std::to_string(d) + " of " +
                 self + " " + b.blockerAxes + "; an axis shards at most one dimension";
        return b;
      }
  }
  if (static_cast<size_t>(a.dim) < s.dims.size() && s.dims[static_cast<size_t>(a.dim)].closed) {
    AxisBlock b = start(axis, BlockReason::Closed);
    b.blocker = self;
    b.blockerAxes = s.dims[static_cast<size_t>(a.dim)].str();
    b.text = "closed: dimension " + std::to_string(a.dim) + " of " + self + " is " + b.blockerAxes +
             ", closed (written without `?`), so propagation adds no axis to it";
    return b;
  }
  return std::nullopt;
}

// Why basic propagation's cut of `cand` (at a position where the axes before
// it multiply to `prev`) fails in tensor `t` of neighbour `n` along factor
// `f`; nullopt when that tensor lets it through whole.
std::optional<AxisBlock> cutReason(const Analysis& a, size_t n, int64_t f, size_t t,
                                   const AxisRef& cand, int64_t prev, const AxisRef& asked) {
  const Neighbour& nb = a.neighbours[n];
  const propagation::TensorFactorShardings& row = a.projections[n].tensor(t);
  const std::string who = a.name(nb.tensors[t]);
  const bool self = t == nb.self;
  // Across factors: another factor of this tensor uses the axis.
  for (const auto& [other, fs] : row.factors) {
    if (other == f) continue;
    for (const AxisRef& x : fs.axes)
      if (overlaps(x, cand)) {
        AxisBlock b = blockIn(asked, self ? BlockReason::UsedElsewhere : BlockReason::Conflict, nb,
                              f, who, fs.axes);
        b.otherDim = a.dimOf(n, t, other);
        b.text = std::string(self ? "used: " : "conflict: ") + cand.str() + " is used by factor " +
                 OpShardingRule::factorName(other) + " of " + nb.label + lineText(nb.line) +
                 " in " + who + " (dimension " + std::to_string(b.otherDim) + " " + b.blockerAxes +
                 "), so factor " + b.factor + " cannot take it";
        return b;
      }
  }
  const propagation::FactorSharding* fs = row.find(f);
  if (!fs) return std::nullopt;
  for (const AxisRef& x : fs->axes)
    if (propagation::contains(x, cand)) return std::nullopt;  // already there
  for (const AxisRef& r : row.replicated)
    if (overlaps(r, cand)) {
      AxisBlock b = blockIn(asked, self ? BlockReason::Replicated : BlockReason::Conflict, nb, f,
                            who, row.replicated);
      b.text = std::string(self ? "replicated: " : "conflict: ") + who + " lists " + r.str() +
               " in replicated=" + b.blockerAxes + ", so " + factorAt(b) + " cannot take it";
      return b;
    }
  for (const AxisRef& u : row.unreduced)
    if (overlaps(u, cand)) {
      AxisBlock b = blockIn(asked, self ? BlockReason::UsedElsewhere : BlockReason::Conflict, nb, f,
                            who, row.unreduced);
      b.text = std::string(self ? "used: " : "conflict: ") + u.str() + " is unreduced in " + who +
               ", so " + factorAt(b) + " cannot take it";
      return b;
    }
  const int64_t dimOfT = a.dimOf(n, t, f);
  if (fs->closed) {
    AxisBlock b = blockIn(asked, BlockReason::Closed, nb, f, who, fs->axes);
    b.text = "closed: dimension " + std::to_string(dimOfT) + " of " + who + " is closed" +
             (self ? "" : " and does not hold " + cand.str()) + ", so " + factorAt(b) + " stays " +
             b.blockerAxes + " there";
    return b;
  }
  const int64_t factorSize = nb.rule.factorSizes[static_cast<size_t>(f)];
  const int64_t size = axisSize(cand, *a.mesh);
  if (!fs->overflowAxes.empty() || (!fs->minorMost && !(prev > 0 && factorSize % prev == 0 &&
                                                        (factorSize / prev) % size == 0))) {
    AxisBlock b = start(asked, BlockReason::Divisibility);
    setOp(b, nb, f);
    b.blocker = who;
    b.factorSize = factorSize;
    b.shardedBefore = prev;
    b.axisSize = size;
    const std::vector<int64_t>* shape = shapeOf(nb.tensors[t]);
    const std::string dimSize =
        shape && dimOfT >= 0 && static_cast<size_t>(dimOfT) < shape->size()
            ? " (size " + std::to_string((*shape)[static_cast<size_t>(dimOfT)]) + ")"
            : "";
    b.text = "divisibility: in " + who + ", " + factorAt(b) + " (size " +
             std::to_string(factorSize) + ") is not the minor-most factor of dimension " +
             std::to_string(dimOfT) + dimSize + ", so its axes must divide it; " +
             std::to_string(factorSize) +
             (prev > 1 ? " / " + std::to_string(prev) + " (axes before)" : "") +
             " is not divisible by " + cand.str() + " (size " + std::to_string(size) + ")";
    return b;
  }
  return std::nullopt;
}

// Priorities of the tensors that disagree: a conflict where the one holding
// other axes has the higher priority is that priority's doing.
void refineByPriority(const Analysis& a, size_t n, size_t sourceT, size_t blockerT, int64_t f,
                      AxisBlock& b) {
  const Neighbour& nb = a.neighbours[n];
  b.sourcePriority = a.priority(nb.tensors[sourceT], a.dimOf(n, sourceT, f));
  b.blockerPriority = a.priority(nb.tensors[blockerT], a.dimOf(n, blockerT, f));
  if (!b.blockerPriority) return;
  if (b.sourcePriority && *b.sourcePriority <= *b.blockerPriority) return;
  b.reason = BlockReason::Priority;
  b.text = "priority: " + b.blocker + " holds " + withPriority(b.blockerAxes, b.blockerPriority) +
           " on " + factorAt(b) + ", a higher priority than " + b.source + "'s " +
           withPriority(b.sourceAxes, b.sourcePriority) +
           "; it was propagated in an earlier pass, and " + b.axis.str() + " conflicts with it";
}

// The reason `axis` does not pass along offer `o`.
AxisBlock offerReason(const Analysis& a, const Offer& o, const AxisRef& axis) {
  const Neighbour& nb = a.neighbours[o.neighbour];
  const propagation::ShardingProjection& p = a.projections[o.neighbour];
  const std::string source = a.name(nb.tensors[o.tensor]);
  const propagation::FactorSharding* sfs = p.tensor(o.tensor).find(o.factor);
  AxisBlock b = start(axis, BlockReason::NotYet);
  setOp(b, nb, o.factor);
  b.source = source;
  b.sourceAxes = axesText(o.overflow ? sfs->overflowAxes : sfs->axes);
  if (nb.rule.isBlocked(o.factor)) {
    b.reason = BlockReason::BlockedFactor;
    const FactorType type = nb.rule.factorType(o.factor);
    const char* kind = type == FactorType::NeedReplication ? "need-replication"
                       : type == FactorType::Permutation   ? "permutation"
                                                           : "blocked";
    b.text = "blocked factor: " + factorAt(b) + " is " + kind + ", so " + source + "'s " +
             axis.str() + " does not propagate along it";
    return b;
  }
  if (o.overflow) {
    // The source could not split the axis over this factor.
    b.reason = BlockReason::Divisibility;
    b.factorSize = nb.rule.factorSizes[static_cast<size_t>(o.factor)];
    b.shardedBefore = axesSize(sfs->axes, *a.mesh);
    b.axisSize = axisSize(axis, *a.mesh);
    b.blocker = source;
    b.text = "divisibility: " + source + " holds " + axis.str() + " (size " +
             std::to_string(b.axisSize) + ") on dimension " +
             std::to_string(a.dimOf(o.neighbour, o.tensor, o.factor)) + ", but " + factorAt(b) +
             " (size " + std::to_string(b.factorSize) +
             ") is not divisible by it, so it cannot be split onto " + "that factor";
    return b;
  }
  // (a) The axes every tensor mapping the factor agrees on.
  AxisRefList compat =
      propagation::basic::compatibleMajorAxes(p, o.factor, propagation::PropagationDirection::Both);
  size_t pos = compat.size();
  for (size_t i = 0; i < compat.size(); ++i)
    if (overlaps(compat[i], axis)) {
      pos = i;
      break;
    }
  if (pos == compat.size()) {
    // Some tensor holds other axes where the source holds this one.
    size_t blocker = o.tensor;
    for (size_t t = 0; t < p.numTensors(); ++t) {
      if (t == o.tensor) continue;
      const propagation::FactorSharding* fs = p.tensor(t).find(o.factor);
      if (!fs || fs->axes.empty()) continue;
      bool has = false;
      for (const AxisRef& x : fs->axes) has |= overlaps(x, axis);
      if (!has) {
        blocker = t;
        break;
      }
    }
    b.reason = BlockReason::Conflict;
    if (blocker == o.tensor) {
      b.text = "conflict: the tensors of " + factorAt(b) + " hold its axes in different orders";
      return b;
    }
    b.blocker = a.name(nb.tensors[blocker]);
    b.blockerAxes = axesText(p.tensor(blocker).find(o.factor)->axes);
    b.text = "conflict: " + factorAt(b) + " is sharded on " + b.sourceAxes + " in " + source +
             " but on " + b.blockerAxes + " in " + b.blocker + ", so propagation takes neither";
    refineByPriority(a, o.neighbour, o.tensor, blocker, o.factor, b);
    return b;
  }
  // (b) The cuts, major to minor, up to the candidate.
  int64_t prev = 1;
  for (size_t i = 0; i <= pos; ++i) {
    for (size_t t = 0; t < p.numTensors(); ++t) {
      std::optional<AxisBlock> cut = cutReason(a, o.neighbour, o.factor, t, compat[i], prev, axis);
      if (!cut) continue;
      cut->source = b.source;
      cut->sourceAxes = b.sourceAxes;
      if (i < pos) cut->text += " (and " + axis.str() + " comes after " + compat[i].str() + ")";
      if (cut->reason == BlockReason::Conflict && !cut->blocker.empty()) {
        // Which tensor index is the blocker, for priorities.
        for (size_t bt = 0; bt < nb.tensors.size(); ++bt)
          if (a.name(nb.tensors[bt]) == cut->blocker) {
            refineByPriority(a, o.neighbour, o.tensor, bt, o.factor, *cut);
            break;
          }
      }
      return *cut;
    }
    prev = saturatingMul(prev, axisSize(compat[i], *a.mesh));
  }
  b.text = "not yet: " + factorAt(b) + " can still bring it from " + source + " " + b.sourceAxes;
  return b;
}

AxisBlock blockFor(const Analysis& a, const AxisRef& axis) {
  if (std::optional<AxisBlock> own = ownReason(a, axis)) return *own;
  std::vector<Offer> offers = offersOf(a, axis);
  if (offers.empty()) {
    AxisBlock b = start(axis, BlockReason::NoSource);
    b.text =
        "no source: no operand or result connected to this dimension by a factor is sharded on " +
        axis.str();
    return b;
  }
  // The first offer that says more than "not yet" explains it.
  std::optional<AxisBlock> pending;
  for (const Offer& o : offers) {
    AxisBlock b = offerReason(a, o, axis);
    if (b.reason != BlockReason::NotYet) return b;
    if (!pending) pending = b;
  }
  return *pending;
}

std::optional<Analysis> analyse(const ShardingState& state, const TensorRef& tensor, int64_t dim) {
  const std::vector<int64_t>* shape = shapeOf(tensor);
  if (!tensor.valid() || !shape || dim < 0 || static_cast<size_t>(dim) >= shape->size())
    return std::nullopt;
  Analysis a{state, tensor, dim, state.sharding(tensor), nullptr, neighboursOf(state, tensor),
             {},    {}};
  a.mesh = meshFor(state, a.sharding);
  MeshRef meshRef;
  if (a.sharding) meshRef = a.sharding->mesh;
  for (const Neighbour& n : a.neighbours) {
    std::vector<std::optional<TensorSharding>> list;
    for (const TensorRef& t : n.tensors) {
      list.push_back(state.sharding(t));
      if (!a.mesh && (a.mesh = meshFor(state, list.back()))) meshRef = list.back()->mesh;
    }
    a.shardings.push_back(std::move(list));
  }
  if (!a.mesh) return std::nullopt;
  // Tensors on another mesh do not take part.
  for (auto& list : a.shardings)
    for (auto& s : list)
      if (s && meshFor(state, s) != a.mesh) s.reset();
  for (size_t n = 0; n < a.neighbours.size(); ++n) {
    const Neighbour& nb = a.neighbours[n];
    const size_t numOperands = nb.rule.operands.size();
    std::vector<std::optional<TensorSharding>> ops(a.shardings[n].begin(),
                                                   a.shardings[n].begin() + numOperands);
    std::vector<std::optional<TensorSharding>> res(a.shardings[n].begin() + numOperands,
                                                   a.shardings[n].end());
    a.projections.push_back(propagation::ShardingProjection::build(ops, res, nb.rule, *a.mesh));
  }
  return a;
}

}  // namespace

const char* blockReasonName(BlockReason reason) {
  switch (reason) {
    case BlockReason::Replicated:
      return "replicated";
    case BlockReason::UsedElsewhere:
      return "used";
    case BlockReason::Closed:
      return "closed";
    case BlockReason::BlockedFactor:
      return "blocked factor";
    case BlockReason::Divisibility:
      return "divisibility";
    case BlockReason::Priority:
      return "priority";
    case BlockReason::Conflict:
      return "conflict";
    case BlockReason::NoSource:
      return "no source";
    case BlockReason::NotYet:
      return "not yet";
  }
  return "";
}

std::optional<AxisBlock> explainBlockedAxis(const ShardingState& state, const TensorRef& tensor,
                                            int64_t dim, const AxisRef& axis) {
  std::optional<Analysis> a = analyse(state, tensor, dim);
  if (!a) return std::nullopt;
  if (a->sharding && static_cast<size_t>(dim) < a->sharding->dims.size())
    for (const AxisRef& x : a->sharding->dims[static_cast<size_t>(dim)].axes)
      if (propagation::contains(x, axis)) return std::nullopt;
  return blockFor(*a, axis);
}

DimensionBlocks explainBlockedAxes(const ShardingState& state, const TensorRef& tensor,
                                   int64_t dim) {
  DimensionBlocks out;
  out.value = tensor.valid() ? state.name(tensor) : std::string();
  out.dim = dim;
  if (const std::vector<int64_t>* shape = shapeOf(tensor);
      shape && dim >= 0 && static_cast<size_t>(dim) < shape->size())
    out.size = (*shape)[static_cast<size_t>(dim)];
  std::optional<Analysis> a = analyse(state, tensor, dim);
  if (!a) return out;
  if (a->sharding && static_cast<size_t>(dim) < a->sharding->dims.size())
    out.sharding = a->sharding->dims[static_cast<size_t>(dim)];
  const AxisRefList held = out.sharding ? out.sharding->axes : AxisRefList{};
  for (const MeshAxis& m : a->mesh->axes) {
    const AxisRef full{m.name, std::nullopt};
    bool whole = false, part = false;
    for (const AxisRef& x : held) {
      whole |= propagation::contains(x, full);
      part |= overlaps(x, full);
    }
    if (whole) continue;
    AxisRef cand = full;
    if (std::optional<AxisRef> offered = offeredAxis(*a, full)) {
      bool have = false;
      for (const AxisRef& x : held) have |= propagation::contains(x, *offered);
      if (have) continue;  // the dimension holds what is offered
      cand = *offered;
    } else if (part) {
      continue;  // holds part of the axis and nobody offers more
    }
    out.axes.push_back(blockFor(*a, cand));
  }
  return out;
}

std::string DimensionBlocks::text() const {
  std::string out = value + " dimension " + std::to_string(dim);
  if (size >= 0) out += " (size " + std::to_string(size) + ")";
  out += " " + (sharding ? sharding->str() : std::string("unsharded"));
  for (const AxisBlock& b : axes) out += "\n  " + b.axis.str() + ": " + b.text;
  return out;
}

ShardingState moduleShardingState(const ir::Module& module) {
  ShardingState s;
  s.module = &module;
  s.sharding = [](const TensorRef& t) -> std::optional<TensorSharding> {
    if (t.func) return funcResult(t);
    auto sharding = propagation::getSharding(const_cast<ir::Value*>(t.value));
    if (!sharding) return sharding;
    // A propagated op result is open: only what a user writes is closed.
    const ir::Op* def = t.value->definingOp;
    const bool written = !def || def->is("sdy.sharding_constraint") ||
                         def->is("sdy.manual_computation") || def->is("sdy.data_flow_edge") ||
                         def->is("sdy.reshard");
    if (!written)
      for (DimensionSharding& d : sharding->dims) d.closed = false;
    return sharding;
  };
  s.priority = [s](const TensorRef& t, int64_t dim) -> std::optional<int64_t> {
    auto sharding = s.sharding(t);
    if (!sharding || dim >= sharding->rank()) return std::nullopt;
    return sharding->dims[static_cast<size_t>(dim)].priority;
  };
  s.name = [](const TensorRef& t) {
    return t.func ? funcName(t.func) + " result " + std::to_string(t.result) : plainName(t.value);
  };
  return s;
}

ShardingState traceShardingState(const TraceIndex& index, size_t steps) {
  ShardingState s;
  s.module = &index.module();
  auto refOf = [&index](const TensorRef& t) -> std::optional<TraceValueRef> {
    return t.func ? index.funcResultRef(t.func, t.result) : index.refOf(t.value);
  };
  s.sharding = [refOf, &index, steps](const TensorRef& t) -> std::optional<TensorSharding> {
    std::optional<TraceValueRef> ref = refOf(t);
    return ref ? index.shardingAfter(*ref, steps) : std::nullopt;
  };
  s.priority = [refOf, &index, steps](const TensorRef& t, int64_t dim) -> std::optional<int64_t> {
    std::optional<TraceValueRef> ref = refOf(t);
    if (!ref) return std::nullopt;
    if (auto initial = index.initialSharding(*ref); initial && dim < initial->rank())
      if (auto p = initial->dims[static_cast<size_t>(dim)].priority) return p;
    // A propagated dimension has the priority of the seeds its axes came from.
    std::optional<int64_t> best;
    for (const AxisOrigin& o : explainDimension(index, *ref, dim, steps).axes)
      if (o.seed && o.seed->priority && (!best || *o.seed->priority < *best))
        best = o.seed->priority;
    return best;
  };
  s.name = [refOf, &index](const TensorRef& t) {
    std::optional<TraceValueRef> ref = refOf(t);
    return ref ? index.valueName(*ref) : std::string("a value");
  };
  return s;
}

}  // namespace shardscope::explain
