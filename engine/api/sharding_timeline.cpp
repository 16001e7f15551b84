#include "api/sharding_timeline.h"

#include <algorithm>
#include <unordered_map>

#include "propagation/value_shardings.h"

namespace shardscope::api {

namespace {
// Sorted, each once. A whole-run jump's lists are so already (no sort of
// 100,000 pointers again).
template <typename T>
void dedupe(std::vector<T>& v) {
  if (!std::is_sorted(v.begin(), v.end())) std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}
}  // namespace

std::unique_ptr<ShardingTimeline> ShardingTimeline::create(
    ir::Module& module, const propagation::PropagationTrace& trace, std::string* error) {
  std::unique_ptr<ShardingTimeline> t(new ShardingTimeline());
  t->ops_ = propagation::preOrderOps(module);
  t->steps_.resize(trace.steps.size());
  for (size_t s = 0; s < trace.steps.size(); ++s) {
    const propagation::TraceStep& step = trace.steps[s];
    for (const propagation::TraceValueUpdate& u : step.updates) {
      const propagation::TraceValueRef& ref = u.value;
      ir::Op* op = t->opAt(ref.op);
      auto fail = [&](const char* what) {
        if (error)
          *error = "step " + std::to_string(step.step) + ": " + what + " at op " +
                   std::to_string(ref.op);
        return nullptr;
      };
      if (!op) return fail("no op");
      Update r;
      r.sharding = &u.sharding;
      if (ref.kind == "func_result") {
        if (!op->is("func.func") || ref.index < 0) return fail("no function");
        r.func = op;
        r.resultIndex = static_cast<unsigned>(ref.index);
        r.storage = op;
        auto& finals = t->finalResults_[op];
        if (finals.size() <= r.resultIndex) finals.resize(r.resultIndex + 1, nullptr);
        finals[r.resultIndex] = r.sharding;
      } else {
        ir::Value* v = propagation::resolveValueRef(t->ops_, ref);
        if (!v) return fail("unresolved value");
        r.value = v;
        ir::Value* stored = propagation::shardableValue(v);
        r.storage = stored ? propagation::owningOp(stored) : nullptr;
        t->finalValues_[v] = r.sharding;
        if (stored) t->finalValues_[stored] = r.sharding;
      }
      t->steps_[s].push_back(std::move(r));
    }
  }
  // Once: the op each update writes (as an index, so a jump needs no
  // lookup) and the values its change reports.
  std::unordered_map<const ir::Op*, uint32_t> writtenIndex;
  for (size_t s = 0; s < t->steps_.size(); ++s)
    for (Update& u : t->steps_[s]) {
      u.notedBegin = static_cast<uint32_t>(t->notedValues_.size());
      if (!u.func) {
        t->notedValues_.push_back(u.value);
        if (ir::Value* stored = propagation::shardableValue(u.value))
          t->notedValues_.push_back(stored);
        // Writing one result's entry may write the others' (a per-value list
        // made up on first write): report every result of the storing op.
        if (u.storage && !u.value->isBlockArgument())
          for (ir::Value* r : u.storage->results()) t->notedValues_.push_back(r);
      }
      u.notedEnd = static_cast<uint32_t>(t->notedValues_.size());
      if (!u.storage) continue;
      auto [it, added] =
          writtenIndex.try_emplace(u.storage, static_cast<uint32_t>(t->written_.size()));
      if (added) t->written_.push_back(WrittenOp{u.storage, {}, {}, 0});
      u.storageIndex = it->second;
      t->written_[it->second].writes.emplace_back(s, &u);
    }
  // What a jump across the whole run reports, each once and sorted (as
  // seek() leaves it): what every update that writes reports.
  TimelineChanges every;
  for (const auto& step : t->steps_)
    for (const Update& u : step)
      if (u.storage) t->note(u, every);
  dedupe(every.values);
  dedupe(every.functions);
  t->everyNotedValue_ = std::move(every.values);
  t->everyNotedFunction_ = std::move(every.functions);
  return t;
}

ir::Op* ShardingTimeline::opAt(int64_t i) const {
  return i >= 0 && static_cast<size_t>(i) < ops_.size() ? ops_[static_cast<size_t>(i)] : nullptr;
}

const TensorSharding* ShardingTimeline::finalSharding(const ir::Value* value) const {
  auto it = finalValues_.find(value);
  return it == finalValues_.end() ? nullptr : it->second;
}

const TensorSharding* ShardingTimeline::finalResultSharding(const ir::Op* func,
                                                            unsigned index) const {
  auto it = finalResults_.find(func);
  if (it == finalResults_.end() || index >= it->second.size()) return nullptr;
  return it->second[index];
}

void ShardingTimeline::note(const Update& u, TimelineChanges& changes) const {
  if (u.func) {
    changes.functions.push_back(u.func);
    return;
  }
  changes.values.insert(changes.values.end(), notedValues_.begin() + u.notedBegin,
                        notedValues_.begin() + u.notedEnd);
}

void ShardingTimeline::apply(Update& u, TimelineChanges& changes) {
  if (!u.storage) return;
  // The attributes before are the same every time the update is applied
  // (steps are applied in order), so they are kept once.
  if (!u.recorded) {
    u.before.assign(u.storage->attrs().begin(), u.storage->attrs().end());
    u.recorded = true;
  }
  if (u.func)
    propagation::setFuncResultSharding(*u.func, u.resultIndex, *u.sharding);
  else
    propagation::setSharding(u.value, *u.sharding);
  note(u, changes);
}

void ShardingTimeline::restoreAttrs(ir::Op& op, const std::vector<ir::Op::Attr>& attrs) {
  // Names are interned: comparing them is comparing pointers, and no name is
  // copied. Most often the op holds the same names as `attrs` (a sharding
  // changed value, not name): then every value is set in place.
  auto kept = [&](const ir::AttrName& name) {
    return std::any_of(attrs.begin(), attrs.end(),
                       [&](const ir::Op::Attr& b) { return b.name == name; });
  };
  // Names added since removed (rare: a sharding written the first time).
  bool anyAdded = false;
  for (const ir::Op::Attr& a : op.attrs())
    if (!kept(a.name)) {
      anyAdded = true;
      break;
    }
  if (anyAdded) {
    std::vector<ir::AttrName> added;
    for (const ir::Op::Attr& a : op.attrs())
      if (!kept(a.name)) added.push_back(a.name);
    for (const ir::AttrName& name : added) op.removeAttr(name.str());
  }
  for (const ir::Op::Attr& b : attrs) op.setAttr(b.name, b.value, b.inherent);
}

void ShardingTimeline::unapply(Update& u, TimelineChanges& changes) {
  if (!u.storage || !u.recorded) return;
  restoreAttrs(*u.storage, u.before);
  note(u, changes);
}

void ShardingTimeline::jump(size_t steps, TimelineChanges& changes) {
  const size_t lo = std::min(steps, applied_), hi = std::max(steps, applied_);
  using Writes = std::vector<std::pair<size_t, const Update*>>;
  auto byStep = [](const auto& w, size_t step) { return w.first < step; };
  // What an op holds after `steps` steps: what it held before its first
  // update at or after them, else what it holds at the end. `from` is where
  // to start looking in its (step-ordered) writes.
  auto restoreAt = [&](WrittenOp& w, Writes::const_iterator from) {
    auto next = std::lower_bound(from, w.writes.cend(), steps, byStep);
    restoreAttrs(*w.op, next != w.writes.cend() ? next->second->before : w.atEnd);
  };
  size_t crossed = 0;
  for (size_t s = lo; s < hi; ++s) crossed += steps_[s].size();
  if (crossed * 4 < written_.size()) {
    // A short jump: the ops its updates write, found from the steps, each
    // once (marked with this jump's number).
    const size_t visit = ++jumps_;
    std::vector<WrittenOp*> visited;
    for (size_t s = lo; s < hi; ++s)
      for (const Update& u : steps_[s]) {
        if (!u.storage) continue;
        note(u, changes);
        WrittenOp& w = written_[u.storageIndex];
        if (w.visit != visit) {
          w.visit = visit;
          visited.push_back(&w);
        }
      }
    for (WrittenOp* w : visited) restoreAt(*w, w->writes.cbegin());
  } else {
    // A long jump (to the input, to the result): every written op visited
    // once, its writes in the range next to each other. Across the whole run
    // what changed is known already: every value any update reports.
    const bool whole = lo == 0 && hi == steps_.size();
    if (whole) {
      changes.values = everyNotedValue_;
      changes.functions = everyNotedFunction_;
    } else {
      changes.values.reserve(notedValues_.size());
    }
    for (WrittenOp& w : written_) {
      auto first = std::lower_bound(w.writes.cbegin(), w.writes.cend(), lo, byStep);
      if (first == w.writes.cend() || first->first >= hi) continue;
      auto past = first;
      if (whole)
        past = w.writes.cend();
      else
        for (; past != w.writes.cend() && past->first < hi; ++past) note(*past->second, changes);
      restoreAt(w, steps == lo ? first : past);
    }
  }
  applied_ = steps;
}

TimelineChanges ShardingTimeline::seek(size_t steps) {
  steps = std::min(steps, steps_.size());
  TimelineChanges changes;
  const size_t crossed = steps > applied_ ? steps - applied_ : applied_ - steps;
  if (endRecorded_ && crossed > 1) {
    jump(steps, changes);
    steps = applied_;  // nothing left for the walks below
  }
  while (applied_ < steps) {
    for (Update& u : steps_[applied_]) apply(u, changes);
    ++applied_;
  }
  if (applied_ == steps_.size() && !endRecorded_) {
    // Every update was applied once, in order: each has the attributes
    // before it, and these are the attributes at the end.
    for (WrittenOp& w : written_) w.atEnd.assign(w.op->attrs().begin(), w.op->attrs().end());
    endRecorded_ = true;
  }
  while (applied_ > steps) {
    --applied_;
    auto& updates = steps_[applied_];
    for (auto it = updates.rbegin(); it != updates.rend(); ++it) unapply(*it, changes);
  }
  // Each once.
  dedupe(changes.values);
  dedupe(changes.functions);
  return changes;
}

std::shared_ptr<SteppedRun> prepareSteppedRun(const Document& input,
                                              std::shared_ptr<const PropagationRun> run,
                                              std::string* error) {
  if (!run || !run->ok) {
    if (error) *error = "propagation failed";
    return nullptr;
  }
  auto out = std::make_shared<SteppedRun>();
  out->doc = documentAtStep(input, *run, 0, error);
  if (!out->doc || !out->doc->module) return nullptr;
  out->timeline = ShardingTimeline::create(*out->doc->module, run->trace, error);
  if (!out->timeline) return nullptr;
  out->timeline->seek(out->timeline->stepCount());
  out->run = std::move(run);
  return out;
}

}  // namespace shardscope::api
