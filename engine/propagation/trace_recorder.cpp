// Trace recording (see trace_recorder.h).
#include "propagation/trace_recorder.h"

#include <algorithm>

#include "propagation/axis_algebra.h"
#include "propagation/basic_factor_propagation.h"
#include "propagation/value_shardings.h"

namespace shardscope::propagation {

namespace {

std::string tensorLabel(const ShardingProjection& p, size_t i) {
  bool isResult = i >= p.numOperands();
  return (isResult ? "result-" : "operand-") + std::to_string(isResult ? i - p.numOperands() : i);
}

std::string valueLabel(const ir::Value* v) {
  if (!v) return {};
  if (!v->sourceName.empty()) return v->sourceName.front() == '%' ? v->sourceName : "%" + v->sourceName;
  return {};
}

TraceValueRef refOf(PropagationDriver& driver, const StepEvent::Write& w) {
  TraceValueRef r;
  if (w.func) {
    r.kind = "func_result";
    r.op = driver.opIndex(w.func);
    r.index = w.funcResult;
    return r;
  }
  const ir::Value* v = w.value;
  if (v->isBlockArgument()) {
    r.kind = "block_arg";
    ir::Op* owner = v->ownerBlock->parentOp();
    r.op = driver.opIndex(owner);
    for (unsigned i = 0; owner && i < owner->numRegions(); ++i)
      if (!owner->region(i).empty() && &owner->region(i).front() == v->ownerBlock) r.region = i;
    r.index = v->index;
  } else {
    r.kind = "result";
    r.op = driver.opIndex(v->definingOp);
    r.index = v->index;
  }
  return r;
}

}  // namespace

std::vector<TraceAxisMove> axisMoves(const ShardingProjection& before, const ShardingProjection& after) {
  std::vector<TraceAxisMove> moves;
  for (size_t t = 0; t < after.numTensors() && t < before.numTensors(); ++t) {
    for (const auto& [f, fs] : after.tensor(t).factors) {
      const FactorSharding* old = before.tensor(t).find(f);
      if (!old || old->axes == fs.axes) continue;
      std::string from;
      for (size_t s = 0; s < before.numTensors() && from.empty(); ++s) {
        const FactorSharding* other = before.tensor(s).find(f);
        if (other && listPrefixStatus(fs.axes, other->axes) != PrefixStatus::NotAPrefix) from = tensorLabel(before, s);
      }
      if (from.empty()) from = "?";
      size_t start = old->axes.size();
      if (start > 0 && !(old->axes[start - 1] == fs.axes[start - 1])) --start;  // a sub-axis grew
      for (size_t k = start; k < fs.axes.size(); ++k)
        moves.push_back({f, fs.axes[k], from, tensorLabel(after, t)});
    }
  }
  return moves;
}

std::vector<TraceConflict> unresolvedConflicts(const ShardingProjection& after, const OpShardingRule& rule,
                                               const std::vector<PropagationDirection>& directions) {
  std::vector<TraceConflict> out;
  for (int64_t f = 0; f < rule.numFactors(); ++f) {
    std::vector<size_t> mapping;
    for (size_t t = 0; t < after.numTensors(); ++t)
      if (after.tensor(t).mapsFactor(f)) mapping.push_back(t);
    if (mapping.size() < 2) continue;
    bool allEqual = true;
    const AxisRefList& first = after.tensor(mapping[0]).find(f)->axes;
    for (size_t t : mapping)
      if (!(after.tensor(t).find(f)->axes == first)) allEqual = false;
    if (allEqual) continue;
    PropagationDirection dir = f < static_cast<int64_t>(directions.size()) ? directions[f] : PropagationDirection::Both;
    std::string reason;
    if (rule.isBlocked(f)) {
      reason = "factor has blocked propagation";
    } else if (dir == PropagationDirection::None) {
      reason = "propagation along this factor is not allowed at this stage (direction NONE)";
    } else {
      // Do two tensors hold axes that are not prefixes of each other?
      bool incompatible = false;
      for (size_t a = 0; a < mapping.size() && !incompatible; ++a)
        for (size_t b = a + 1; b < mapping.size() && !incompatible; ++b) {
          const AxisRefList& x = after.tensor(mapping[a]).find(f)->axes;
          const AxisRefList& y = after.tensor(mapping[b]).find(f)->axes;
          if (listPrefixStatus(x, y) == PrefixStatus::NotAPrefix && listPrefixStatus(y, x) == PrefixStatus::NotAPrefix)
            incompatible = true;
        }
      if (incompatible) {
        reason = "tensors hold incompatible axes for this factor";
      } else if (dir != PropagationDirection::Both) {
        reason = std::string("only ") + directionName(dir) + " propagation is allowed along this factor";
      } else {
        std::string who;
        size_t longest = 0;
        for (size_t t : mapping) longest = std::max(longest, after.tensor(t).find(f)->axes.size());
        for (size_t t : mapping) {
          const FactorSharding* fs = after.tensor(t).find(f);
          if (fs->axes.size() == longest) continue;  // holds the most; not the one held back
          if (fs->closed) who += (who.empty() ? "" : ", ") + tensorLabel(after, t) + " is closed";
          else if (!fs->overflowAxes.empty()) who += (who.empty() ? "" : ", ") + tensorLabel(after, t) + " has overflow axes";
        }
        reason = who.empty() ? "the longer axes overlap another factor, replicated/unreduced axes, or do not divide the factor"
                             : who;
      }
    }
    out.push_back({f, reason});
  }
  return out;
}

StepObserver makeTraceRecorder(PropagationDriver& driver, PropagationTrace& trace) {
  return [&driver, &trace](const StepEvent& e) {
    TraceStep s;
    s.step = e.step;
    s.userPriority = e.label.userPriority;
    s.opPriority = e.label.opPriority;
    s.strategy = e.strategy ? e.strategy->name() : "";
    s.iteration = e.iteration;
    s.visit = e.visit;
    s.op = e.funcResultSync ? "func.return" : e.op->name();
    s.opIndex = driver.opIndex(e.op);
    s.line = e.op->loc().line;
    s.col = e.op->loc().col;
    if (e.rule) s.rule = e.rule->strBody();
    for (PropagationDirection d : e.directions) s.directions.push_back(directionName(d));
    std::vector<std::string> names;
    for (const ir::Value* v : e.operands) names.push_back(valueLabel(v));
    for (size_t i = 0; i < e.results.size(); ++i)
      names.push_back(e.funcResultSync ? "result " + std::to_string(e.funcResultIndex) : valueLabel(e.results[i]));
    s.before = toTraceTable(*e.before, names);
    s.after = toTraceTable(*e.after, names);
    s.moves = axisMoves(*e.before, *e.after);
    s.conflicts = unresolvedConflicts(*e.after, *e.rule, e.directions);
    for (const StepEvent::Write& w : e.writes) s.updates.push_back({refOf(driver, w), w.sharding});
    trace.steps.push_back(std::move(s));
  };
}

}  // namespace shardscope::propagation

namespace shardscope::propagation {

TraceNormalizer::TraceNormalizer(PropagationDriver& driver) : driver_(driver) {
  auto addValue = [&](ir::Value* v) {
    if (!v || shardableValue(v) != v || valueSlots_.count(v)) return;
    valueSlots_.emplace(v, places_.size());
    places_.push_back(Place{v, nullptr, -1});
  };
  for (auto& top : driver.module().body().ops())
    top->walkPreOrder([&](ir::Op& op) {
      for (const auto& region : op.regions())
        if (!region->empty())
          for (ir::Value* arg : region->front().arguments()) addValue(arg);
      for (unsigned i = 0; i < op.numResults(); ++i) addValue(op.result(i));
      if (op.is("func.func"))
        for (unsigned i = 0; i < funcNumResults(op); ++i) {
          funcResultSlots_.emplace(std::make_pair(&op, static_cast<int64_t>(i)), places_.size());
          places_.push_back(Place{nullptr, &op, static_cast<int64_t>(i)});
        }
      return true;
    });
  replayed_.reserve(places_.size());
  for (const Place& p : places_) replayed_.push_back(read(p));
}

std::optional<TensorSharding> TraceNormalizer::read(const Place& p) const {
  if (p.func) return funcResultSharding(*p.func, static_cast<unsigned>(p.index));
  return getSharding(p.value);
}

size_t TraceNormalizer::slotOf(const StepEvent::Write& w) const {
  if (w.func) {
    auto it = funcResultSlots_.find({w.func, w.funcResult});
    return it == funcResultSlots_.end() ? places_.size() : it->second;
  }
  auto it = valueSlots_.find(w.value ? shardableValue(w.value) : nullptr);
  return it == valueSlots_.end() ? places_.size() : it->second;
}

StepObserver TraceNormalizer::observer() {
  return [this](const StepEvent& e) {
    for (const StepEvent::Write& w : e.writes) {
      size_t slot = slotOf(w);
      if (slot >= places_.size()) continue;
      // What the replay's setter leaves in the storage, read back the way
      // the final state is read.
      const Place& p = places_[slot];
      replayed_[slot] = read(p);
    }
  };
}

void TraceNormalizer::finish(PropagationTrace& trace) {
  TraceStep s;
  s.step = driver_.stepCount();
  s.op = kNormalizationStepOp;
  s.iteration = -1;
  for (size_t i = 0; i < places_.size(); ++i) {
    std::optional<TensorSharding> now = read(places_[i]);
    if (!now || (replayed_[i] && *replayed_[i] == *now)) continue;
    StepEvent::Write w;
    w.value = places_[i].value;
    w.func = places_[i].func;
    w.funcResult = places_[i].index;
    w.sharding = *now;
    s.updates.push_back({refOf(driver_, w), *now});
  }
  if (!s.updates.empty()) trace.steps.push_back(std::move(s));
}

}  // namespace shardscope::propagation
