// User-priority propagation (see user_priority_propagation.h).
#include "propagation/user_priority_propagation.h"

#include <algorithm>
#include <map>

#include "propagation/op_priority_propagation.h"
#include "propagation/value_shardings.h"

namespace shardscope::propagation {

namespace {

// A place holding a sharding: a value, or result `resNum` of a function.
struct ShardingPlace {
  static ShardingPlace ofValue(ir::Value* v) {
    ShardingPlace p;
    p.value = v;
    return p;
  }
  static ShardingPlace ofFuncResult(ir::Op* func, unsigned i) {
    ShardingPlace p;
    p.func = func;
    p.resNum = i;
    return p;
  }
  ir::Value* value = nullptr;
  ir::Op* func = nullptr;
  unsigned resNum = 0;
  // For manual computation in/out shardings and data-flow op owners read
  // directly from the op's attribute.
  ir::Op* attrOp = nullptr;
  std::string attrName;
  unsigned attrIndex = 0;
};

std::optional<TensorSharding> readPlace(const ShardingPlace& p) {
  if (p.attrOp) {
    const ir::Attribute* a = p.attrOp->attr(p.attrName);
    if (!a) return std::nullopt;
    if (const auto* pv = a->as<TensorShardingPerValue>())
      if (p.attrIndex < pv->shardings.size()) return pv->shardings[p.attrIndex];
    return std::nullopt;
  }
  if (p.func) return funcResultSharding(*p.func, p.resNum);
  return getSharding(p.value);
}

void writePlace(const ShardingPlace& p, const TensorSharding& s) {
  if (p.attrOp) {
    const ir::Attribute* a = p.attrOp->attr(p.attrName);
    if (!a) return;
    const auto* pv = a->as<TensorShardingPerValue>();
    if (!pv || p.attrIndex >= pv->shardings.size()) return;
    TensorShardingPerValue copy = *pv;
    copy.shardings[p.attrIndex] = s;
    bool inherent = false;
    for (const auto& at : p.attrOp->attrs())
      if (at.name == p.attrName) inherent = at.inherent;
    p.attrOp->setAttr(p.attrName, ir::Attribute(copy), inherent);
    return;
  }
  if (p.func) {
    setFuncResultSharding(*p.func, p.resNum, s);
    return;
  }
  setSharding(p.value, s);
}

int64_t priorityOf(const DimensionSharding& d) { return d.priority.value_or(0); }

struct AxisKey {
  int index;
  int64_t pre;
  int64_t size;
  auto operator<=>(const AxisKey&) const = default;
};

// Orders replicated axes as the mesh lists them (sub-axes by pre-size).
struct ReplicatedOrder {
  const Mesh& mesh;
  AxisKey key(const AxisRef& a) const {
    return AxisKey{mesh.axisIndex(a.name), a.subAxis ? a.subAxis->preSize : 1,
                   a.subAxis ? a.subAxis->size : mesh.axisSize(a.name)};
  }
  bool operator()(const AxisRef& a, const AxisRef& b) const { return key(a) < key(b); }
};

TensorSharding initialized(const TensorSharding& original, const Mesh* mesh) {
  TensorSharding s = original;
  for (DimensionSharding& d : s.dims) {
    if (priorityOf(d) == 0) {
      d.priority.reset();
      continue;
    }
    s.replicated.insert(s.replicated.end(), d.axes.begin(), d.axes.end());
    d = DimensionSharding{};
    d.closed = true;
  }
  if (mesh) std::stable_sort(s.replicated.begin(), s.replicated.end(), ReplicatedOrder{*mesh});
  return s;
}

// Whether initialized(s, mesh) is `s` itself and `s` has no priority to
// record: no dimension names a priority (not even p0, which initialized()
// drops) and the replicated axes are in order already. Most shardings of a
// module are so; the check needs no copy of the sharding.
bool untouchedByPriorities(const TensorSharding& s, const Mesh* mesh) {
  for (const DimensionSharding& d : s.dims)
    if (d.priority) return false;
  return !mesh || std::is_sorted(s.replicated.begin(), s.replicated.end(), ReplicatedOrder{*mesh});
}

TensorSharding restored(const TensorSharding& current, const TensorSharding& original, int64_t priority) {
  TensorSharding s = current;
  AxisRefList seen;
  for (size_t i = 0; i < s.dims.size() && i < original.dims.size(); ++i) {
    if (priorityOf(original.dims[i]) != priority) continue;
    s.dims[i] = original.dims[i];
    s.dims[i].priority.reset();
    seen.insert(seen.end(), original.dims[i].axes.begin(), original.dims[i].axes.end());
  }
  AxisRefList kept;
  for (const AxisRef& a : s.replicated)
    if (std::find(seen.begin(), seen.end(), a) == seen.end()) kept.push_back(a);
  s.replicated = kept;
  return s;
}

// How many shardings the op's TensorShardingPerValue attribute `name` holds
// (0 when it has none). Read before visiting the places: `fn` below may
// replace the attribute (Op::setAttr frees the old one), so no pointer into
// it may be held across a call of `fn`.
size_t numShardingsIn(const ir::Op& op, const ir::AttrName& name) {
  const ir::Attribute* a = op.attr(name);
  const auto* pv = a ? a->as<TensorShardingPerValue>() : nullptr;
  return pv ? pv->shardings.size() : 0;
}

// Calls `fn` on every sharding place of the module, in the order sdy's
// sharding walker visits them. (A callback rather than a list: a list holds
// a place per value, and on a large module building it costs more than the
// visit.) `fn` may rewrite the place's sharding (replacing the attribute
// that holds it), not the module's ops.
template <typename Fn>
void forEachPlace(ir::Module& module, const Fn& fn) {
  for (auto& top : module.body().ops()) {
    top->walkPreOrder([&](ir::Op& op) {
      if (op.is("func.func")) {
        if (op.numRegions() && !op.region(0).empty())
          for (ir::Value* arg : op.region(0).front().arguments()) fn(ShardingPlace::ofValue(arg));
        for (unsigned i = 0; i < funcNumResults(op); ++i) fn(ShardingPlace::ofFuncResult(&op, i));
        return true;
      }
      if (op.is("sdy.manual_computation")) {
        for (const char* name : {"in_shardings", "out_shardings"}) {
          const size_t count = numShardingsIn(op, name);
          bool in = std::string(name) == "in_shardings";
          for (unsigned i = 0; i < count; ++i) {
            ShardingPlace p;
            p.attrOp = &op;
            p.attrName = name;
            p.attrIndex = i;
            if (in && op.numRegions() && !op.region(0).empty() && i < op.region(0).front().numArguments())
              p.value = op.region(0).front().argument(i);
            else if (!in && i < op.numResults())
              p.value = op.result(i);
            fn(p);
          }
        }
        return true;
      }
      if (isDataFlowOp(op)) {
        if (op.is("sdy.named_computation")) {
          const size_t count = numShardingsIn(op, "in_shardings");
          if (op.numRegions() && !op.region(0).empty())
            for (unsigned i = 0; i < count; ++i) {
              ShardingPlace p;
              p.attrOp = &op;
              p.attrName = "in_shardings";
              p.attrIndex = i;
              if (i < op.region(0).front().numArguments()) p.value = op.region(0).front().argument(i);
              fn(p);
            }
        }
        const char* resName = op.is("sdy.named_computation") ? "out_shardings" : kShardingAttr;
        const size_t count = numShardingsIn(op, resName);
        for (unsigned i = 0; i < count; ++i) {
          ShardingPlace p;
          p.attrOp = &op;
          p.attrName = resName;
          p.attrIndex = i;
          if (i < op.numResults()) p.value = op.result(i);
          fn(p);
        }
        return true;
      }
      if (op.numResults() == 1) {
        fn(ShardingPlace::ofValue(op.result(0)));
      } else if (op.numResults() > 1) {
        const size_t count =
            std::min<size_t>(numShardingsIn(op, kShardingAttrName), op.numResults());
        for (unsigned i = 0; i < count; ++i) {
          ShardingPlace p;
          p.attrOp = &op;
          p.attrName = kShardingAttr;
          p.attrIndex = i;
          p.value = op.result(i);
          fn(p);
        }
      }
      return true;
    });
  }
}

}  // namespace

bool runUserPriority(PropagationDriver& driver, const GetDirectionFn& direction) {
  ir::Module& module = driver.module();
  std::map<int64_t, std::vector<std::pair<ShardingPlace, TensorSharding>>> byPriority;
  forEachPlace(module, [&](const ShardingPlace& place) {
    if (place.value && lookupEdgeOfTarget(place.value)) return;
    if (place.value && !place.attrOp && !place.func) {
      // A value's sharding, read in place (readPlace copies it) for the
      // common case that there is nothing to do with it.
      std::optional<ir::Attribute> keep;
      const TensorSharding* ref = getShardingRef(place.value, keep);
      if (!ref || untouchedByPriorities(*ref, module.meshOf(*ref))) return;
    }
    std::optional<TensorSharding> s = readPlace(place);
    if (!s) return;
    for (const DimensionSharding& d : s->dims) {
      int64_t p = priorityOf(d);
      if (p <= 0) continue;
      auto& refs = byPriority[p];
      if (refs.empty() || !(refs.back().first.value == place.value && refs.back().first.func == place.func &&
                            refs.back().first.resNum == place.resNum && refs.back().first.attrOp == place.attrOp &&
                            refs.back().first.attrIndex == place.attrIndex &&
                            refs.back().first.attrName == place.attrName))
        refs.push_back({place, *s});
    }
    TensorSharding init = initialized(*s, module.meshOf(*s));
    if (!(init == *s)) writePlace(place, init);
  });
  bool ok = runOpPriority(driver, direction, RunLabel{0, -1});
  int64_t finished = 0;
  for (auto& [priority, refs] : byPriority) {
    if (driver.options().beforeNextPriority) driver.options().beforeNextPriority(finished);
    finished = priority;
    for (auto& [place, original] : refs) {
      std::optional<TensorSharding> cur = readPlace(place);
      if (!cur) continue;
      writePlace(place, restored(*cur, original, priority));
    }
    ok = runOpPriority(driver, direction, RunLabel{priority, -1}) && ok;
  }
  return ok;
}

}  // namespace shardscope::propagation
