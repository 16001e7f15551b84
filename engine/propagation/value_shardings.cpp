// Value sharding storage (see value_shardings.h).
#include "propagation/op_name.h"
#include "propagation/value_shardings.h"

#include <algorithm>
#include <array>
#include <unordered_map>

#include "ir/sharding_attr_access.h"
#include "propagation/hash_combine.h"

namespace shardscope::propagation {

const ir::AttrName kShardingAttrName{kShardingAttr};

namespace {

// Names looked up for every tensor of every op visit, interned once: an
// interned name is found by comparing one pointer per attribute.
const ir::AttrName kSingleShardingName{"sharding"};
const ir::AttrName kOutShardingName{"out_sharding"};
const ir::AttrName kInShardingsName{"in_shardings"};
const ir::AttrName kOutShardingsName{"out_shardings"};


std::vector<TensorSharding> perValueList(const ir::Attribute* a) {
  if (!a) return {};
  if (const auto* pv = a->as<TensorShardingPerValue>()) return pv->shardings;
  return {};
}

// Set entry `index` of a per-value attribute, filling missing entries with
// open replicated shardings of the values' ranks on the same mesh.
// `count` values, value i being `valueAt(i)`.
ir::Attribute sharedPerValue(TensorShardingPerValue list);
ir::Attribute sharedSingleValue(const TensorSharding& s);
template <typename ValueAt>
void setPerValue(ir::Op& op, const ir::AttrName& name, unsigned index, const TensorSharding& s, size_t count,
                 const ValueAt& valueAt, bool inherent) {
  const ir::Attribute* old = op.attr(name);
  bool wasInherent = inherent;
  if (old) {
    for (const auto& a : op.attrs())
      if (a.name == name) wasInherent = a.inherent;
  }
  // A single value's list is just `s` (most ops have one result): it is
  // looked up among the shared lists without being copied first.
  if (count == 1 && index == 0) {
    op.setAttr(name, sharedSingleValue(s), wasInherent);
    return;
  }
  std::vector<TensorSharding> list = perValueList(old);
  if (list.size() != count) {
    list.clear();
    for (size_t i = 0; i < count; ++i) list.push_back(fullyReplicated(s.mesh, rankOf(valueAt(i)->type), false));
  }
  if (index < list.size()) list[index] = s;
  op.setAttr(name, sharedPerValue(TensorShardingPerValue{std::move(list)}), wasInherent);
}

// Deferred function argument/result shardings (see beginDeferredFuncShardings):
// the `sdy.sharding` written for entry i of a func's arg_attrs (list 0) or
// res_attrs (list 1), kept as attributes so references stay alive.
struct FuncSide {
  std::vector<std::optional<ir::Attribute>> lists[2];
  unsigned counts[2] = {0, 0};
};
struct SideTable {
  int depth = 0;
  std::unordered_map<const ir::Op*, FuncSide> funcs;
};
SideTable& sideTable() {
  static thread_local SideTable t;
  return t;
}

// Equal per-value sharding lists written during one propagation share one
// attribute object: thousands of ops end up with the same few shardings, and
// one object each keeps them in a few cache lines for the later passes and
// the writer. The table lives as long as the deferral (the driver's run).
void hashAxes(size_t& seed, const AxisRefList& axes) {
  for (const AxisRef& a : axes) {
    hashCombine(seed, std::hash<std::string>{}(a.name));
    if (a.subAxis) hashCombine(seed, static_cast<size_t>(a.subAxis->preSize * 131 + a.subAxis->size));
  }
  hashCombine(seed, axes.size());
}
void hashSharding(size_t& seed, const TensorSharding& t) {
  hashCombine(seed, std::hash<std::string>{}(t.mesh.name));
  for (const DimensionSharding& d : t.dims) {
    hashAxes(seed, d.axes);
    hashCombine(seed, (d.closed ? 1 : 2) + static_cast<size_t>(d.priority.value_or(-1)) * 7);
  }
  hashAxes(seed, t.replicated);
  hashAxes(seed, t.unreduced);
}
size_t hashPerValue(const TensorShardingPerValue& list) {
  size_t seed = list.shardings.size();
  for (const TensorSharding& t : list.shardings) hashSharding(seed, t);
  return seed;
}
std::unordered_multimap<size_t, ir::Attribute>& sharedPerValues() {
  static thread_local std::unordered_multimap<size_t, ir::Attribute> table;
  return table;
}
ir::Attribute sharedPerValue(TensorShardingPerValue list) {
  if (sideTable().depth == 0) return ir::Attribute(std::move(list));
  auto& table = sharedPerValues();
  size_t hash = hashPerValue(list);
  auto [first, last] = table.equal_range(hash);
  for (auto it = first; it != last; ++it)
    if (*it->second.as<TensorShardingPerValue>() == list) return it->second;
  ir::Attribute attr(std::move(list));
  table.emplace(hash, attr);
  return attr;
}
// sharedPerValue(TensorShardingPerValue{{s}}), copying `s` only when no
// equal list is shared yet (the same hash, the same table entries).
ir::Attribute sharedSingleValue(const TensorSharding& s) {
  auto single = [&s] {
    TensorShardingPerValue list;
    list.shardings.reserve(1);
    list.shardings.push_back(s);
    return list;
  };
  if (sideTable().depth == 0) return ir::Attribute(single());
  auto& table = sharedPerValues();
  size_t hash = 1;  // hashPerValue's seed for one sharding
  hashSharding(hash, s);
  auto [first, last] = table.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    const auto& shardings = it->second.as<TensorShardingPerValue>()->shardings;
    if (shardings.size() == 1 && shardings.front() == s) return it->second;
  }
  ir::Attribute attr(single());
  table.emplace(hash, attr);
  return attr;
}
int listIndex(const char* listName) { return listName[0] == 'a' ? 0 : 1; }  // arg_attrs / res_attrs

const ir::Attribute* sideLookup(const ir::Op& op, const char* listName, unsigned i) {
  SideTable& t = sideTable();
  if (t.depth == 0 || t.funcs.empty()) return nullptr;
  auto it = t.funcs.find(&op);
  if (it == t.funcs.end()) return nullptr;
  const auto& l = it->second.lists[listIndex(listName)];
  return i < l.size() && l[i] ? &*l[i] : nullptr;
}

void writeShardingsInList(ir::Op& op, const char* listName, unsigned count,
                          const std::vector<std::optional<ir::Attribute>>& shardings) {
  std::vector<ir::Attribute> elems;
  if (const ir::Attribute* list = op.attr(listName))
    if (const ir::ArrayAttr* arr = list->array()) elems = arr->elems;
  for (unsigned i = 0; i < shardings.size(); ++i)
    if (shardings[i]) count = std::max<unsigned>(count, i + 1);
  while (elems.size() < count) elems.push_back(ir::Attribute::makeDict({}));
  for (unsigned i = 0; i < shardings.size(); ++i) {
    if (!shardings[i]) continue;
    std::vector<ir::NamedAttribute> entries;
    if (const ir::DictionaryAttr* d = elems[i].dict()) entries = d->entries;
    bool found = false;
    for (auto& [k, v] : entries)
      if (k == kShardingAttr) {
        v = *shardings[i];
        found = true;
      }
    if (!found) entries.emplace_back(kShardingAttr, *shardings[i]);
    elems[i] = ir::Attribute::makeDict(std::move(entries));
  }
  op.setAttr(listName, ir::Attribute::makeArray(std::move(elems)), true);
}

std::optional<TensorSharding> shardingInList(const ir::Op& op, const char* listName, unsigned i) {
  if (const ir::Attribute* a = sideLookup(op, listName, i)) {
    if (const auto* ts = a->as<TensorSharding>()) return *ts;
    return std::nullopt;
  }
  const ir::Attribute* list = op.attr(listName);
  if (!list) return std::nullopt;
  const ir::ArrayAttr* arr = list->array();
  if (!arr || i >= arr->elems.size()) return std::nullopt;
  const ir::DictionaryAttr* dict = arr->elems[i].dict();
  if (!dict) return std::nullopt;
  const ir::Attribute* s = dict->get(kShardingAttr);
  if (!s) return std::nullopt;
  if (const auto* ts = s->as<TensorSharding>()) return *ts;
  return std::nullopt;
}

void setShardingInList(ir::Op& op, const char* listName, unsigned i, unsigned count,
                       const TensorSharding& s) {
  SideTable& t = sideTable();
  if (t.depth > 0) {
    FuncSide& f = t.funcs[&op];
    int li = listIndex(listName);
    auto& l = f.lists[li];
    if (l.size() <= i) l.resize(i + 1);
    l[i] = ir::Attribute(s);
    f.counts[li] = std::max(f.counts[li], count);
    return;
  }
  ir::setEntryInDictList(op, listName, i, count, kShardingAttr, ir::Attribute(s));
}

bool isCollectiveWithOutSharding(const ir::Op& op) {
  // (The name test first: it is cheaper than the attribute lookup.)
  return std::string_view(op.name()).starts_with("sdy.") && op.hasAttr(kOutShardingName);
}

}  // namespace

bool isTerminatorOp(const ir::Op& op) {
  return SS_OP_IS(op, "func.return") || SS_OP_IS(op, "stablehlo.return") || SS_OP_IS(op, "sdy.return") ||
         SS_OP_IS(op, "mhlo.return") || (op.parentBlock() && op.parentBlock()->terminator() == &op &&
                                  op.numResults() == 0 && op.name().find("return") != std::string::npos);
}

bool isDataFlowOp(const ir::Op& op) {
  // The interned names in one array (one initialisation check per call, not
  // one per name): asked for the owner of every value whose sharding is read.
  static const std::array<const std::string*, 5> kNames = {
      &ir::Op::internOpName("stablehlo.while"), &ir::Op::internOpName("stablehlo.case"),
      &ir::Op::internOpName("stablehlo.optimization_barrier"), &ir::Op::internOpName("sdy.manual_computation"),
      &ir::Op::internOpName("sdy.named_computation")};
  const std::string* name = &op.name();
  return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
}

ir::Op* owningOp(const ir::Value* v) {
  if (v->isBlockArgument()) return v->ownerBlock->parentOp();
  return v->definingOp;
}

ir::Value* edgeOwnerFromTarget(ir::Value* v) {
  ir::Op* owner = owningOp(v);
  if (!owner || !isDataFlowOp(*owner)) return nullptr;
  if (!v->isBlockArgument()) return v;
  if (SS_OP_IS(*owner, "stablehlo.while")) return v->index < owner->numResults() ? owner->result(v->index) : nullptr;
  if (SS_OP_IS(*owner, "sdy.manual_computation") || SS_OP_IS(*owner, "sdy.named_computation")) return v;
  return nullptr;  // case / optimization barrier have no block-argument targets
}

ir::Op* dataFlowEdgeUser(ir::Value* owner) {
  if (!owner || !owner->hasOneUse()) return nullptr;
  ir::Op* user = owner->uses().front().user;
  return user && SS_OP_IS(*user, "sdy.data_flow_edge") ? user : nullptr;
}

ir::Op* lookupEdgeOfTarget(ir::Value* v) {
  ir::Value* owner = edgeOwnerFromTarget(v);
  return owner ? dataFlowEdgeUser(owner) : nullptr;
}

ir::Op* lookupEdgeOfSource(ir::Op* user, unsigned index) {
  ir::Op* op = isTerminatorOp(*user) ? user->parentOp() : user;
  if (!op || !isDataFlowOp(*op)) return nullptr;
  if (op != user) {  // a terminator operand feeds result `index`
    return index < op->numResults() ? dataFlowEdgeUser(op->result(index)) : nullptr;
  }
  // An operand of the op itself. For while/case/optimization barrier it
  // feeds result `index`; for manual/named computations the reference looks
  // at the operand value itself (whose user is the region op, never an edge).
  if (SS_OP_IS(*op, "sdy.manual_computation") || SS_OP_IS(*op, "sdy.named_computation"))
    return dataFlowEdgeUser(op->operand(index));
  // while/case/optimization barrier: operand `index` is looked up as the
  // source of result `index` (for case this is the reference's behaviour
  // even for the branch index operand).
  return index < op->numResults() ? dataFlowEdgeUser(op->result(index)) : nullptr;
}

std::vector<ir::Value*> edgeSources(ir::Value* owner) {
  ir::Op* op = owningOp(owner);
  std::vector<ir::Value*> out;
  if (!op) return out;
  unsigned i = owner->index;
  if (SS_OP_IS(*op, "stablehlo.while")) {
    if (owner->isBlockArgument()) return out;
    if (i < op->numOperands()) out.push_back(op->operand(i));
    if (op->numRegions() > 1 && !op->region(1).empty()) {
      ir::Op* term = op->region(1).front().terminator();
      if (term && i < term->numOperands()) out.push_back(term->operand(i));
    }
  } else if (SS_OP_IS(*op, "stablehlo.case")) {
    for (const auto& region : op->regions()) {
      if (region->empty()) continue;
      ir::Op* term = region->front().terminator();
      if (term && i < term->numOperands()) out.push_back(term->operand(i));
    }
  } else if (SS_OP_IS(*op, "stablehlo.optimization_barrier")) {
    if (i < op->numOperands()) out.push_back(op->operand(i));
  } else if (SS_OP_IS(*op, "sdy.manual_computation") || SS_OP_IS(*op, "sdy.named_computation")) {
    if (owner->isBlockArgument()) {
      if (i < op->numOperands()) out.push_back(op->operand(i));
    } else if (op->numRegions() > 0 && !op->region(0).empty()) {
      ir::Op* term = op->region(0).front().terminator();
      if (term && i < term->numOperands()) out.push_back(term->operand(i));
    }
  }
  return out;
}

std::vector<ir::Value*> nonOwnerTargets(ir::Value* owner) {
  std::vector<ir::Value*> out;
  ir::Op* op = owningOp(owner);
  if (!op || !SS_OP_IS(*op, "stablehlo.while") || owner->isBlockArgument()) return out;
  for (const auto& region : op->regions()) {
    if (region->empty()) continue;
    ir::Block& b = region->front();
    if (owner->index < b.numArguments()) out.push_back(b.argument(owner->index));
  }
  return out;
}

std::vector<std::string> manualAxesOf(const ir::Op& mc) {
  const ir::Attribute* a = mc.attr("manual_axes");
  if (!a) return {};
  if (const auto* m = a->as<ir::ManualAxesAttr>()) return m->axes;
  if (const auto* l = a->as<ir::AxisRefListAttr>()) {
    std::vector<std::string> out;
    for (const AxisRef& r : l->axes) out.push_back(r.name);
    return out;
  }
  return {};
}

namespace {
bool isManual(const AxisRef& a, const std::vector<std::string>& manual) {
  return std::find(manual.begin(), manual.end(), a.name) != manual.end();
}
size_t firstFreeAxis(const AxisRefList& axes, const std::vector<std::string>& manual) {
  size_t i = 0;
  while (i < axes.size() && isManual(axes[i], manual)) ++i;
  return i;
}
}  // namespace

TensorSharding eraseManualAxes(const TensorSharding& s, const std::vector<std::string>& manual) {
  if (manual.empty()) return s;
  TensorSharding out = s;
  for (DimensionSharding& d : out.dims)
    d.axes.erase(d.axes.begin(), d.axes.begin() + static_cast<long>(firstFreeAxis(d.axes, manual)));
  auto dropManual = [&](AxisRefList& l) {
    l.erase(std::remove_if(l.begin(), l.end(), [&](const AxisRef& a) { return isManual(a, manual); }),
            l.end());
  };
  dropManual(out.replicated);
  dropManual(out.unreduced);
  return out;
}

TensorSharding addFreeAxes(const TensorSharding& outer, const TensorSharding& inner,
                           const std::vector<std::string>& manual) {
  TensorSharding out;
  out.mesh = inner.mesh;
  for (size_t d = 0; d < outer.dims.size(); ++d) {
    DimensionSharding dim;
    const AxisRefList& oa = outer.dims[d].axes;
    dim.axes.assign(oa.begin(), oa.begin() + static_cast<long>(firstFreeAxis(oa, manual)));
    if (d < inner.dims.size()) {
      dim.axes.insert(dim.axes.end(), inner.dims[d].axes.begin(), inner.dims[d].axes.end());
      dim.closed = inner.dims[d].closed;
      dim.priority = inner.dims[d].priority;
    } else {
      dim.closed = outer.dims[d].closed;
    }
    out.dims.push_back(std::move(dim));
  }
  out.replicated = outer.replicated;
  out.unreduced = outer.unreduced;
  out.unreducedReduction = outer.unreducedReduction;
  return out;
}

ir::Value* shardableValue(ir::Value* v) {
  if (ir::Op* edge = lookupEdgeOfTarget(v)) return edge->result(0);
  if (!v->isBlockArgument()) return v;
  ir::Op* owner = owningOp(v);
  if (!owner) return nullptr;
  if (SS_OP_IS(*owner, "func.func")) return v;
  if (isDataFlowOp(*owner)) return edgeOwnerFromTarget(v);
  return nullptr;
}

std::optional<TensorSharding> getSharding(ir::Value* v) {
  v = shardableValue(v);
  if (!v) return std::nullopt;
  ir::Op* op = owningOp(v);
  if (!op) return std::nullopt;
  if (v->isBlockArgument()) {
    if (SS_OP_IS(*op, "func.func")) return shardingInList(*op, "arg_attrs", v->index);
    if (SS_OP_IS(*op, "sdy.manual_computation")) {
      auto s = ir::valueShardingIn(op->attr(kInShardingsName), v->index);
      if (s) return eraseManualAxes(*s, manualAxesOf(*op));
      return std::nullopt;
    }
    if (SS_OP_IS(*op, "sdy.named_computation")) return ir::valueShardingIn(op->attr(kInShardingsName), v->index);
    return std::nullopt;
  }
  if (SS_OP_IS(*op, "sdy.data_flow_edge") || SS_OP_IS(*op, "sdy.sharding_constraint") || SS_OP_IS(*op, "sdy.reshard"))
    return ir::valueShardingIn(op->attr(kSingleShardingName), 0);
  if (isCollectiveWithOutSharding(*op)) return ir::valueShardingIn(op->attr(kOutShardingName), 0);
  if (SS_OP_IS(*op, "sdy.manual_computation") || SS_OP_IS(*op, "sdy.named_computation"))
    return ir::valueShardingIn(op->attr(kOutShardingsName), v->index);
  return ir::valueShardingIn(op->attr(kShardingAttrName), v->index);
}

namespace {

const TensorSharding* perValueRef(const ir::Attribute* a, unsigned index, std::optional<ir::Attribute>& keep) {
  if (!a) return nullptr;
  if (const auto* pv = a->as<TensorShardingPerValue>()) {
    if (index >= pv->shardings.size()) return nullptr;
    keep = *a;
    return &pv->shardings[index];
  }
  if (const auto* ts = a->as<TensorSharding>()) {
    if (index != 0) return nullptr;
    keep = *a;
    return ts;
  }
  return nullptr;
}

const TensorSharding* ownedRef(std::optional<TensorSharding> s, std::optional<ir::Attribute>& keep) {
  if (!s) return nullptr;
  keep = ir::Attribute(std::move(*s));
  return keep->as<TensorSharding>();
}

}  // namespace

const TensorSharding* getShardingRef(ir::Value* v, std::optional<ir::Attribute>& keep) {
  keep.reset();
  ir::Value* sv = shardableValue(v);
  if (!sv) return nullptr;
  ir::Op* op = owningOp(sv);
  if (!op) return nullptr;
  if (sv->isBlockArgument()) {
    if (SS_OP_IS(*op, "func.func")) {
      if (const ir::Attribute* side = sideLookup(*op, "arg_attrs", sv->index)) {
        const auto* ts = side->as<TensorSharding>();
        if (!ts) return nullptr;
        keep = *side;
        return ts;
      }
      const ir::Attribute* list = op->attr("arg_attrs");
      const ir::ArrayAttr* arr = list ? list->array() : nullptr;
      if (!arr || sv->index >= arr->elems.size()) return nullptr;
      const ir::DictionaryAttr* dict = arr->elems[sv->index].dict();
      const ir::Attribute* s = dict ? dict->get(kShardingAttr) : nullptr;
      const auto* ts = s ? s->as<TensorSharding>() : nullptr;
      if (!ts) return nullptr;
      keep = *s;
      return ts;
    }
    if (SS_OP_IS(*op, "sdy.named_computation")) return perValueRef(op->attr(kInShardingsName), sv->index, keep);
    return ownedRef(getSharding(v), keep);
  }
  if (SS_OP_IS(*op, "sdy.data_flow_edge") || SS_OP_IS(*op, "sdy.sharding_constraint") || SS_OP_IS(*op, "sdy.reshard"))
    return perValueRef(op->attr(kSingleShardingName), 0, keep);
  if (isCollectiveWithOutSharding(*op)) return perValueRef(op->attr(kOutShardingName), 0, keep);
  if (SS_OP_IS(*op, "sdy.manual_computation") || SS_OP_IS(*op, "sdy.named_computation"))
    return perValueRef(op->attr(kOutShardingsName), sv->index, keep);
  return perValueRef(op->attr(kShardingAttrName), sv->index, keep);
}

void setSharding(ir::Value* v, const TensorSharding& s) {
  v = shardableValue(v);
  if (!v) return;
  ir::Op* op = owningOp(v);
  if (!op) return;
  if (v->isBlockArgument()) {
    if (SS_OP_IS(*op, "func.func")) {
      setShardingInList(*op, "arg_attrs", v->index, v->ownerBlock->numArguments(), s);
    } else if (SS_OP_IS(*op, "sdy.manual_computation")) {
      std::vector<TensorSharding> list = perValueList(op->attr("in_shardings"));
      if (v->index < list.size()) {
        list[v->index] = addFreeAxes(list[v->index], s, manualAxesOf(*op));
        op->setAttr("in_shardings", ir::Attribute(TensorShardingPerValue{list}), true);
      }
    } else if (SS_OP_IS(*op, "sdy.named_computation")) {
      ir::Block* block = v->ownerBlock;
      setPerValue(*op, kInShardingsName, v->index, s, block->numArguments(),
                  [block](size_t i) { return block->argument(static_cast<unsigned>(i)); }, true);
    }
    return;
  }
  if (SS_OP_IS(*op, "sdy.data_flow_edge") || SS_OP_IS(*op, "sdy.sharding_constraint") || SS_OP_IS(*op, "sdy.reshard")) {
    op->setAttr(kSingleShardingName, ir::Attribute(s), true);
  } else if (isCollectiveWithOutSharding(*op)) {
    op->setAttr(kOutShardingName, ir::Attribute(s), true);
  } else if (SS_OP_IS(*op, "sdy.manual_computation") || SS_OP_IS(*op, "sdy.named_computation")) {
    setPerValue(*op, kOutShardingsName, v->index, s, op->numResults(),
                [op](size_t i) { return op->result(static_cast<unsigned>(i)); }, true);
  } else {
    setPerValue(*op, kShardingAttrName, v->index, s, op->numResults(),
                [op](size_t i) { return op->result(static_cast<unsigned>(i)); }, false);
  }
}

std::optional<TensorSharding> funcResultSharding(const ir::Op& func, unsigned i) {
  return shardingInList(func, "res_attrs", i);
}
void setFuncResultSharding(ir::Op& func, unsigned i, const TensorSharding& s) {
  setShardingInList(func, "res_attrs", i, funcNumResults(func), s);
}
std::optional<TensorSharding> funcArgSharding(const ir::Op& func, unsigned i) {
  return shardingInList(func, "arg_attrs", i);
}
void setFuncArgSharding(ir::Op& func, unsigned i, const TensorSharding& s) {
  unsigned n = func.numRegions() && !func.region(0).empty() ? func.region(0).front().numArguments() : i + 1;
  setShardingInList(func, "arg_attrs", i, n, s);
}

void beginDeferredFuncShardings() { ++sideTable().depth; }

void endDeferredFuncShardings() {
  SideTable& t = sideTable();
  if (t.depth == 0 || --t.depth > 0) return;
  sharedPerValues().clear();
  std::unordered_map<const ir::Op*, FuncSide> funcs;
  funcs.swap(t.funcs);
  for (auto& [op, f] : funcs)
    for (int li = 0; li < 2; ++li)
      if (!f.lists[li].empty())
        writeShardingsInList(const_cast<ir::Op&>(*op), li == 0 ? "arg_attrs" : "res_attrs", f.counts[li],
                             f.lists[li]);
}

ir::Op* funcReturn(const ir::Op& func) {
  if (func.numRegions() == 0 || func.region(0).empty()) return nullptr;
  return func.region(0).front().terminator();
}

unsigned funcNumResults(const ir::Op& func) {
  unsigned n = 0;
  if (ir::Op* ret = funcReturn(func)) n = ret->numOperands();
  if (const ir::Attribute* a = func.attr("res_attrs"))
    if (const ir::ArrayAttr* arr = a->array()) n = std::max<unsigned>(n, static_cast<unsigned>(arr->elems.size()));
  return n;
}

std::string symbolName(const ir::Op& op) {
  if (const ir::Attribute* a = op.attr("sym_name")) {
    if (const std::string* s = a->string()) return *s;
    if (const auto* r = a->as<ir::SymbolRefAttr>()) return r->path.empty() ? std::string() : r->root();
  }
  return {};
}

TensorSharding fullyReplicated(const MeshRef& mesh, int64_t rank, bool closed) {
  TensorSharding s;
  s.mesh = mesh;
  for (int64_t i = 0; i < rank; ++i) {
    DimensionSharding d;
    d.closed = closed;
    s.dims.push_back(d);
  }
  return s;
}

bool hasNoAxes(const TensorSharding& s) {
  if (!s.replicated.empty() || !s.unreduced.empty()) return false;
  for (const DimensionSharding& d : s.dims)
    if (!d.axes.empty()) return false;
  return true;
}

int64_t rankOf(const ir::Type& t) { return t.isRankedTensor() ? t.rank() : 0; }

}  // namespace shardscope::propagation
