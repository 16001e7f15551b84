#include "passes/pass_utils.h"

#include <algorithm>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "ir/collective_ops.h"
#include "propagation/op_name.h"

namespace shardscope::passes::util {

using ir::Attribute;
using ir::Op;
using ir::Value;

// ---- Op kinds ---------------------------------------------------------------

namespace {
// Op names are interned (one string per name for the process): a test that
// depends on the name alone is answered once per name, cached by address.
template <typename Test>
bool byName(const Op& op, std::unordered_map<const std::string*, bool>& cache, const Test& test) {
  const std::string* name = &op.name();
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, test(*name)).first;
  return it->second;
}
}  // namespace

bool isFuncOp(const Op& op) { return op.is("func.func"); }
// (SS_OP_IS compares the interned name's address: these are asked for every
// op by several passes.)
bool isCallOp(const Op& op) { return SS_OP_IS(op, "func.call") || SS_OP_IS(op, "call"); }
bool isReturnOp(const Op& op) { return SS_OP_IS(op, "func.return") || SS_OP_IS(op, "return"); }

bool isTerminator(const Op& op) {
  static const std::set<std::string> kNames = {"func.return", "return", "stablehlo.return",
                                               "sdy.return", "mhlo.return"};
  static thread_local std::unordered_map<const std::string*, bool> cache;
  return byName(op, cache, [](const std::string& n) { return kNames.count(n) != 0; });
}

namespace {
const std::set<std::string>& shardableDataFlowOpNames() {
  static const std::set<std::string> kNames = {"stablehlo.while", "stablehlo.case",
                                               "stablehlo.optimization_barrier",
                                               "sdy.manual_computation", "sdy.named_computation"};
  return kNames;
}
}  // namespace

bool isShardableDataFlowOp(const Op& op) {
  static thread_local std::unordered_map<const std::string*, bool> cache;
  return byName(op, cache, [](const std::string& n) { return shardableDataFlowOpNames().count(n) != 0; });
}

bool mayHaveCalls() { return Op::anyLive("func.call") || Op::anyLive("call"); }

bool mayHaveShardableDataFlowOps() {
  for (const std::string& name : shardableDataFlowOpNames())
    if (Op::anyLive(name)) return true;
  return false;
}

bool isElementwise(const Op& op) {
  static const std::set<std::string> kNames = {
      "abs", "add", "and", "atan2", "cbrt", "ceil", "clamp", "compare", "complex", "convert",
      "cosine", "count_leading_zeros", "divide", "exponential", "exponential_minus_one", "floor",
      "imag", "is_finite", "log", "log_plus_one", "logistic", "maximum", "minimum", "multiply",
      "negate", "not", "or", "popcnt", "power", "real", "reduce_precision", "remainder",
      "round_nearest_afz", "round_nearest_even", "rsqrt", "select", "shift_left",
      "shift_right_arithmetic", "shift_right_logical", "sign", "sine", "sqrt", "subtract", "tan",
      "tanh", "xor"};
  if (SS_OP_IS(op, "sdy.propagation_barrier") || SS_OP_IS(op, "sdy.sharding_constraint") ||
      SS_OP_IS(op, "sdy.reshard"))
    return true;
  if (SS_OP_IS(op, "stablehlo.bitcast_convert")) {
    return op.numOperands() == 1 && op.numResults() == 1 &&
           op.operand(0)->type->shape == op.result(0)->type->shape;
  }
  static thread_local std::unordered_map<const std::string*, bool> cache;
  return byName(op, cache, [](const std::string& n) {
    if (n.rfind("stablehlo.", 0) != 0) return false;
    return kNames.count(n.substr(10)) != 0;
  });
}

bool isPure(const Op& op) {
  return !SS_OP_IS(op, "sdy.sharding_constraint") && !SS_OP_IS(op, "stablehlo.custom_call") &&
         !SS_OP_IS(op, "sdy.sharding_group") && !SS_OP_IS(op, "sdy.data_flow_edge");
}

std::string calleeOf(const Op& call) {
  const Attribute* a = call.attr("callee");
  if (!a) return "";
  if (auto* ref = a->as<ir::SymbolRefAttr>(); ref && !ref->path.empty()) return ref->root();
  if (const std::string* s = a->string()) return *s;
  return "";
}

void setCallee(Op& call, const std::string& name) {
  const Op::Attr* existing = nullptr;
  for (const Op::Attr& a : call.attrs())
    if (a.name == "callee") existing = &a;
  bool inherent = existing ? existing->inherent : true;
  call.setAttr("callee", ir::SymbolRefAttr{{name}}, inherent);
}

std::string symNameOf(const Op& op) {
  const Attribute* a = op.attr("sym_name");
  if (a && a->string()) return *a->string();
  return "";
}

// ---- Types ------------------------------------------------------------------

bool isScalar(const Value* v) {
  return v && v->type->isRankedTensor() && v->type->rank() == 0;
}

bool isStaticShaped(const ir::Type& t) { return t.isRankedTensor() && t.hasStaticShape(); }

int64_t rankOf(const Value* v) { return v && v->type->isRankedTensor() ? v->type->rank() : 0; }

// ---- Shardings on values ----------------------------------------------------

std::vector<std::string> manualAxesOf(const Op& mc) {
  const Attribute* a = mc.attr("manual_axes");
  if (a) {
    if (auto* m = a->as<ir::ManualAxesAttr>()) return m->axes;
  }
  return {};
}

static std::vector<TensorSharding> perValue(const Op& op, const char* name) {
  const Attribute* a = op.attr(name);
  if (a) {
    if (auto* p = a->as<TensorShardingPerValue>()) return p->shardings;
  }
  return {};
}

static bool isInherentAttr(const Op& op, const std::string& name, bool fallback) {
  for (const Op::Attr& a : op.attrs())
    if (a.name == name) return a.inherent;
  return fallback;
}

std::vector<TensorSharding> inShardingsOf(const Op& op) { return perValue(op, "in_shardings"); }
std::vector<TensorSharding> outShardingsOf(const Op& op) { return perValue(op, "out_shardings"); }

void setInShardings(Op& op, const std::vector<TensorSharding>& s) {
  op.setAttr("in_shardings", TensorShardingPerValue{s}, isInherentAttr(op, "in_shardings", true));
}
void setOutShardings(Op& op, const std::vector<TensorSharding>& s) {
  op.setAttr("out_shardings", TensorShardingPerValue{s}, isInherentAttr(op, "out_shardings", true));
}

static bool isManual(const AxisRef& axis, const std::vector<std::string>& manualAxes) {
  return std::find(manualAxes.begin(), manualAxes.end(), axis.name) != manualAxes.end();
}

// Index of the first non-manual axis of `axes` (manual axes come first).
static size_t firstFreeAxis(const AxisRefList& axes, const std::vector<std::string>& manualAxes) {
  size_t i = 0;
  while (i < axes.size() && isManual(axes[i], manualAxes)) ++i;
  return i;
}

static AxisRefList freeAxesOnly(const AxisRefList& axes, const std::vector<std::string>& manualAxes) {
  AxisRefList out;
  for (const AxisRef& a : axes)
    if (!isManual(a, manualAxes)) out.push_back(a);
  return out;
}

TensorSharding eraseManualAxes(const TensorSharding& sharding,
                               const std::vector<std::string>& manualAxes) {
  if (manualAxes.empty()) return sharding;
  TensorSharding out = sharding;
  for (DimensionSharding& dim : out.dims) {
    size_t free = firstFreeAxis(dim.axes, manualAxes);
    dim.axes.erase(dim.axes.begin(), dim.axes.begin() + static_cast<long>(free));
  }
  out.replicated = freeAxesOnly(sharding.replicated, manualAxes);
  out.unreduced = freeAxesOnly(sharding.unreduced, manualAxes);
  return out;
}

TensorSharding addFreeAxesToManualSharding(const TensorSharding& outer,
                                           const TensorSharding& newSharding,
                                           const std::vector<std::string>& manualAxes) {
  TensorSharding out;
  out.mesh = newSharding.mesh;
  out.dims = outer.dims;
  for (size_t d = 0; d < out.dims.size(); ++d) {
    DimensionSharding& dim = out.dims[d];
    size_t free = firstFreeAxis(dim.axes, manualAxes);
    dim.axes.resize(free);
    if (d < newSharding.dims.size()) {
      const DimensionSharding& nd = newSharding.dims[d];
      dim.axes.insert(dim.axes.end(), nd.axes.begin(), nd.axes.end());
      dim.closed = nd.closed;
      dim.priority = nd.priority;
    }
  }
  // Replicated/unreduced axes of the outer sharding are kept as they are; the
  // reduction kind is not carried over (as in sdy).
  out.replicated = outer.replicated;
  out.unreduced = outer.unreduced;
  return out;
}

TensorSharding fullyOpen(const MeshRef& mesh, int64_t rank) {
  return TensorSharding::replicatedOf(mesh, rank, /*closed=*/false);
}

Op* owningOp(const Value* v) {
  if (!v) return nullptr;
  if (v->definingOp) return v->definingOp;
  return v->ownerBlock ? v->ownerBlock->parentOp() : nullptr;
}

std::vector<Value*> blockArgEdgeOwners(const Op& op) {
  if ((op.is("sdy.manual_computation") || op.is("sdy.named_computation")) && op.numRegions() > 0 &&
      !op.region(0).empty())
    return op.region(0).front().arguments();
  return {};
}

std::vector<Value*> resultEdgeOwners(const Op& op) {
  if (isShardableDataFlowOp(op)) return op.results();
  return {};
}

Value* edgeOwnerFromTarget(Value* target) {
  Op* owner = owningOp(target);
  if (!owner || !isShardableDataFlowOp(*owner)) return nullptr;
  if (target->definingOp) return target;  // results own their edges
  if (owner->is("stablehlo.while")) {
    if (target->index < owner->numResults()) return owner->result(target->index);
    return nullptr;
  }
  if (owner->is("sdy.manual_computation") || owner->is("sdy.named_computation")) return target;
  return nullptr;
}

Op* dataFlowEdgeUser(Value* owner) {
  if (!owner || !owner->hasOneUse()) return nullptr;
  Op* user = owner->uses().front().user;
  return user && user->is("sdy.data_flow_edge") ? user : nullptr;
}

Op* lookupDataFlowEdge(Value* v) {
  Value* owner = edgeOwnerFromTarget(v);
  return owner ? dataFlowEdgeUser(owner) : nullptr;
}

Value* shardableValue(Value* v) {
  if (!v) return nullptr;
  if (Op* edge = lookupDataFlowEdge(v)) return edge->result(0);
  if (v->definingOp) return v;
  Op* owner = owningOp(v);
  if (!owner) return nullptr;
  if (isFuncOp(*owner)) return v;
  if (isShardableDataFlowOp(*owner)) return edgeOwnerFromTarget(v);
  return nullptr;
}

namespace {

// Calls `fn` with the sharding of `v` and returns true, or returns false when
// `v` has none. Shardings stored as they are (an op's own, an edge's, a
// collective's) are passed without a copy; computed ones (a manual
// computation's body argument) as a temporary.
template <typename Fn>
bool visitSharding(Value* v, const Fn& fn) {
  auto pass = [&](const std::optional<TensorSharding>& s) {
    if (s) fn(*s);
    return s.has_value();
  };
  auto stored = [&](const Op& op, const char* name) {
    const Attribute* a = op.attr(name);
    const auto* s = a ? a->as<TensorSharding>() : nullptr;
    if (s) fn(*s);
    return s != nullptr;
  };
  v = shardableValue(v);
  if (!v) return false;
  Op* op = owningOp(v);
  if (!op) return false;
  if (v->isBlockArgument()) {
    if (isFuncOp(*op)) return pass(funcArgSharding(*op, v->index));
    if (op->is("sdy.manual_computation")) {
      auto in = inShardingsOf(*op);
      return v->index < in.size() && pass(eraseManualAxes(in[v->index], manualAxesOf(*op)));
    }
    if (op->is("sdy.named_computation")) {
      auto in = inShardingsOf(*op);
      return v->index < in.size() && pass(in[v->index]);
    }
    return false;
  }
  if (op->is("sdy.data_flow_edge") || op->is("sdy.sharding_constraint") || op->is("sdy.reshard"))
    return stored(*op, "sharding");
  // Collectives (sdy.all_gather, sdy.all_reduce, ...) carry their result's sharding.
  if (ir::isCollective(*op)) return stored(*op, ir::kOutShardingAttr);
  if (op->is("sdy.manual_computation") || op->is("sdy.named_computation")) {
    auto out = outShardingsOf(*op);
    return v->index < out.size() && pass(out[v->index]);
  }
  // The one sharding asked for, not a copy of the op's whole list. (The
  // name is interned once: this is asked for every value in several passes.)
  static const ir::AttrName kSharding(kShardingAttr);
  if (const Attribute* a = op->attr(kSharding))
    if (const auto* p = a->as<TensorShardingPerValue>(); p && v->index < p->shardings.size()) {
      fn(p->shardings[v->index]);
      return true;
    }
  return false;
}

}  // namespace

std::optional<TensorSharding> getSharding(Value* v) {
  std::optional<TensorSharding> out;
  visitSharding(v, [&](const TensorSharding& s) { out = s; });
  return out;
}

bool hasUnreducedAxes(Value* v) {
  bool any = false;
  visitSharding(v, [&](const TensorSharding& s) { any = !s.unreduced.empty(); });
  return any;
}

// Shardings for every value in `values`, open where missing, with `s` at `index`.
static std::vector<TensorSharding> openWithShardingAt(const std::vector<Value*>& values,
                                                      unsigned index, const TensorSharding& s) {
  std::vector<TensorSharding> out;
  for (unsigned i = 0; i < values.size(); ++i)
    out.push_back(i == index ? s : fullyOpen(s.mesh, rankOf(values[i])));
  return out;
}

void setSharding(Value* v, const TensorSharding& sharding) {
  v = shardableValue(v);
  if (!v) return;
  Op* op = owningOp(v);
  if (!op) return;
  if (v->isBlockArgument()) {
    if (isFuncOp(*op)) {
      setFuncArgSharding(*op, v->index, sharding);
    } else if (op->is("sdy.manual_computation")) {
      auto in = inShardingsOf(*op);
      if (v->index < in.size()) {
        in[v->index] = addFreeAxesToManualSharding(in[v->index], sharding, manualAxesOf(*op));
        setInShardings(*op, in);
      }
    } else if (op->is("sdy.named_computation")) {
      auto in = inShardingsOf(*op);
      if (in.empty()) in = openWithShardingAt(blockArgEdgeOwners(*op), v->index, sharding);
      else if (v->index < in.size()) in[v->index] = sharding;
      setInShardings(*op, in);
    }
    return;
  }
  if (op->is("sdy.data_flow_edge") || op->is("sdy.sharding_constraint") || op->is("sdy.reshard")) {
    op->setAttr("sharding", sharding, true);
    return;
  }
  if (ir::isCollective(*op)) {
    op->setAttr(ir::kOutShardingAttr, sharding, true);
    return;
  }
  if (op->is("sdy.manual_computation") || op->is("sdy.named_computation")) {
    auto out = outShardingsOf(*op);
    if (out.empty()) out = openWithShardingAt(op->results(), v->index, sharding);
    else if (v->index < out.size()) out[v->index] = sharding;
    setOutShardings(*op, out);
    return;
  }
  auto per = perValue(*op, kShardingAttr);
  if (per.size() != op->numResults()) per = openWithShardingAt(op->results(), v->index, sharding);
  else per[v->index] = sharding;
  op->setAttr(kShardingAttr, TensorShardingPerValue{per});
}

static std::optional<TensorSharding> dictSharding(const Op& func, const char* attrName, unsigned i) {
  const Attribute* a = func.attr(attrName);
  if (!a) return std::nullopt;
  const ir::ArrayAttr* arr = a->array();
  if (!arr || i >= arr->elems.size()) return std::nullopt;
  const ir::DictionaryAttr* dict = arr->elems[i].dict();
  if (!dict) return std::nullopt;
  const Attribute* s = dict->get(kShardingAttr);
  if (!s) return std::nullopt;
  if (auto* ts = s->as<TensorSharding>()) return *ts;
  return std::nullopt;
}

unsigned numFuncResults(const Op& func) {
  if (const Attribute* ft = func.attr("function_type"))
    if (auto* t = ft->as<ir::TypeAttr>(); t && t->type.kind == ir::Type::Kind::Function)
      return static_cast<unsigned>(t->type.results.size());
  if (func.numRegions() > 0 && !func.region(0).empty()) {
    const Op* term = func.region(0).front().terminator();
    if (term && isReturnOp(*term)) return term->numOperands();
  }
  const Attribute* a = func.attr("res_attrs");
  if (a && a->array()) return static_cast<unsigned>(a->array()->elems.size());
  return 0;
}

static unsigned numFuncArgs(const Op& func) {
  if (const Attribute* ft = func.attr("function_type"))
    if (auto* t = ft->as<ir::TypeAttr>(); t && t->type.kind == ir::Type::Kind::Function)
      return static_cast<unsigned>(t->type.elements.size());
  if (func.numRegions() > 0 && !func.region(0).empty()) return func.region(0).front().numArguments();
  const Attribute* a = func.attr("arg_attrs");
  if (a && a->array()) return static_cast<unsigned>(a->array()->elems.size());
  return 0;
}

static void setDictSharding(Op& func, const char* attrName, unsigned count, unsigned i,
                            const TensorSharding& s) {
  const Attribute* a = func.attr(attrName);
  // Rewriting an unchanged entry would rebuild an identical array, which
  // costs the whole array for each argument of a function with thousands.
  if (a && a->array() && a->array()->elems.size() >= count && i < a->array()->elems.size())
    if (const ir::DictionaryAttr* d = a->array()->elems[i].dict())
      if (const Attribute* cur = d->get(kShardingAttr))
        if (const auto* ts = cur->as<TensorSharding>(); ts && *ts == s) return;
  std::vector<Attribute> elems;
  if (a && a->array()) elems = a->array()->elems;
  if (elems.size() < count) elems.resize(count, Attribute::makeDict({}));
  if (i >= elems.size()) elems.resize(i + 1, Attribute::makeDict({}));
  std::vector<ir::NamedAttribute> entries;
  if (const ir::DictionaryAttr* d = elems[i].dict()) entries = d->entries;
  bool found = false;
  for (auto& [name, value] : entries)
    if (name == kShardingAttr) {
      value = s;
      found = true;
    }
  if (!found) entries.emplace_back(kShardingAttr, s);
  elems[i] = Attribute::makeDict(std::move(entries));
  func.setAttr(attrName, Attribute::makeArray(std::move(elems)), isInherentAttr(func, attrName, true));
}

std::optional<TensorSharding> funcArgSharding(const Op& func, unsigned i) {
  return dictSharding(func, "arg_attrs", i);
}
std::optional<TensorSharding> funcResultSharding(const Op& func, unsigned i) {
  return dictSharding(func, "res_attrs", i);
}
void setFuncArgSharding(Op& func, unsigned i, const TensorSharding& s) {
  setDictSharding(func, "arg_attrs", numFuncArgs(func), i, s);
}
void setFuncResultSharding(Op& func, unsigned i, const TensorSharding& s) {
  setDictSharding(func, "res_attrs", numFuncResults(func), i, s);
}

// ---- Walking and rewriting shardings ----------------------------------------

bool transformShardingsIn(Attribute& attr, const ShardingRewrite& fn) {
  if (auto* s = attr.as<TensorSharding>()) {
    std::optional<TensorSharding> n = fn(*s);
    if (!n || *n == *s) return false;
    attr = Attribute(std::move(*n));
    return true;
  }
  // Copies are made only once something changes (fn is applied to the
  // same elements either way).
  if (auto* p = attr.as<TensorShardingPerValue>()) {
    std::optional<TensorShardingPerValue> n;
    for (size_t i = 0; i < p->shardings.size(); ++i) {
      std::optional<TensorSharding> t = fn(p->shardings[i]);
      if (t && !(*t == p->shardings[i])) {
        if (!n) n = *p;
        n->shardings[i] = std::move(*t);
      }
    }
    if (!n) return false;
    attr = Attribute(std::move(*n));
    return true;
  }
  if (const ir::ArrayAttr* arr = attr.array()) {
    std::optional<std::vector<Attribute>> elems;
    for (size_t i = 0; i < arr->elems.size(); ++i) {
      Attribute e = arr->elems[i];
      if (!transformShardingsIn(e, fn)) continue;  // false: `e` is untouched
      if (!elems) elems = arr->elems;
      (*elems)[i] = std::move(e);
    }
    if (!elems) return false;
    attr = Attribute::makeArray(std::move(*elems));
    return true;
  }
  if (const ir::DictionaryAttr* dict = attr.dict()) {
    std::optional<std::vector<ir::NamedAttribute>> entries;
    for (size_t i = 0; i < dict->entries.size(); ++i) {
      Attribute value = dict->entries[i].second;
      if (!transformShardingsIn(value, fn)) continue;
      if (!entries) entries = dict->entries;
      (*entries)[i].second = std::move(value);
    }
    if (!entries) return false;
    attr = Attribute::makeDict(std::move(*entries));
    return true;
  }
  return false;
}

namespace {
// Rewrites by input object. Shardings are shared between ops (propagation
// writes equal ones as one object), so each distinct object is rewritten once
// and the ops that shared it share the result as well. Inputs are held so
// that no address is reused by another object during the walk.
using RewriteMemo = std::unordered_map<const void*, std::pair<Attribute, std::optional<Attribute>>>;
}  // namespace

static void transformOpShardings(Op& op, const ShardingRewrite& fn, RewriteMemo& memo) {
  if (!isFuncOp(op)) {
    // In the attributes' order, without a list of their names: setAttr on an
    // existing name replaces its value in place.
    const auto& attrs = op.attrs();
    for (size_t i = 0; i < attrs.size(); ++i) {
      const std::string& name = attrs[i].name;
      bool seen = false;
      for (size_t j = 0; j < i && !seen; ++j) seen = attrs[j].name == name;
      if (seen) continue;
      const Attribute* a = op.attr(name);
      if (!a) continue;
      if (a->is<TensorSharding>() || a->is<TensorShardingPerValue>()) {
        auto it = memo.find(&a->value());
        if (it == memo.end()) {
          Attribute copy = *a;
          bool changed = transformShardingsIn(copy, fn);
          it = memo.emplace(&a->value(), std::make_pair(*a, changed ? std::optional<Attribute>(copy) : std::nullopt))
                   .first;
        }
        if (it->second.second) op.setAttr(name, *it->second.second, isInherentAttr(op, name, false));
        continue;
      }
      Attribute copy = *a;
      if (transformShardingsIn(copy, fn)) op.setAttr(name, copy, isInherentAttr(op, name, false));
    }
    return;
  }
  std::vector<std::string> order;
  order = {"arg_attrs", "res_attrs"};
  for (const Op::Attr& a : op.attrs())
    if (std::find(order.begin(), order.end(), a.name) == order.end()) order.push_back(a.name);
  for (const std::string& name : order) {
    const Attribute* a = op.attr(name);
    if (!a) continue;
    Attribute copy = *a;
    if (transformShardingsIn(copy, fn)) op.setAttr(name, copy, isInherentAttr(op, name, false));
  }
}

void transformShardings(ir::Module& module, const ShardingRewrite& fn) {
  RewriteMemo memo;
  for (auto& top : module.body().ops())
    top->walk([&](Op& op) { transformOpShardings(op, fn, memo); });
}

// ---- Structure --------------------------------------------------------------

std::unique_ptr<Op> cloneOp(const Op& op, ValueMap& map) {
  auto out = std::make_unique<Op>(op.name(), op.loc());
  out->setLocation(op.location());
  for (Value* v : op.operands()) {
    auto it = map.find(v);
    out->addOperand(it == map.end() ? v : it->second);
  }
  for (const Op::Attr& a : op.attrs()) out->setAttr(a.name, a.value, a.inherent);
  for (unsigned i = 0; i < op.numResults(); ++i) {
    Value* r = out->addResult(op.result(i)->type);
    r->sourceName = op.result(i)->sourceName;
    map[op.result(i)] = r;
  }
  for (const auto& region : op.regions()) {
    ir::Region& newRegion = out->addRegion();
    for (const auto& block : region->blocks()) {
      ir::Block& nb = newRegion.addBlock();
      for (unsigned i = 0; i < block->numArguments(); ++i) {
        Value* arg = nb.addArgument(block->argument(i)->type);
        arg->sourceName = block->argument(i)->sourceName;
        nb.setArgumentLocation(i, block->argumentLocation(i));
        map[block->argument(i)] = arg;
      }
    }
    // Second pass so that ops may refer to values of later blocks.
    for (size_t b = 0; b < region->blocks().size(); ++b) {
      ir::Block& nb = *newRegion.blocks()[b];
      for (const auto& inner : region->blocks()[b]->ops()) nb.append(cloneOp(*inner, map));
    }
  }
  return out;
}

void eraseOp(Op* op) {
  if (!op) return;
  ir::Block* block = op->parentBlock();
  if (block) block->erase(op);
}

bool isBeforeInBlock(const Op* a, const Op* b) {
  if (!a || !b || a->parentBlock() != b->parentBlock() || !a->parentBlock()) return false;
  for (const auto& op : a->parentBlock()->ops()) {
    if (op.get() == a) return a != b;
    if (op.get() == b) return false;
  }
  return false;
}

SymbolTable::SymbolTable(ir::Module& module) : module_(module) {
  for (auto& op : module_.body().ops())
    if (const Attribute* sym = op->attr("sym_name"); sym && sym->string())
      byName_.emplace(*sym->string(), op.get());  // the first of equal names, as lookupSymbol
}

Op* SymbolTable::lookup(const std::string& name) const {
  auto it = byName_.find(name);
  return it == byName_.end() ? nullptr : it->second;
}

Op* SymbolTable::lookupFunc(const std::string& name) const {
  Op* op = lookup(name);
  return op && isFuncOp(*op) ? op : nullptr;
}

std::string SymbolTable::uniqueName(Op& op) {
  std::string name = symNameOf(op);
  if (lookup(name)) {
    std::string candidate;
    do {
      candidate = name + "_" + std::to_string(counter_++);
    } while (lookup(candidate));
    name = candidate;
    op.setAttr("sym_name", ir::StringAttr{name}, isInherentAttr(op, "sym_name", true));
  }
  byName_.emplace(name, &op);
  return name;
}

std::string SymbolTable::insert(std::unique_ptr<Op> op, Op* after) {
  std::string name = uniqueName(*op);
  if (after)
    module_.body().insertAfter(after, std::move(op));
  else
    module_.body().append(std::move(op));
  return name;
}

std::string SymbolTable::insertFirst(std::unique_ptr<Op> op) {
  std::string name = uniqueName(*op);
  ir::Block& body = module_.body();
  body.insertBefore(body.empty() ? nullptr : body.ops().front().get(), std::move(op));
  return name;
}

void SymbolTable::erase(Op* op) {
  auto it = byName_.find(symNameOf(*op));
  if (it != byName_.end() && it->second == op) byName_.erase(it);
  eraseOp(op);
}

std::vector<Op*> funcsInPostOrder(ir::Module& module, bool rootsLastFirst) {
  std::vector<Op*> funcs;
  for (auto& op : module.body().ops())
    if (isFuncOp(*op) && op->numRegions() > 0 && !op->region(0).empty()) funcs.push_back(op.get());
  std::unordered_map<std::string, Op*> byName;
  for (Op* f : funcs) byName[symNameOf(*f)] = f;

  // Call edges in the order the calls appear (each callee once).
  std::unordered_map<Op*, std::vector<Op*>> callees;
  const bool anyCalls = mayHaveCalls();  // else no function calls another: no walks
  for (Op* f : funcs) {
    std::vector<Op*>& out = callees[f];
    if (!anyCalls) continue;
    f->walk([&](Op& op) {
      if (!isCallOp(op)) return;
      auto it = byName.find(calleeOf(op));
      if (it == byName.end()) return;
      if (std::find(out.begin(), out.end(), it->second) == out.end()) out.push_back(it->second);
    });
  }

  std::vector<Op*> order;
  std::unordered_set<Op*> visited;
  // Iterative DFS from the external caller, whose children are all functions.
  if (rootsLastFirst) std::reverse(funcs.begin(), funcs.end());
  for (Op* root : funcs) {
    if (visited.count(root)) continue;
    std::vector<std::pair<Op*, size_t>> stack;
    visited.insert(root);
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      const std::vector<Op*>& kids = callees[node];
      if (next < kids.size()) {
        Op* kid = kids[next++];
        if (!visited.count(kid)) {
          visited.insert(kid);
          stack.push_back({kid, 0});
        }
        continue;
      }
      order.push_back(node);
      stack.pop_back();
    }
  }
  return order;
}

void walkCalls(ir::Module& module, const std::function<void(Op& call)>& fn) {
  if (!mayHaveCalls()) return;
  for (Op* func : funcsInPostOrder(module)) {
    std::vector<Op*> calls;
    func->walk([&](Op& op) {
      if (isCallOp(op)) calls.push_back(&op);
    });
    for (Op* call : calls) fn(*call);
  }
}

std::string originalFuncName(const Op& func) {
  if (const Attribute* a = func.attr(kOriginalFuncNameAttr))
    if (const std::string* s = a->string()) return *s;
  return symNameOf(func);
}

std::unique_ptr<Op> cloneFuncRecursively(const Op& func, SymbolTable& symbols) {
  ValueMap map;
  std::unique_ptr<Op> clone = cloneOp(func, map);
  clone->setAttr(kOriginalFuncNameAttr, ir::StringAttr{originalFuncName(func)});
  std::vector<Op*> calls;
  clone->walk([&](Op& op) {
    if (isCallOp(op)) calls.push_back(&op);
  });
  for (Op* call : calls) {
    Op* callee = symbols.lookupFunc(calleeOf(*call));
    if (!callee) continue;
    setCallee(*call, symbols.insert(cloneFuncRecursively(*callee, symbols)));
  }
  return clone;
}

static const ir::Type* functionType(const Op& func) {
  if (const Attribute* ft = func.attr("function_type"))
    if (auto* t = ft->as<ir::TypeAttr>(); t && t->type.kind == ir::Type::Kind::Function) return &t->type;
  return nullptr;
}

std::vector<ir::Type> funcArgTypes(const Op& func) {
  if (const ir::Type* t = functionType(func)) return t->elements;
  std::vector<ir::Type> out;
  if (func.numRegions() && !func.region(0).empty())
    for (Value* a : func.region(0).front().arguments()) out.push_back(a->type);
  return out;
}

std::vector<ir::Type> funcResultTypes(const Op& func) {
  if (const ir::Type* t = functionType(func)) return t->results;
  std::vector<ir::Type> out;
  if (func.numRegions() && !func.region(0).empty())
    if (const Op* term = func.region(0).front().terminator())
      for (Value* v : term->operands()) out.push_back(v->type);
  return out;
}

static std::optional<std::vector<TensorSharding>> shardingsWithOpenDefaults(
    const ir::Module& module, const std::vector<std::optional<TensorSharding>>& found,
    const std::vector<ir::Type>& types) {
  std::optional<MeshRef> mesh;
  for (const auto& s : found) {
    if (!s) continue;
    const Mesh* m = module.meshOf(*s);
    if (m && m->isMaximal()) continue;
    mesh = s->mesh;
    break;
  }
  if (!mesh) return std::nullopt;
  std::vector<TensorSharding> out;
  for (size_t i = 0; i < found.size(); ++i) {
    int64_t rank = i < types.size() && types[i].isRankedTensor() ? types[i].rank() : 0;
    out.push_back(found[i] ? *found[i] : fullyOpen(*mesh, rank));
  }
  return out;
}

std::optional<std::vector<TensorSharding>> funcArgShardings(const ir::Module& module, const Op& func) {
  std::vector<ir::Type> types = funcArgTypes(func);
  std::vector<std::optional<TensorSharding>> found;
  for (unsigned i = 0; i < types.size(); ++i) found.push_back(funcArgSharding(func, i));
  return shardingsWithOpenDefaults(module, found, types);
}

std::optional<std::vector<TensorSharding>> funcResultShardings(const ir::Module& module, const Op& func) {
  std::vector<ir::Type> types = funcResultTypes(func);
  std::vector<std::optional<TensorSharding>> found;
  for (unsigned i = 0; i < types.size(); ++i) found.push_back(funcResultSharding(func, i));
  return shardingsWithOpenDefaults(module, found, types);
}

// Drops `sdy.sharding` from entry `i` of the `arg_attrs` / `res_attrs` array.
static void removeShardingFromAttrArray(Op& func, const char* arrayName, unsigned i) {
  const Attribute* a = func.attr(arrayName);
  if (!a || !a->array() || i >= a->array()->elems.size()) return;
  std::vector<Attribute> elems = a->array()->elems;
  const ir::DictionaryAttr* d = elems[i].dict();
  if (!d) return;
  std::vector<ir::NamedAttribute> entries;
  for (const auto& e : d->entries)
    if (e.first != kShardingAttr) entries.push_back(e);
  if (entries.size() == d->entries.size()) return;
  elems[i] = Attribute::makeDict(std::move(entries));
  func.setAttr(arrayName, Attribute::makeArray(std::move(elems)), isInherentAttr(func, arrayName, true));
}

void removeFuncResultSharding(Op& func, unsigned i) { removeShardingFromAttrArray(func, "res_attrs", i); }
void removeFuncArgSharding(Op& func, unsigned i) { removeShardingFromAttrArray(func, "arg_attrs", i); }

std::optional<std::vector<TensorSharding>> shardingPerValue(const Op& op) {
  if (const Attribute* a = op.attr(kShardingAttr))
    if (auto* p = a->as<TensorShardingPerValue>()) return p->shardings;
  return std::nullopt;
}

bool isEquivalent(const std::optional<TensorSharding>& a, const std::optional<TensorSharding>& b) {
  auto replicated = [](const std::optional<TensorSharding>& s) {
    if (!s) return true;
    if (!s->unreduced.empty()) return false;
    for (const DimensionSharding& d : s->dims)
      if (!d.axes.empty()) return false;
    return true;
  };
  if (replicated(a)) return replicated(b);
  if (!b) return false;
  if (!(a->mesh == b->mesh)) return false;
  if (a->unreduced != b->unreduced) return false;
  if (a->dims.size() != b->dims.size()) return false;
  for (size_t i = 0; i < a->dims.size(); ++i)
    if (a->dims[i].axes != b->dims[i].axes) return false;
  return true;
}

TensorSharding fullyClosedLike(const TensorSharding& s) {
  return TensorSharding::replicatedOf(s.mesh, s.rank(), /*closed=*/true);
}

Op* mainFunction(ir::Module& module) {
  std::vector<Op*> funcs = module.functions();
  if (funcs.size() == 1) return funcs.front();
  for (Op* f : funcs)
    if (symNameOf(*f) == "main") return f;
  return nullptr;
}

void moveBody(ir::Region& from, ir::Region& to) {
  ir::Block& nb = to.addBlock();
  if (from.empty()) return;
  ir::Block& old = from.front();
  for (Value* arg : old.arguments()) {
    Value* n = nb.addArgument(arg->type);
    n->sourceName = arg->sourceName;
    // MLIR moves the block itself: its arguments keep where they were written.
    n->loc = arg->loc;
    nb.setArgumentLocation(n->index, old.argumentLocation(arg->index));
    arg->replaceAllUsesWith(n);
  }
  while (!old.empty()) nb.append(old.take(old.ops().front().get()));
}

void addDataFlowEdgesFor(const std::vector<Value*>& owners) {
  for (auto it = owners.rbegin(); it != owners.rend(); ++it) {
    Value* owner = *it;
    if (!isStaticShaped(owner->type)) continue;
    Op* ownerOp = owningOp(owner);
    // The owner's sharding, asked before the edge uses it: an owner used
    // only by the new edge would otherwise be answered from the edge (none).
    const std::optional<TensorSharding> sharding = getSharding(owner);
    auto edge = std::make_unique<Op>("sdy.data_flow_edge", ownerOp ? ownerOp->loc() : ir::SourceLoc{});
    // Where the op came from (the Python line) is the value's.
    edge->setLocation(owner->isBlockArgument() ? owner->ownerBlock->argumentLocation(owner->index)
                                               : owner->definingOp->location());
    edge->addOperand(owner);
    edge->addResult(owner->type);
    if (sharding) edge->setAttr("sharding", *sharding, true);
    Op* inserted = nullptr;
    if (owner->definingOp) {
      inserted = owner->definingOp->parentBlock()->insertAfter(owner->definingOp, std::move(edge));
    } else {
      ir::Block* block = owner->ownerBlock;
      Op* first = block->empty() ? nullptr : block->ops().front().get();
      inserted = block->insertBefore(first, std::move(edge));
    }
    Value* result = inserted->result(0);
    owner->replaceUsesWithIf(result, [&](const ir::Use& use) { return use.user != inserted; });
  }
}

std::vector<TensorSharding> shardingsFromEdges(const std::vector<ir::Value*>& owners) {
  std::vector<std::optional<TensorSharding>> found;
  std::optional<MeshRef> mesh;
  for (ir::Value* owner : owners) {
    std::optional<TensorSharding> s;
    if (ir::Op* edge = dataFlowEdgeUser(owner)) {
      if (const ir::Attribute* a = edge->attr("sharding"))
        if (auto* ts = a->as<TensorSharding>()) s = *ts;
      if (s && !mesh) mesh = s->mesh;
    }
    found.push_back(s);
  }
  if (!mesh) return {};
  std::vector<TensorSharding> out;
  for (size_t i = 0; i < owners.size(); ++i)
    out.push_back(found[i] ? *found[i] : fullyOpen(*mesh, rankOf(owners[i])));
  return out;
}

}  // namespace shardscope::passes::util
