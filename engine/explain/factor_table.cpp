// Factor tables for views (see factor_table.h).
#include "explain/factor_table.h"

#include <algorithm>

#include "explain/factor_info.h"
#include "propagation/basic_factor_propagation.h"
#include "propagation/sharding_projection.h"
#include "propagation/trace_recorder.h"
#include "propagation/value_shardings.h"
#include "rules/op_sharding_rule_registry.h"

namespace shardscope::explain {

using propagation::TraceFactorTable;
using propagation::TraceTensorRow;

std::string FactorTableColumn::title() const { return name + "=" + std::to_string(size); }

std::string FactorTableColumn::kindsText() const {
  std::string out = role.empty() ? std::string() : role + ", ";
  out += kind;
  if (blocked) out += ", blocked";
  return out;
}

namespace {
std::string axesInner(const AxisRefList& axes) {
  std::string out;
  for (size_t i = 0; i < axes.size(); ++i) out += (i ? ", " : "") + axes[i].str();
  return out;
}
}  // namespace

std::string FactorTableCell::text() const {
  if (!mapped) return "—";
  std::string inner = axesInner(axes);
  if (!closed) inner += inner.empty() ? "?" : ", ?";
  std::string out = "{" + inner + "}";
  if (!overflowAxes.empty()) out += " +{" + axesInner(overflowAxes) + "}";
  return out;
}

std::string FactorTableDimCell::text() const {
  std::string inner = axesInner(sharding.axes);
  if (!sharding.closed) inner += inner.empty() ? "?" : ", ?";
  std::string out = "{" + inner + "}";
  if (sharding.priority) out += "p" + std::to_string(*sharding.priority);
  return out;
}

size_t FactorTable::maxRank() const {
  size_t r = 0;
  for (const auto& row : rows) r = std::max(r, row.dims.size());
  return r;
}

std::string FactorTable::text(bool dimensionView) const {
  std::vector<std::vector<std::string>> grid;
  std::vector<std::string> header{"", "tensor"};
  if (dimensionView) {
    for (size_t d = 0; d < maxRank(); ++d) header.push_back("d" + std::to_string(d));
  } else {
    for (const auto& c : columns) header.push_back(c.title() + (c.conflict ? "!" : ""));
  }
  header.push_back("replicated");
  grid.push_back(header);
  for (size_t r = 0; r < rows.size(); ++r) {
    const FactorTableRow& row = rows[r];
    std::vector<std::string> line{row.shortLabel(r), row.value.empty() ? row.tensor : row.value};
    if (dimensionView) {
      for (size_t d = 0; d < maxRank(); ++d) line.push_back(d < row.dims.size() ? row.dims[d].text() : "");
    } else {
      for (const auto& c : row.cells) line.push_back(c.text());
    }
    line.push_back(row.replicated.empty() ? "" : strAxisList(row.replicated));
    grid.push_back(line);
  }
  std::vector<size_t> width;
  for (const auto& line : grid)
    for (size_t i = 0; i < line.size(); ++i) {
      if (width.size() <= i) width.push_back(0);
      // Count code points, not bytes ("—" is 3 bytes).
      size_t n = 0;
      for (unsigned char ch : line[i]) n += (ch & 0xC0) != 0x80;
      width[i] = std::max(width[i], n);
    }
  std::string out;
  for (const auto& line : grid) {
    std::string l;
    for (size_t i = 0; i < line.size(); ++i) {
      size_t n = 0;
      for (unsigned char ch : line[i]) n += (ch & 0xC0) != 0x80;
      l += line[i] + std::string(width[i] - n + 2, ' ');
    }
    while (!l.empty() && l.back() == ' ') l.pop_back();
    out += l + "\n";
  }
  return out;
}

namespace {

// A recorded table back as a projection (rows split by their labels).
propagation::ShardingProjection toProjection(const TraceFactorTable& table) {
  propagation::ShardingProjection p;
  for (const TraceTensorRow& r : table.rows) {
    propagation::TensorFactorShardings row;
    for (const auto& c : r.factors) row.factors[c.factor] = {c.axes, c.closed, c.minorMost, c.overflowAxes};
    row.replicated = r.replicated;
    row.unreduced = r.unreduced;
    auto label = parseTensorLabel(r.tensor);
    (label && label->result ? p.results : p.operands).push_back(std::move(row));
  }
  return p;
}

const TraceTensorRow* rowNamed(const TraceFactorTable* t, const std::string& tensor) {
  if (!t) return nullptr;
  for (const auto& r : t->rows)
    if (r.tensor == tensor) return &r;
  return nullptr;
}

const propagation::TraceFactorCell* cellOf(const TraceTensorRow* row, int64_t factor) {
  if (!row) return nullptr;
  for (const auto& c : row->factors)
    if (c.factor == factor) return &c;
  return nullptr;
}

}  // namespace

FactorTable buildFactorTable(const OpShardingRule& rule, const TraceFactorTable& table, std::string_view opName,
                             const Mesh* mesh, const std::vector<std::string>& directions,
                             const std::vector<propagation::TraceConflict>& conflicts,
                             const TraceFactorTable* compareWith) {
  FactorTable out;
  out.op = std::string(opName);
  out.rule = rule.strBody();
  if (mesh) out.mesh = *mesh;
  const propagation::ShardingProjection projection = toProjection(table);
  const std::vector<FactorInfo> infos = describeFactors(rule, opName);
  for (const FactorInfo& info : infos) {
    FactorTableColumn c;
    c.factor = info.index;
    c.name = info.name;
    c.size = info.size;
    c.type = info.type;
    c.kind = info.kind;
    c.role = info.role;
    c.blocked = info.blocked;
    if (static_cast<size_t>(info.index) < directions.size()) c.direction = directions[static_cast<size_t>(info.index)];
    for (const auto& cf : conflicts)
      if (cf.factor == info.index) {
        c.conflict = true;
        c.conflictReason = cf.reason;
      }
    if (projection.numOperands() == rule.operands.size() && projection.numResults() == rule.results.size())
      c.compatibleAxes = propagation::basic::compatibleMajorAxes(projection, info.index,
                                                                 propagation::PropagationDirection::Both);
    out.columns.push_back(std::move(c));
  }
  for (size_t r = 0; r < table.rows.size(); ++r) {
    const TraceTensorRow& tr = table.rows[r];
    FactorTableRow row;
    row.tensor = tr.tensor;
    row.value = tr.value;
    auto label = parseTensorLabel(tr.tensor);
    row.isResult = label && label->result;
    row.index = label ? label->index : r;
    row.replicated = tr.replicated;
    row.unreduced = tr.unreduced;
    const size_t tensor = row.isResult ? rule.operands.size() + row.index : row.index;
    const TensorFactorMapping* mapping = tensorMapping(rule, tensor);
    const TraceTensorRow* other = rowNamed(compareWith, tr.tensor);
    for (const FactorTableColumn& col : out.columns) {
      FactorTableCell cell;
      if (const auto* c = cellOf(&tr, col.factor)) {
        cell.mapped = true;
        cell.axes = c->axes;
        cell.overflowAxes = c->overflowAxes;
        cell.closed = c->closed;
        cell.minorMost = c->minorMost;
        cell.dim = dimensionOfFactor(rule, tensor, col.factor);
        while (cell.compatiblePrefix < cell.axes.size() && cell.compatiblePrefix < col.compatibleAxes.size() &&
               cell.axes[cell.compatiblePrefix] == col.compatibleAxes[cell.compatiblePrefix])
          ++cell.compatiblePrefix;
        if (col.conflict) {
          // In conflict when some other tensor mapping the factor holds different axes.
          for (const auto& orow : table.rows)
            if (const auto* oc = cellOf(&orow, col.factor); oc && !(oc->axes == c->axes)) cell.conflict = true;
        }
        if (compareWith) {
          const auto* oc = cellOf(other, col.factor);
          cell.changed = !oc || !(oc->axes == c->axes && oc->overflowAxes == c->overflowAxes && oc->closed == c->closed);
        }
      }
      row.cells.push_back(std::move(cell));
    }
    // Dimension view.
    if (mapping) {
      propagation::TensorFactorShardings tfs;
      if (label) {
        const auto& list = label->result ? projection.results : projection.operands;
        if (label->index < list.size()) tfs = list[label->index];
      }
      std::optional<TensorSharding> dimsSharding;
      if (mesh) dimsSharding = propagation::unprojectTensor(tfs, *mapping, rule.factorSizes, MeshRef{}, *mesh);
      std::optional<TensorSharding> otherSharding;
      if (other && mesh) {
        propagation::TensorFactorShardings ot;
        for (const auto& c : other->factors) ot.factors[c.factor] = {c.axes, c.closed, c.minorMost, c.overflowAxes};
        otherSharding = propagation::unprojectTensor(ot, *mapping, rule.factorSizes, MeshRef{}, *mesh);
      }
      for (size_t d = 0; d < mapping->dims.size(); ++d) {
        FactorTableDimCell dc;
        dc.factors = mapping->dims[d];
        if (dimsSharding && d < dimsSharding->dims.size()) {
          dc.sharding = dimsSharding->dims[d];
        } else {
          // Without a mesh: concatenate the factors' axes, closed if any is.
          dc.sharding.closed = false;
          for (int64_t f : mapping->dims[d])
            if (const auto* c = cellOf(&tr, f)) {
              dc.sharding.axes.insert(dc.sharding.axes.end(), c->axes.begin(), c->axes.end());
              dc.sharding.axes.insert(dc.sharding.axes.end(), c->overflowAxes.begin(), c->overflowAxes.end());
              if (c->closed) dc.sharding.closed = true;
            }
        }
        int64_t size = 1;
        for (int64_t f : mapping->dims[d]) size *= rule.factorSizes[static_cast<size_t>(f)];
        dc.size = size;
        if (compareWith) {
          if (otherSharding && d < otherSharding->dims.size()) {
            dc.changed = !(otherSharding->dims[d].axes == dc.sharding.axes);
          } else {
            AxisRefList old;
            for (int64_t f : mapping->dims[d])
              if (const auto* c = cellOf(other, f)) old.insert(old.end(), c->axes.begin(), c->axes.end());
            AxisRefList now;
            for (int64_t f : mapping->dims[d])
              if (const auto* c = cellOf(&tr, f)) now.insert(now.end(), c->axes.begin(), c->axes.end());
            dc.changed = !(old == now);
          }
        }
        row.dims.push_back(std::move(dc));
      }
    }
    out.rows.push_back(std::move(row));
  }
  return out;
}

FactorTable factorTableForStep(const propagation::TraceStep& step, bool after, const Mesh* mesh) {
  std::optional<OpShardingRule> rule = step.rule.empty() ? std::nullopt : parseRuleText(step.rule);
  if (!rule) {
    FactorTable t;
    t.op = step.op;
    t.rule = step.rule;
    return t;
  }
  FactorTable t = after ? buildFactorTable(*rule, step.after, step.op, mesh, step.directions, step.conflicts, &step.before)
                        : buildFactorTable(*rule, step.before, step.op, mesh, step.directions, {}, nullptr);
  t.line = step.line;
  if (!step.updates.empty()) t.meshName = step.updates.front().sharding.mesh.name;
  return t;
}

namespace {
std::string nameOf(const ir::Value* v) {
  if (!v || v->sourceName.empty()) return {};
  return v->sourceName.front() == '%' ? v->sourceName : "%" + v->sourceName;
}
}  // namespace

FactorTable factorTableForOp(ir::Module& module, ir::Op& op, std::string* error, bool conservative) {
  FactorTable out;
  out.op = op.name();
  out.line = op.loc().line;
  std::optional<OpShardingRule> rule;
  if (const OpShardingRule* existing = rules::existingOpShardingRule(op)) rule = *existing;
  else rule = rules::createOpShardingRule(op, conservative, nullptr);
  if (!rule) {
    if (error) *error = "op '" + op.name() + "' has no sharding rule";
    return out;
  }
  if (rule->operands.size() != op.numOperands() || rule->results.size() != op.numResults()) {
    if (error) *error = "the rule of '" + op.name() + "' does not match its operands and results";
    return out;
  }
  std::vector<std::optional<TensorSharding>> os, rs;
  std::vector<std::string> names;
  const Mesh* mesh = nullptr;
  MeshRef meshRef;
  auto look = [&](ir::Value* v, std::vector<std::optional<TensorSharding>>& list) {
    std::optional<TensorSharding> s = propagation::getSharding(v);
    if (s && !mesh) {
      if (const Mesh* m = module.meshOf(*s); m && !m->empty()) {
        mesh = m;
        meshRef = s->mesh;
      }
    }
    list.push_back(std::move(s));
    names.push_back(nameOf(v));
  };
  for (ir::Value* v : op.operands()) look(v, os);
  for (ir::Value* v : op.resultRange()) look(v, rs);
  static const Mesh kEmpty;
  const Mesh& m = mesh ? *mesh : kEmpty;
  propagation::ShardingProjection p = propagation::ShardingProjection::build(os, rs, *rule, m);
  TraceFactorTable table = propagation::toTraceTable(p, names);
  std::vector<propagation::PropagationDirection> dirs(rule->factorSizes.size(), propagation::PropagationDirection::Both);
  std::vector<std::string> dirNames;
  for (int64_t f = 0; f < rule->numFactors(); ++f)
    dirNames.push_back(rule->isBlocked(f) ? "NONE" : "BOTH");
  // Before propagation most factors "disagree" only because nothing moved
  // yet: keep the real conflicts (incompatible axes, blocked factors).
  std::vector<propagation::TraceConflict> conflicts;
  for (auto& c : propagation::unresolvedConflicts(p, *rule, dirs))
    if (c.reason.find("incompatible") != std::string::npos || c.reason.find("blocked") != std::string::npos)
      conflicts.push_back(std::move(c));
  out = buildFactorTable(*rule, table, op.name(), mesh, dirNames, conflicts, nullptr);
  out.line = op.loc().line;
  out.meshName = meshRef.name;
  // Known shapes for the dimension view.
  for (size_t r = 0; r < out.rows.size(); ++r) {
    const ir::Value* v = r < op.numOperands() ? op.operand(static_cast<unsigned>(r))
                                              : op.result(static_cast<unsigned>(r - op.numOperands()));
    if (!v->type->isRankedTensor()) continue;
    for (size_t d = 0; d < out.rows[r].dims.size() && d < v->type->shape.size(); ++d)
      out.rows[r].dims[d].size = v->type->shape[d];
  }
  return out;
}

}  // namespace shardscope::explain
