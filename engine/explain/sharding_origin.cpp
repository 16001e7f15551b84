// Origins of a dimension's axes (see sharding_origin.h).
#include "explain/sharding_origin.h"

#include <set>
#include <tuple>

#include "explain/factor_info.h"
#include "explain/narration.h"
#include "propagation/axis_algebra.h"
#include "propagation/value_shardings.h"

namespace shardscope::explain {

std::string seedKindName(SeedKind kind) {
  switch (kind) {
    case SeedKind::FunctionArgument: return "function argument";
    case SeedKind::FunctionResult: return "function result";
    case SeedKind::ShardingConstraint: return "sharding constraint";
    case SeedKind::ManualComputation: return "manual computation";
    case SeedKind::DataFlowEdge: return "data-flow edge";
    case SeedKind::OpSharding: return "user sharding on an op";
  }
  return "";
}

namespace {

bool dimHas(const std::optional<TensorSharding>& s, int64_t dim, const AxisRef& axis) {
  if (!s || dim < 0 || dim >= s->rank()) return false;
  for (const AxisRef& a : s->dims[static_cast<size_t>(dim)].axes)
    if (a.name == axis.name && propagation::overlaps(a, axis)) return true;
  return false;
}

std::string funcName(const ir::Op* op) {
  const ir::Op* f = op && op->is("func.func") ? op : (op ? op->parentOfName("func.func") : nullptr);
  return f ? "@" + propagation::symbolName(*f) : std::string();
}

}  // namespace

OriginSeed describeSeed(const TraceIndex& index, const TraceValueRef& ref, int64_t dim) {
  OriginSeed seed;
  seed.value = ref;
  seed.valueName = index.valueName(ref);
  seed.dim = dim;
  if (auto s = index.initialSharding(ref); s && dim >= 0 && dim < s->rank())
    seed.priority = s->dims[static_cast<size_t>(dim)].priority;
  const ir::Op* op = ref.op >= 0 && static_cast<size_t>(ref.op) < index.ops().size()
                         ? index.ops()[static_cast<size_t>(ref.op)]
                         : nullptr;
  if (op) seed.line = op->loc().line;
  const std::string idx = std::to_string(ref.index);
  if (ref.kind == "func_result") {
    seed.kind = SeedKind::FunctionResult;
    seed.description = "function result " + idx + " of " + funcName(op);
  } else if (ref.kind == "block_arg") {
    if (op && op->is("func.func")) {
      seed.kind = SeedKind::FunctionArgument;
      seed.description = "function argument " + idx + " of " + funcName(op) + " (" + seed.valueName + ")";
    } else if (op && op->is("sdy.manual_computation")) {
      seed.kind = SeedKind::ManualComputation;
      seed.description = "manual computation in_shardings[" + idx + "] (" + seed.valueName + ")";
    } else {
      seed.kind = SeedKind::DataFlowEdge;
      seed.description = "block argument " + idx + " of " + (op ? shortOpName(op->name()) : std::string("an op")) +
                         " (" + seed.valueName + ")";
    }
  } else {
    const std::string name = op ? op->name() : std::string();
    if (name == "sdy.sharding_constraint") {
      seed.kind = SeedKind::ShardingConstraint;
      seed.description = "sharding constraint " + seed.valueName;
    } else if (name == "sdy.manual_computation") {
      seed.kind = SeedKind::ManualComputation;
      seed.description = "manual computation out_shardings[" + idx + "] (" + seed.valueName + ")";
    } else if (name == "sdy.data_flow_edge") {
      seed.kind = SeedKind::DataFlowEdge;
      seed.description = "sharding of the data-flow edge " + seed.valueName;
    } else {
      seed.kind = SeedKind::OpSharding;
      seed.description = "user sharding on " + (name.empty() ? std::string("an op") : shortOpName(name)) + " " +
                         seed.valueName;
    }
  }
  if (seed.line) seed.description += ", line " + std::to_string(seed.line);
  if (seed.priority) seed.description += ", priority p" + std::to_string(*seed.priority);
  return seed;
}

namespace {

struct Walker {
  const TraceIndex& index;
  std::set<std::tuple<std::string, int64_t, int64_t, int64_t, size_t>> visited;

  void walk(const TraceValueRef& ref, int64_t dim, const AxisRef& axis, size_t limit, AxisOrigin& out, int depth) {
    if (depth > 256 || !visited.insert({ref.kind, ref.op, ref.region * 1000000 + ref.index, dim, limit}).second) {
      out.note = "the chain loops back on itself";
      return;
    }
    const auto& steps = index.trace().steps;
    // The last step before `limit` that introduced the axis into this dimension.
    std::optional<TensorSharding> prev = index.initialSharding(ref);
    const bool initially = dimHas(prev, dim, axis);
    std::optional<size_t> intro;
    for (size_t si : index.updatesOf(ref)) {
      if (si >= limit) break;
      std::optional<TensorSharding> next = prev;
      for (const auto& u : steps[si].updates)
        if (u.value == ref) next = u.sharding;
      if (dimHas(next, dim, axis) && !dimHas(prev, dim, axis)) intro = si;
      prev = next;
    }
    if (!intro) {
      if (initially) {
        out.seed = describeSeed(index, ref, dim);
      } else {
        out.note = index.valueName(ref) + " does not hold axis " + axis.str() + " in dimension " + std::to_string(dim);
      }
      return;
    }
    const size_t si = *intro;
    const propagation::TraceStep& step = steps[si];
    const std::optional<OpShardingRule>& rule = index.stepRule(si);
    std::vector<FactorInfo> infos = rule ? describeFactors(*rule, step.op) : std::vector<FactorInfo>{};
    std::optional<size_t> row = index.rowOf(si, ref);
    const auto& rows = index.rowValues(si);

    auto makeHop = [&](const propagation::TraceAxisMove& m, size_t fromRow, size_t toRow) {
      OriginHop h;
      h.step = step.step;
      h.op = step.op;
      h.opIndex = step.opIndex;
      h.line = step.line;
      h.factor = m.factor;
      h.factorName = OpShardingRule::factorName(m.factor);
      if (static_cast<size_t>(m.factor) < infos.size()) h.factorKinds = infos[static_cast<size_t>(m.factor)].kindsText();
      h.axis = m.axis;
      h.fromTensor = m.from;
      h.toTensor = m.to;
      if (fromRow < rows.size() && rows[fromRow]) {
        h.from = *rows[fromRow];
        h.fromName = index.valueName(h.from);
      }
      if (toRow < rows.size() && rows[toRow]) h.to = *rows[toRow];
      h.toName = index.valueName(h.to);
      if (rule) {
        h.fromDim = dimensionOfFactor(*rule, fromRow, m.factor);
        h.toDim = dimensionOfFactor(*rule, toRow, m.factor);
      }
      return h;
    };

    const propagation::TraceAxisMove* move = nullptr;
    bool group = false;
    if (row && rule) {
      const std::string label = tensorLabel(*rule, *row);
      for (const auto& m : step.moves)
        if (m.to == label && m.axis.name == axis.name && propagation::overlaps(m.axis, axis) &&
            dimensionOfFactor(*rule, *row, m.factor) == dim) {
          move = &m;
          break;
        }
      if (!move)
        for (const auto& m : step.moves)
          if (m.to == label && m.axis.name == axis.name) {
            move = &m;
            break;
          }
    }
    if (!move && rule) {
      // Not a row of the step: a sharding-group member updated alongside.
      for (const auto& m : step.moves)
        if (m.axis.name == axis.name && propagation::overlaps(m.axis, axis)) {
          move = &m;
          group = true;
          break;
        }
    }
    if (!move || !rule) {
      out.note = "step " + std::to_string(step.step) + " (" + stepHeadline(step) + ") gave " + index.valueName(ref) +
                 " axis " + axis.str() + " but recorded no source for it";
      return;
    }
    auto fromRow = tensorIndex(*rule, move->from);
    auto toRow = tensorIndex(*rule, move->to);
    if (group) {
      // Hop from the step's target tensor to this group member.
      OriginHop h = makeHop(*move, toRow.value_or(0), toRow.value_or(0));
      h.viaShardingGroup = true;
      h.from = h.to;
      h.fromName = h.toName;
      h.fromTensor = move->to;
      h.fromDim = h.toDim;
      h.to = ref;
      h.toName = index.valueName(ref);
      h.toTensor.clear();
      h.toDim = dim;
      h.factor = -1;
      h.factorName.clear();
      h.factorKinds.clear();
      out.hops.push_back(h);
      if (!toRow || toRow >= rows.size() || !rows[*toRow]) {
        out.note = "the sharding group source could not be told";
        return;
      }
      walk(*rows[*toRow], h.fromDim, axis, si + 1, out, depth + 1);
      return;
    }
    if (!fromRow) {
      OriginHop h = makeHop(*move, rows.size(), *row);
      out.hops.push_back(h);
      out.note = "step " + std::to_string(step.step) + " did not record which tensor held axis " + axis.str();
      return;
    }
    OriginHop h = makeHop(*move, *fromRow, *row);
    out.hops.push_back(h);
    if (*fromRow >= rows.size() || !rows[*fromRow]) {
      out.note = "the value of " + move->from + " of step " + std::to_string(step.step) + " could not be told";
      return;
    }
    walk(*rows[*fromRow], h.fromDim, move->axis, si, out, depth + 1);
  }
};

}  // namespace

DimensionOrigin explainDimension(const TraceIndex& index, const TraceValueRef& value, int64_t dim, size_t steps) {
  DimensionOrigin out;
  out.value = value;
  out.valueName = index.valueName(value);
  out.dim = dim;
  out.steps = std::min(steps, index.trace().steps.size());
  std::optional<TensorSharding> s = index.shardingAfter(value, out.steps);
  if (!s || dim < 0 || dim >= s->rank()) return out;
  out.sharding = s->dims[static_cast<size_t>(dim)];
  for (const AxisRef& a : out.sharding->axes) {
    AxisOrigin ao;
    ao.axis = a;
    Walker w{index, {}};
    w.walk(value, dim, a, out.steps, ao, 0);
    out.axes.push_back(std::move(ao));
  }
  return out;
}

std::vector<DimensionOrigin> explainValue(const TraceIndex& index, const TraceValueRef& value, size_t steps) {
  std::vector<DimensionOrigin> out;
  const std::optional<TensorSharding> s = index.shardingAfter(value, std::min(steps, index.trace().steps.size()));
  const int64_t rank = s ? s->rank() : index.rankOf(value);
  for (int64_t d = 0; d < rank; ++d) out.push_back(explainDimension(index, value, d, steps));
  return out;
}

std::string DimensionOrigin::text() const {
  std::string out = valueName + " dim " + std::to_string(dim) + " = ";
  if (!sharding) return out + "(no sharding)\n";
  TensorSharding one;
  one.dims = {*sharding};
  std::string dims = shardingDimsText(one);
  out += dims.substr(1, dims.size() - 2) + "\n";
  if (axes.empty()) out += "  no axes: this dimension is replicated\n";
  for (const AxisOrigin& a : axes) {
    out += "  axis " + a.axis.str() + "\n";
    for (const OriginHop& h : a.hops) {
      out += "    step " + std::to_string(h.step) + ": ";
      if (h.viaShardingGroup) {
        out += "copied from " + h.fromName + " (same sharding group)\n";
        continue;
      }
      out += (h.op == "func.return" ? std::string("function result sync") : shortOpName(h.op)) +
             (h.line ? " (line " + std::to_string(h.line) + ")" : std::string()) + ", factor " +
             h.factorName + (h.factorKinds.empty() ? std::string() : " (" + h.factorKinds + ")") + ": from " +
             h.fromTensor + (h.fromName.empty() ? std::string() : " (" + h.fromName + ")") +
             (h.fromDim >= 0 ? " dim " + std::to_string(h.fromDim) : std::string()) + "\n";
    }
    if (a.seed) out += "    seed: " + seedKindName(a.seed->kind) + ": " + a.seed->description + "\n";
    else if (!a.note.empty()) out += "    (" + a.note + ")\n";
  }
  return out;
}

}  // namespace shardscope::explain
