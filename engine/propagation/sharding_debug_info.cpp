// Sharding origins and propagation edges (see sharding_debug_info.h).
#include "propagation/sharding_debug_info.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <regex>
#include <set>

#include "ir/sharding_attr_access.h"
#include "propagation/axis_algebra.h"
#include "propagation/value_shardings.h"

namespace shardscope::propagation {

namespace {

constexpr const char* kOriginsAttr = "sdy.sharding_origins";
constexpr const char* kEdgesAttr = "sdy.propagation_edges";
constexpr const char* kOriginNameAttr = "sdy.sharding_origin_name";

std::string unquoted(const AxisRef& a) {
  std::string s = a.str();
  s.erase(std::remove(s.begin(), s.end(), '"'), s.end());
  return s;
}

const ir::Attribute* listDictEntry(const ir::Op& op, const char* listName, unsigned i, const std::string& key) {
  const ir::Attribute* list = op.attr(listName);
  const ir::ArrayAttr* arr = list ? list->array() : nullptr;
  if (!arr || i >= arr->elems.size()) return nullptr;
  const ir::DictionaryAttr* d = arr->elems[i].dict();
  return d ? d->get(key) : nullptr;
}

// Replace entries equal to `name` by "self" in a dictionary attribute.
ir::Attribute selfify(const ir::Attribute& dict, const std::string& name) {
  const ir::DictionaryAttr* d = dict.dict();
  if (!d) return dict;
  std::vector<ir::NamedAttribute> entries = d->entries;
  for (auto& [k, v] : entries)
    if (const std::string* s = v.string(); s && *s == name) v = ir::Attribute(ir::StringAttr{"self"});
  return ir::Attribute::makeDict(std::move(entries));
}

ir::EdgeValueRef edgeRef(const ShardingDebugInfo::Node& n) {
  return {n.result ? ir::EdgeValueRef::Kind::Result : ir::EdgeValueRef::Kind::Operand, n.index};
}

// The edges of one value as `sdy.propagation_edges`: each (axis, source,
// target) at its earliest step, steps in order, entries by axis name.
std::optional<ir::PropagationEdgesAttr> edgesAttr(
    const std::vector<std::pair<AxisRef, ShardingDebugInfo::Edge>>& edges) {
  using Node = ShardingDebugInfo::Node;
  // (axis, source, target) -> the earliest step.
  std::map<std::string, AxisRef> axisByKey;
  std::map<std::tuple<std::string, Node, Node>, int64_t> minStep;
  for (const auto& [axis, e] : edges) {
    std::string key = axis.str();
    axisByKey.emplace(key, axis);
    auto k = std::make_tuple(key, e.source, e.target);
    auto it = minStep.find(k);
    if (it == minStep.end() || e.step < it->second) minStep[k] = e.step;
  }
  // step -> axis -> source -> targets.
  std::map<int64_t, std::map<std::string, std::map<Node, std::set<Node>>>> perStep;
  for (const auto& [k, step] : minStep)
    perStep[step][std::get<0>(k)][std::get<1>(k)].insert(std::get<2>(k));
  if (perStep.empty()) return std::nullopt;
  ir::PropagationEdgesAttr out;
  for (const auto& [step, axes] : perStep) {
    ir::PropagationStepEdges stepEdges;
    stepEdges.stepIndex = step;
    for (const auto& [axisKey, sources] : axes)
      for (const auto& [source, targets] : sources) {
        ir::AxisPropagationEdges entry;
        entry.axis = axisByKey.at(axisKey);
        entry.source = edgeRef(source);
        for (const Node& t : targets) entry.targets.push_back(edgeRef(t));  // operands first, by index
        stepEdges.axisEntries.push_back(std::move(entry));
      }
    // Entries sorted by axis name (stable).
    std::stable_sort(stepEdges.axisEntries.begin(), stepEdges.axisEntries.end(),
                     [](const auto& a, const auto& b) { return a.axis.name < b.axis.name; });
    out.steps.push_back(std::move(stepEdges));
  }
  return out;
}

}  // namespace

std::string ShardingDebugInfo::Origin::str() const {
  if (kind == "constraint") return "constraint_" + std::to_string(sourceId);
  if (kind == "mc_input") return "mc_" + std::to_string(sourceId) + "_input: " + std::to_string(index);
  if (kind == "mc_output") return "mc_" + std::to_string(sourceId) + "_output: " + std::to_string(index);
  return kind + ": " + std::to_string(index);
}

const ShardingDebugInfo::Origin* ShardingDebugInfo::AxisOrigins::find(const AxisRef& a) const {
  for (const auto& [axis, o] : entries)
    if (axis == a) return &o;
  return nullptr;
}

void ShardingDebugInfo::AxisOrigins::add(const AxisRef& a, const Origin& o) {
  if (!find(a)) entries.emplace_back(a, o);
}

ShardingDebugInfo::ShardingDebugInfo(ir::Module& module, bool origins, bool edges)
    : module_(module), origins_(origins), edges_(edges) {}

void ShardingDebugInfo::seed(const std::optional<TensorSharding>& s, const Origin& o, ir::Value* v) {
  if (!s || !v) return;
  ir::Value* key = shardableValue(v);
  if (!key) return;
  for (const DimensionSharding& d : s->dims)
    for (const AxisRef& a : d.axes) {
      if (!valueOrigins_.count(key)) originOrder_.push_back(key);
      valueOrigins_[key].add(a, o);
    }
}

void ShardingDebugInfo::prepare() {
  if (!enabled()) return;
  // Continue numbering after steps recorded by earlier passes.
  int64_t maxStep = -1;
  std::regex stepRe("step-([0-9]+)");
  module_.op->walk([&](ir::Op& op) {
    const ir::Attribute* a = op.attr(kEdgesAttr);
    if (!a) return;
    std::string text = a->str();
    for (std::sregex_iterator it(text.begin(), text.end(), stepRe), end; it != end; ++it)
      maxStep = std::max<int64_t>(maxStep, std::stoll((*it)[1]));
  });
  step_ = maxStep + 1;
  if (!origins_) return;

  int64_t id = 0;
  module_.op->walk([&](ir::Op& op) {
    if (!op.is("sdy.sharding_constraint")) return;
    Origin o{"constraint", 0, id};
    seed(getSharding(op.result(0)), o, op.result(0));
    op.setAttr(kOriginNameAttr, ir::Attribute(ir::StringAttr{o.str()}));
    if (op.numOperands()) seed(getSharding(op.operand(0)), o, op.operand(0));
    ++id;
  });
  id = 0;
  module_.op->walk([&](ir::Op& op) {
    if (!op.is("sdy.manual_computation")) return;
    auto list = [&](const char* name) {
      std::vector<TensorSharding> out;
      if (const ir::Attribute* a = op.attr(name))
        if (const auto* pv = a->as<TensorShardingPerValue>()) out = pv->shardings;
      return out;
    };
    std::vector<TensorSharding> ins = list("in_shardings"), outs = list("out_shardings");
    for (size_t i = 0; i < ins.size(); ++i) {
      if (op.numRegions() == 0 || op.region(0).empty() || i >= op.region(0).front().numArguments()) break;
      Origin o{"mc_input", static_cast<int64_t>(i), id};
      ir::Op* edge = lookupEdgeOfTarget(op.region(0).front().argument(i));
      if (!edge) continue;
      seed(ins[i], o, edge->result(0));
      std::vector<ir::Value*> srcs = edgeSources(edge->operand(0));
      if (!srcs.empty()) seed(getSharding(srcs.front()), o, srcs.front());
    }
    for (size_t i = 0; i < outs.size() && i < op.numResults(); ++i) {
      ir::Op* edge = lookupEdgeOfTarget(op.result(i));
      if (!edge) continue;
      seed(outs[i], Origin{"mc_output", static_cast<int64_t>(i), id}, edge->result(0));
    }
    op.setAttr(kOriginNameAttr, ir::Attribute(ir::StringAttr{"mc_" + std::to_string(id)}));
    ++id;
  });
  for (ir::Op* func : module_.functions()) {
    if (func->numRegions() == 0 || func->region(0).empty()) continue;
    for (ir::Value* arg : func->region(0).front().arguments())
      seed(getSharding(arg), Origin{"input", arg->index, 0}, arg);
    if (ir::Op* ret = funcReturn(*func))
      for (unsigned i = 0; i < ret->numOperands(); ++i)
        seed(funcResultSharding(*func, i), Origin{"output", i, 0}, ret->operand(i));
  }
}

ShardingDebugInfo::Origin ShardingDebugInfo::lookup(ir::Value* v, const AxisRef& a) {
  auto it = valueOrigins_.find(shardableValue(v));
  if (it == valueOrigins_.end()) return Origin{"input", -1, 0};
  if (const Origin* o = it->second.find(a)) return *o;
  for (const auto& [axis, o] : it->second.entries)
    if (contains(axis, a) || contains(a, axis)) return o;
  return Origin{"input", -1, 0};
}

void ShardingDebugInfo::onStep(const StepEvent& e) {
  const ShardingProjection& before = *e.before;
  const ShardingProjection& after = *e.after;
  const OpShardingRule& rule = *e.rule;
  int64_t step = step_++;
  auto findSource = [&](const AxisRefList& newAxes, int64_t f) -> std::optional<Node> {
    for (size_t i = 0; i < before.operands.size(); ++i)
      if (const FactorSharding* fs = before.operands[i].find(f);
          fs && listPrefixStatus(newAxes, fs->axes) != PrefixStatus::NotAPrefix)
        return Node{false, static_cast<int64_t>(i)};
    for (size_t i = 0; i < before.results.size(); ++i)
      if (const FactorSharding* fs = before.results[i].find(f);
          fs && listPrefixStatus(newAxes, fs->axes) != PrefixStatus::NotAPrefix)
        return Node{true, static_cast<int64_t>(i)};
    return std::nullopt;
  };
  auto visit = [&](bool isResult, size_t index, const TensorFactorShardings& oldRow,
                   const TensorFactorShardings& newRow, const TensorFactorMapping& mapping) {
    std::vector<std::pair<AxisRef, Edge>> map;
    auto emplace = [&](const AxisRef& a, const Edge& edge) {
      for (const auto& [x, _] : map)
        if (x == a) return;
      map.emplace_back(a, edge);
    };
    for (const std::vector<int64_t>& dim : mapping.dims) {
      std::optional<AxisRef> previous;
      for (int64_t f : dim) {
        const FactorSharding* o = oldRow.find(f);
        const FactorSharding* n = newRow.find(f);
        if (!o || !n || o->axes == n->axes || n->axes.empty()) continue;
        AxisRef lastNew = n->axes.back();
        if (previous && previous->name == lastNew.name && previous->subAxis && lastNew.subAxis &&
            previous->subAxis->nextPreSize() == lastNew.subAxis->preSize) {
          AxisRef prev = *previous;
          map.erase(std::remove_if(map.begin(), map.end(), [&](const auto& p) { return p.first == prev; }),
                    map.end());
          lastNew = makeSubAxis(prev.name, prev.subAxis->preSize, prev.subAxis->size * lastNew.subAxis->size,
                                *e.mesh);
        }
        previous = n->axes.back();
        AxisRefList introduced = n->axes;
        introduced.back() = lastNew;
        std::optional<Node> src = findSource(n->axes, f);
        if (!src) continue;
        Edge edge{*src, Node{isResult, static_cast<int64_t>(index)}, step};
        if (!o->axes.empty()) {
          size_t last = o->axes.size() - 1;
          if (!(o->axes[last] == introduced[last])) emplace(introduced[last], edge);
        }
        for (size_t k = o->axes.size(); k < introduced.size(); ++k) emplace(introduced[k], edge);
      }
    }
    ir::Value* value = isResult ? e.results[index] : e.operands[index];
    for (const auto& [axis, edge] : map) {
      if (edges_) {
        if (e.funcResultSync) {
          funcResultEdges_[e.op][static_cast<int64_t>(index)].emplace_back(axis, edge);
        } else {
          if (!opEdges_.count(e.op)) edgeOpOrder_.push_back(e.op);
          opEdges_[e.op].emplace_back(axis, edge);
        }
      }
      if (origins_ && value) {
        ir::Value* sourceValue = edge.source.result ? e.results[edge.source.index] : e.operands[edge.source.index];
        Origin o = lookup(sourceValue, axis);
        ir::Value* key = shardableValue(value);
        if (!key) continue;
        if (!valueOrigins_.count(key)) originOrder_.push_back(key);
        valueOrigins_[key].add(axis, o);
      }
    }
  };
  for (size_t i = 0; i < after.operands.size() && i < before.operands.size(); ++i)
    visit(false, i, before.operands[i], after.operands[i], rule.operands[i]);
  for (size_t i = 0; i < after.results.size() && i < before.results.size(); ++i)
    visit(true, i, before.results[i], after.results[i], rule.results[i]);
}

void ShardingDebugInfo::save() {
  if (origins_) {
    for (ir::Value* v : originOrder_) {
      const AxisOrigins& ao = valueOrigins_[v];
      std::vector<ir::NamedAttribute> entries;
      for (const auto& [axis, o] : ao.entries) entries.emplace_back(unquoted(axis), ir::Attribute(ir::StringAttr{o.str()}));
      ir::Attribute dict = ir::Attribute::makeDict(entries);
      ir::Op* owner = owningOp(v);
      if (!owner) continue;
      ir::Op* func = owner->is("func.func") ? owner : owner->parentOfName("func.func");
      if (func) {
        if (ir::Op* ret = funcReturn(*func))
          for (const ir::Use& u : v->uses())
            if (u.user == ret) {
              ir::setEntryInDictList(*func, "res_attrs", u.index, funcNumResults(*func), kOriginsAttr, dict);
              break;
            }
      }
      if (v->isBlockArgument()) {
        if (owner->is("func.func"))
          ir::setEntryInDictList(*owner, "arg_attrs", v->index, owner->region(0).front().numArguments(), kOriginsAttr, dict);
        continue;
      }
      if (owner->is("sdy.sharding_constraint") || owner->is("sdy.data_flow_edge")) {
        owner->setAttr(kOriginsAttr, dict);
        continue;
      }
      std::vector<ir::Attribute> perResult;
      if (const ir::Attribute* a = owner->attr(kOriginsAttr))
        if (const ir::ArrayAttr* arr = a->array()) perResult = arr->elems;
      if (perResult.size() != owner->numResults()) perResult.assign(owner->numResults(), ir::Attribute::makeDict({}));
      perResult[v->index] = dict;
      owner->setAttr(kOriginsAttr, ir::Attribute::makeArray(perResult));
    }
    // Values holding their own origin say "self".
    module_.op->walk([&](ir::Op& op) {
      if (op.is("sdy.sharding_constraint")) {
        const ir::Attribute* name = op.attr(kOriginNameAttr);
        const ir::Attribute* d = op.attr(kOriginsAttr);
        if (name && d && name->string()) op.setAttr(kOriginsAttr, selfify(*d, *name->string()));
      }
    });
    for (ir::Op* func : module_.functions()) {
      unsigned nArgs = func->numRegions() && !func->region(0).empty() ? func->region(0).front().numArguments() : 0;
      for (unsigned i = 0; i < nArgs; ++i)
        if (const ir::Attribute* d = listDictEntry(*func, "arg_attrs", i, kOriginsAttr))
          ir::setEntryInDictList(*func, "arg_attrs", i, nArgs, kOriginsAttr, selfify(*d, "input: " + std::to_string(i)));
      unsigned nRes = funcNumResults(*func);
      for (unsigned i = 0; i < nRes; ++i)
        if (const ir::Attribute* d = listDictEntry(*func, "res_attrs", i, kOriginsAttr))
          ir::setEntryInDictList(*func, "res_attrs", i, nRes, kOriginsAttr, selfify(*d, "output: " + std::to_string(i)));
    }
    module_.op->walk([&](ir::Op& op) {
      if (!op.is("sdy.manual_computation")) return;
      const ir::Attribute* name = op.attr(kOriginNameAttr);
      if (!name || !name->string()) return;
      std::string base = *name->string();
      if (op.numRegions() && !op.region(0).empty())
        for (ir::Value* arg : op.region(0).front().arguments())
          if (ir::Op* edge = lookupEdgeOfTarget(arg))
            if (const ir::Attribute* d = edge->attr(kOriginsAttr))
              edge->setAttr(kOriginsAttr, selfify(*d, base + "_input: " + std::to_string(arg->index)));
      for (ir::Value* r : op.resultRange())
        if (ir::Op* edge = lookupEdgeOfTarget(r))
          if (const ir::Attribute* d = edge->attr(kOriginsAttr))
            edge->setAttr(kOriginsAttr, selfify(*d, base + "_output: " + std::to_string(r->index)));
    });
  }
  if (edges_) {
    for (ir::Op* op : edgeOpOrder_) {
      if (op->is("func.func")) continue;
      if (auto attr = edgesAttr(opEdges_[op])) op->setAttr(kEdgesAttr, ir::Attribute(std::move(*attr)));
    }
    for (auto& [func, perResult] : funcResultEdges_)
      for (auto& [index, edges] : perResult) {
        if (auto attr = edgesAttr(edges))
          ir::setEntryInDictList(*func, "res_attrs", static_cast<unsigned>(index), funcNumResults(*func), kEdgesAttr,
                           ir::Attribute(std::move(*attr)));
      }
  }
}

}  // namespace shardscope::propagation
