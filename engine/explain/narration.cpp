// Step narration (see narration.h).
#include "explain/narration.h"

#include <map>
#include <set>

#include "explain/factor_info.h"
#include "explain/trace_index.h"

namespace shardscope::explain {

using propagation::TraceStep;
using propagation::TraceTensorRow;

std::string shardingDimsText(const TensorSharding& s) {
  std::string out = "[";
  for (size_t d = 0; d < s.dims.size(); ++d) {
    if (d) out += ", ";
    out += "{";
    const DimensionSharding& dim = s.dims[d];
    for (size_t a = 0; a < dim.axes.size(); ++a) out += (a ? ", " : "") + dim.axes[a].str();
    if (!dim.closed) out += dim.axes.empty() ? "?" : ", ?";
    out += "}";
    if (dim.priority) out += "p" + std::to_string(*dim.priority);
  }
  out += "]";
  if (!s.replicated.empty()) out += " replicated=" + strAxisList(s.replicated);
  if (!s.unreduced.empty()) out += " unreduced=" + strAxisList(s.unreduced);
  return out;
}

namespace {

const TraceTensorRow* findRow(const propagation::TraceFactorTable& t, const std::string& tensor) {
  for (const auto& r : t.rows)
    if (r.tensor == tensor) return &r;
  return nullptr;
}

std::string axisText(const AxisRef& a) { return a.str(); }

std::string joinAnd(const std::vector<std::string>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += i + 1 == parts.size() ? " and " : ", ";
    out += parts[i];
  }
  return out;
}

}  // namespace

std::string tensorDisplay(const TraceStep& step, const std::string& tensor) {
  if (tensor == "?") return "an unknown tensor";
  const TraceTensorRow* row = findRow(step.after, tensor);
  if (!row) row = findRow(step.before, tensor);
  if (row && !row->value.empty()) return tensor + " (" + row->value + ")";
  return tensor;
}

std::string stepHeadline(const TraceStep& step) {
  std::string out;
  if (step.op == propagation::kNormalizationStepOp) {
    out = "end of propagation: final shardings";
  } else if (step.op == "func.return") {
    const TraceTensorRow* res = findRow(step.after, "result-0");
    const TraceTensorRow* opd = findRow(step.after, "operand-0");
    out = "function " + (res && !res->value.empty() ? res->value : std::string("result")) + " synced with " +
          (opd && !opd->value.empty() ? opd->value : std::string("its returned value"));
  } else {
    out = shortOpName(step.op);
    const TraceTensorRow* res = findRow(step.after, "result-0");
    if (res && !res->value.empty()) out += " " + res->value;
  }
  if (step.line) out += " (line " + std::to_string(step.line) + ")";
  return out;
}

StepNarration narrateStep(const TraceStep& step, const TraceIndex* index) {
  StepNarration n;
  n.headline = stepHeadline(step);
  n.context = "step " + std::to_string(step.step);
  if (step.userPriority >= 0) n.context += " · user-priority round " + std::to_string(step.userPriority);
  if (step.opPriority >= 0) n.context += " · op-priority stage " + std::to_string(step.opPriority);
  if (!step.strategy.empty()) n.context += " · " + step.strategy;
  if (step.op == propagation::kNormalizationStepOp) {
    // Not an op's step: the writes propagation makes outside them, recorded
    // so that replaying the trace gives exactly the final module.
    n.context = "step " + std::to_string(step.step) + " · after the last round";
    n.noFactorNote =
        "user-priority propagation drops the p<N> priorities when it ends, and dimensions it "
        "kept closed between rounds are opened again; these values end as follows";
  } else {
    n.context += " · fixed point " + std::to_string(step.iteration);
  }

  std::optional<OpShardingRule> rule = step.rule.empty() ? std::nullopt : parseRuleText(step.rule);
  std::vector<FactorInfo> infos = rule ? describeFactors(*rule, step.op) : std::vector<FactorInfo>{};
  int64_t numFactors = static_cast<int64_t>(infos.size());
  for (const auto& m : step.moves) numFactors = std::max(numFactors, m.factor + 1);
  for (const auto& c : step.conflicts) numFactors = std::max(numFactors, c.factor + 1);

  for (int64_t f = 0; f < numFactors; ++f) {
    FactorNarration fn;
    fn.factor = f;
    fn.name = OpShardingRule::factorName(f);
    if (static_cast<size_t>(f) < infos.size()) fn.kinds = infos[static_cast<size_t>(f)].kindsText();
    if (static_cast<size_t>(f) < step.directions.size()) fn.direction = step.directions[static_cast<size_t>(f)];
    std::vector<std::string> clauses;
    // Moves: group by (axis, from) keeping the order of first appearance.
    std::vector<std::pair<std::string, std::string>> keys;
    std::map<std::pair<std::string, std::string>, std::vector<std::string>> targets;
    std::set<std::string> movedAxes;
    for (const auto& m : step.moves) {
      if (m.factor != f) continue;
      auto key = std::make_pair(axisText(m.axis), m.from);
      if (!targets.count(key)) keys.push_back(key);
      targets[key].push_back(tensorDisplay(step, m.to));
      movedAxes.insert(m.axis.name);
    }
    for (const auto& key : keys)
      clauses.push_back("axis " + key.first + " from " + tensorDisplay(step, key.second) + " to " +
                        joinAnd(targets[key]));
    fn.moved = !keys.empty();
    // Conflicts: the axes some tensor holds for the factor that others lack.
    for (const auto& c : step.conflicts) {
      if (c.factor != f) continue;
      fn.conflict = true;
      std::vector<std::string> held;
      std::set<std::string> seen;
      size_t mapping = 0;
      std::map<std::string, size_t> count;
      for (const auto& row : step.after.rows)
        for (const auto& cell : row.factors)
          if (cell.factor == f) {
            ++mapping;
            for (const auto& a : cell.axes) ++count[a.str()];
          }
      for (const auto& row : step.after.rows)
        for (const auto& cell : row.factors)
          if (cell.factor == f)
            for (const auto& a : cell.axes)
              if (count[a.str()] < mapping && seen.insert(a.str()).second)
                held.push_back("axis " + a.str() + " (on " + tensorDisplay(step, row.tensor) + ")");
      std::string what = held.empty() ? std::string("tensors disagree") : joinAnd(held);
      clauses.push_back(what + " not propagated: " + c.reason);
    }
    if (clauses.empty()) continue;
    fn.sentence = "factor " + fn.name + (fn.kinds.empty() ? std::string() : " (" + fn.kinds + ")") + ": ";
    for (size_t i = 0; i < clauses.size(); ++i) fn.sentence += (i ? "; " : "") + clauses[i];
    n.factors.push_back(std::move(fn));
  }

  for (const auto& u : step.updates) {
    std::string who;
    if (index) who = index->valueName(u.value);
    if (who.empty()) who = "op " + std::to_string(u.value.op) + " " + u.value.kind + " " + std::to_string(u.value.index);
    n.updates.push_back(who + " is now " + shardingDimsText(u.sharding));
  }
  if (!index) {
    // Without an index, name updates by the rows whose factors changed, in
    // order (the driver writes operands then results), when the counts agree.
    std::vector<std::string> changed;
    for (size_t r = 0; r < step.after.rows.size() && r < step.before.rows.size(); ++r)
      if (!(step.after.rows[r] == step.before.rows[r]) && !step.after.rows[r].value.empty())
        changed.push_back(step.after.rows[r].value);
    if (changed.size() == step.updates.size())
      for (size_t i = 0; i < changed.size(); ++i)
        n.updates[i] = changed[i] + " is now " + shardingDimsText(step.updates[i].sharding);
  }
  return n;
}

std::string StepNarration::text() const {
  std::string out = headline + "\n" + context + "\n";
  for (const auto& f : factors) out += f.sentence + "\n";
  if (factors.empty()) out += noFactorNote + "\n";
  for (const auto& u : updates) out += u + "\n";
  return out;
}

std::string narration(const TraceStep& step, const TraceIndex* index) { return narrateStep(step, index).text(); }

}  // namespace shardscope::explain
