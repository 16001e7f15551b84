#include "api/sharding_timeline.h"

#include <algorithm>
#include <unordered_set>

#include "propagation/value_shardings.h"

namespace shardscope::api {

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
  for (size_t s = 0; s < t->steps_.size(); ++s)
    for (const Update& u : t->steps_[s])
      if (u.storage) t->writes_[u.storage].emplace_back(s, &u);
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

void ShardingTimeline::note(const Update& u, TimelineChanges& changes) {
  if (u.func) {
    changes.functions.push_back(u.func);
    return;
  }
  changes.values.push_back(u.value);
  if (ir::Value* stored = propagation::shardableValue(u.value)) changes.values.push_back(stored);
  // Writing one result's entry may write the others' (a per-value list made
  // up on first write): report every result of the storing op.
  if (u.storage && !u.value->isBlockArgument())
    for (ir::Value* r : u.storage->results()) changes.values.push_back(r);
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
  // Changed values restored in place, names added since removed.
  std::vector<std::string> added;
  for (const ir::Op::Attr& a : op.attrs()) {
    const bool kept = std::any_of(attrs.begin(), attrs.end(),
                                  [&](const ir::Op::Attr& b) { return b.name == a.name; });
    if (!kept) added.push_back(a.name);
  }
  for (const std::string& name : added) op.removeAttr(name);
  for (const ir::Op::Attr& b : attrs) op.setAttr(b.name, b.value, b.inherent);
}

void ShardingTimeline::unapply(Update& u, TimelineChanges& changes) {
  if (!u.storage || !u.recorded) return;
  restoreAttrs(*u.storage, u.before);
  note(u, changes);
}

void ShardingTimeline::jump(size_t steps, TimelineChanges& changes) {
  const size_t lo = std::min(steps, applied_), hi = std::max(steps, applied_);
  std::unordered_set<ir::Op*> written;
  for (size_t s = lo; s < hi; ++s)
    for (const Update& u : steps_[s]) {
      if (!u.storage) continue;
      note(u, changes);
      written.insert(u.storage);
    }
  for (ir::Op* op : written) {
    // What the op holds after `steps` steps: what it held before its first
    // update at or after them, else what it holds at the end.
    const auto& writes = writes_.at(op);
    auto next = std::lower_bound(writes.begin(), writes.end(), steps,
                                 [](const auto& w, size_t step) { return w.first < step; });
    restoreAttrs(*op, next != writes.end() ? next->second->before : atEnd_.at(op));
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
    for (const auto& [op, writes] : writes_)
      atEnd_[op].assign(op->attrs().begin(), op->attrs().end());
    endRecorded_ = true;
  }
  while (applied_ > steps) {
    --applied_;
    auto& updates = steps_[applied_];
    for (auto it = updates.rbegin(); it != updates.rend(); ++it) unapply(*it, changes);
  }
  // Each once.
  auto dedupe = [](auto& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  };
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
