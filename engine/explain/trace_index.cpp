// Trace <-> module links (see trace_index.h).
#include "explain/trace_index.h"

#include <tuple>

#include "explain/factor_info.h"
#include "propagation/value_shardings.h"

namespace shardscope::explain {

bool TraceValueRefLess::operator()(const TraceValueRef& a, const TraceValueRef& b) const {
  return std::tie(a.kind, a.op, a.region, a.index) < std::tie(b.kind, b.op, b.region, b.index);
}

TraceIndex::TraceIndex(ir::Module& input, const PropagationTrace& trace) : module_(input), trace_(trace) {
  indexValues();
  indexSteps();
}

void TraceIndex::indexValues() {
  ops_ = propagation::preOrderOps(module_);
  for (size_t i = 0; i < ops_.size(); ++i) {
    ir::Op* op = ops_[i];
    const auto idx = static_cast<int64_t>(i);
    opIndex_[op] = idx;
    for (unsigned r = 0; r < op->numResults(); ++r) refs_[op->result(r)] = TraceValueRef{"result", idx, 0, r};
    for (unsigned g = 0; g < op->numRegions(); ++g) {
      if (op->region(g).empty()) continue;
      const ir::Block& b = op->region(g).front();
      for (unsigned a = 0; a < b.numArguments(); ++a) refs_[b.argument(a)] = TraceValueRef{"block_arg", idx, g, a};
    }
  }
}

std::optional<TraceValueRef> TraceIndex::refOf(const ir::Value* v) const {
  auto it = refs_.find(v);
  if (it == refs_.end()) return std::nullopt;
  return it->second;
}

std::optional<TraceValueRef> TraceIndex::funcResultRef(const ir::Op* func, unsigned index) const {
  auto it = opIndex_.find(func);
  if (it == opIndex_.end()) return std::nullopt;
  return TraceValueRef{"func_result", it->second, 0, index};
}

ir::Op* TraceIndex::stepOp(size_t step) const {
  if (step >= trace_.steps.size()) return nullptr;
  const int64_t i = trace_.steps[step].opIndex;
  return i >= 0 && static_cast<size_t>(i) < ops_.size() ? ops_[static_cast<size_t>(i)] : nullptr;
}

namespace {
// The function result index of a sync row labelled "result N".
std::optional<unsigned> syncIndex(const TraceStep& s) {
  for (const auto* table : {&s.after, &s.before})
    for (const auto& row : table->rows)
      if (row.tensor == "result-0" && row.value.rfind("result ", 0) == 0) {
        try {
          return static_cast<unsigned>(std::stoul(row.value.substr(7)));
        } catch (...) {
          return std::nullopt;
        }
      }
  for (const auto& u : s.updates)
    if (u.value.kind == "func_result") return static_cast<unsigned>(u.value.index);
  return std::nullopt;
}
}  // namespace

void TraceIndex::indexSteps() {
  rules_.clear();
  rows_.clear();
  updates_.clear();
  for (size_t si = 0; si < trace_.steps.size(); ++si) {
    const TraceStep& s = trace_.steps[si];
    rules_.push_back(s.rule.empty() ? std::nullopt : parseRuleText(s.rule));
    for (const auto& u : s.updates) {
      auto& list = updates_[u.value];
      if (list.empty() || list.back() != si) list.push_back(si);
    }
    std::vector<const ir::Value*> operands, results;
    std::vector<std::optional<TraceValueRef>> rows;
    ir::Op* op = stepOp(si);
    if (op && s.op == "func.return") {
      std::optional<unsigned> i = syncIndex(s);
      ir::Op* ret = propagation::funcReturn(*op);
      if (i && ret && *i < ret->numOperands()) {
        rows.push_back(refOf(ret->operand(*i)));
        rows.push_back(funcResultRef(op, *i));
      }
    } else if (op && op->is("sdy.data_flow_edge") && op->numOperands() == 1 && op->numResults() == 1) {
      for (ir::Value* src : propagation::edgeSources(op->operand(0))) rows.push_back(refOf(src));
      rows.push_back(refOf(op->result(0)));
    } else if (op) {
      for (ir::Value* v : op->operands()) rows.push_back(refOf(v));
      for (ir::Value* v : op->resultRange()) rows.push_back(refOf(v));
    }
    // Check against the recorded table: the row count must agree.
    const size_t recorded = s.after.rows.size();
    if (rows.size() != recorded) {
      // Fall back to matching updates by value name; rows that cannot be
      // told stay unknown.
      std::vector<std::optional<TraceValueRef>> byName(recorded);
      for (size_t r = 0; r < recorded; ++r)
        for (const auto& u : s.updates)
          if (!s.after.rows[r].value.empty() && recordedName(u.value) == s.after.rows[r].value) byName[r] = u.value;
      rows = std::move(byName);
    }
    rows_.push_back(std::move(rows));
  }
}

std::optional<size_t> TraceIndex::rowOf(size_t step, const TraceValueRef& ref) const {
  const auto& rows = rows_.at(step);
  for (size_t i = 0; i < rows.size(); ++i)
    if (rows[i] && *rows[i] == ref) return i;
  return std::nullopt;
}

ir::Value* TraceIndex::value(const TraceValueRef& ref) const {
  if (ref.kind == "func_result") return nullptr;
  return propagation::resolveValueRef(ops_, ref);
}

std::string TraceIndex::valueName(const TraceValueRef& ref) const {
  if (ref.kind == "func_result") {
    std::string fn;
    if (ref.op >= 0 && static_cast<size_t>(ref.op) < ops_.size()) fn = propagation::symbolName(*ops_[static_cast<size_t>(ref.op)]);
    return (fn.empty() ? std::string() : "@" + fn + " ") + "result " + std::to_string(ref.index);
  }
  if (const ir::Value* v = value(ref)) return displayName(*v);
  return "op " + std::to_string(ref.op) + (ref.kind == "block_arg" ? " arg " : " result ") + std::to_string(ref.index);
}

std::string TraceIndex::recordedName(const TraceValueRef& ref) const {
  // As the recorder labels a row (the source name as written, else none).
  if (ref.kind == "func_result") return valueName(ref);
  const ir::Value* v = value(ref);
  if (!v || v->sourceName.empty()) return {};
  return v->sourceName.front() == '%' ? v->sourceName : "%" + v->sourceName;
}

std::string TraceIndex::displayName(const ir::Value& value) {
  // The names the window gives values (the graph, the op tree): `%3`,
  // `%0#1` for a result of an op with several.
  auto named = [](const ir::Value& v) {
    std::string n = v.sourceName.front() == '%' ? v.sourceName : "%" + v.sourceName;
    if (!v.isBlockArgument() && v.definingOp && v.definingOp->numResults() > 1 && n.find('#') == std::string::npos)
      n += "#" + std::to_string(v.index);
    return n;
  };
  if (!value.sourceName.empty()) return named(value);
  // A data-flow edge the import passes added (no name in the source) holds
  // the sharding of the value it follows: it is told by that value's name
  // (`%0#0` for a while's result), as the user wrote it. It read "op 12
  // result 0" in the Why panel.
  const ir::Value* v = &value;
  for (int hops = 0; hops < 8 && v->sourceName.empty() && !v->isBlockArgument() && v->definingOp &&
                     v->definingOp->name() == "sdy.data_flow_edge" && v->definingOp->numOperands() == 1;
       ++hops)
    v = v->definingOp->operand(0);
  if (!v->sourceName.empty()) return named(*v);
  if (v->isBlockArgument()) return "%arg" + std::to_string(v->index);
  if (v->definingOp) return "result " + std::to_string(v->index) + " of " + v->definingOp->name();
  return "a value";
}

std::optional<TensorSharding> TraceIndex::initialSharding(const TraceValueRef& ref) const {
  if (ref.kind == "func_result") {
    if (ref.op < 0 || static_cast<size_t>(ref.op) >= ops_.size()) return std::nullopt;
    return propagation::funcResultSharding(*ops_[static_cast<size_t>(ref.op)], static_cast<unsigned>(ref.index));
  }
  ir::Value* v = value(ref);
  if (!v) return std::nullopt;
  return propagation::getSharding(v);
}

std::optional<TensorSharding> TraceIndex::shardingAfter(const TraceValueRef& ref, size_t steps) const {
  std::optional<TensorSharding> s = initialSharding(ref);
  auto it = updates_.find(ref);
  if (it == updates_.end()) return s;
  for (size_t si : it->second) {
    if (si >= steps) break;
    for (const auto& u : trace_.steps[si].updates)
      if (u.value == ref) s = u.sharding;
  }
  return s;
}

int64_t TraceIndex::rankOf(const TraceValueRef& ref) const {
  if (ref.kind == "func_result") {
    if (auto s = initialSharding(ref)) return s->rank();
    auto it = updates_.find(ref);
    if (it != updates_.end())
      for (const auto& u : trace_.steps[it->second.front()].updates)
        if (u.value == ref) return u.sharding.rank();
    return -1;
  }
  ir::Value* v = value(ref);
  return v && v->type->isRankedTensor() ? v->type->rank() : -1;
}

std::vector<size_t> TraceIndex::updatesOf(const TraceValueRef& ref) const {
  auto it = updates_.find(ref);
  return it == updates_.end() ? std::vector<size_t>{} : it->second;
}

std::vector<TraceValueRef> TraceIndex::shardedValues() const {
  std::vector<TraceValueRef> out;
  auto consider = [&](const TraceValueRef& r) {
    if (initialSharding(r) || updates_.count(r)) out.push_back(r);
  };
  for (size_t i = 0; i < ops_.size(); ++i) {
    ir::Op* op = ops_[i];
    const auto idx = static_cast<int64_t>(i);
    for (unsigned g = 0; g < op->numRegions(); ++g) {
      if (op->region(g).empty()) continue;
      for (unsigned a = 0; a < op->region(g).front().numArguments(); ++a)
        consider(TraceValueRef{"block_arg", idx, g, a});
    }
    for (unsigned r = 0; r < op->numResults(); ++r)
      if (op->result(r)->type->isRankedTensor()) consider(TraceValueRef{"result", idx, 0, r});
    if (op->is("func.func"))
      for (unsigned r = 0; r < propagation::funcNumResults(*op); ++r) consider(TraceValueRef{"func_result", idx, 0, r});
  }
  return out;
}

}  // namespace shardscope::explain
