// The fixed-point propagation driver (see propagation_driver.h).
//
// Termination. Every op step that reports a change has expanded at least one
// factor of one tensor from its axes to a strict extension of them (see
// TensorFactorShardings::expandAxes); projecting back, the value's
// dimension shardings only ever gain axes at their minor end, never lose
// them. A dimension can hold at most as many (sub-)axes as the mesh has
// prime factors, so each value can change only finitely often, and every
// pop that changes nothing queues nothing. Sharding groups keep their
// members equal (synced once, then every change is copied to all), so they
// do not break monotonicity. The worklist therefore empties; the step guard
// below only turns a bug into a diagnostic instead of a hang.
#include "propagation/op_name.h"
#include "propagation/propagation_driver.h"

#include <algorithm>
#include <atomic>
#include <set>
#include <unordered_set>

#include "ir/call_graph.h"
#include "propagation/axis_algebra.h"
#include "propagation/factor_agreement.h"
#include "propagation/op_sharding_rule_cache.h"
#include "propagation/value_shardings.h"
#include "rules/op_sharding_rule_registry.h"

namespace shardscope::propagation {

PropagationDirection propagateAny(const ir::Op&, int64_t, const OpShardingRule*) {
  return PropagationDirection::Both;
}

OpShardingRule identityRule(const ir::Type& type, size_t numOperands) {
  OpShardingRule rule;
  TensorFactorMapping mapping;
  if (type.isRankedTensor()) {
    for (int64_t d = 0; d < type.rank(); ++d) {
      rule.factorSizes.push_back(type.shape[d]);
      mapping.dims.push_back({d});
    }
  }
  rule.operands.assign(numOperands, mapping);
  rule.results.push_back(mapping);
  return rule;
}

namespace {
const std::set<std::string>& elementwiseNames() {
  static const std::set<std::string> kElementwise = {
      "stablehlo.abs", "stablehlo.add", "stablehlo.and", "stablehlo.atan2", "stablehlo.cbrt",
      "stablehlo.ceil", "stablehlo.clz", "stablehlo.compare", "stablehlo.complex",
      "stablehlo.convert", "stablehlo.cosine", "stablehlo.divide", "stablehlo.exponential",
      "stablehlo.exponential_minus_one", "stablehlo.floor", "stablehlo.imag",
      "stablehlo.is_finite", "stablehlo.log", "stablehlo.log_plus_one", "stablehlo.logistic",
      "stablehlo.maximum", "stablehlo.minimum", "stablehlo.multiply", "stablehlo.negate",
      "stablehlo.not", "stablehlo.or", "stablehlo.popcnt", "stablehlo.power", "stablehlo.real",
      "stablehlo.reduce_precision", "stablehlo.remainder", "stablehlo.round_nearest_even",
      "stablehlo.round_nearest_afz", "stablehlo.rsqrt", "stablehlo.shift_left",
      "stablehlo.shift_right_arithmetic", "stablehlo.shift_right_logical", "stablehlo.sign",
      "stablehlo.sine", "stablehlo.sqrt", "stablehlo.subtract", "stablehlo.tan",
      "stablehlo.tanh", "stablehlo.xor", "stablehlo.select", "stablehlo.clamp",
      "sdy.propagation_barrier", "sdy.sharding_constraint", "sdy.reshard"};
  return kElementwise;
}
}  // namespace

bool isElementwiseOp(const ir::Op& op) {
  // Op names are interned (one string per name for the process), so the
  // answer for a name is cached by its address: this is asked for every
  // factor of every op visit. The name asked last is checked first: the
  // same op is often asked about several times in a row.
  static thread_local std::unordered_map<const std::string*, bool> cache;
  static thread_local const std::string* lastName = nullptr;
  static thread_local bool lastAnswer = false;
  const std::string* name = &op.name();
  if (name != lastName) {
    auto it = cache.find(name);
    if (it == cache.end()) it = cache.emplace(name, elementwiseNames().count(*name) != 0).first;
    lastName = name;
    lastAnswer = it->second;
  }
  if (lastAnswer) return true;
  static const std::string* const kBitcastConvert = &ir::Op::internOpName("stablehlo.bitcast_convert");
  if (name == kBitcastConvert && op.numOperands() == 1 && op.numResults() == 1)
    return op.operand(0)->type->shape == op.result(0)->type->shape;
  return false;
}

namespace {

// A tensor taking part in one op-level propagation.
struct Slot {
  ir::Value* value = nullptr;  // the operand/result value (return value for function results)
  // The current sharding (nullptr: none), pointing into `keep`, which holds
  // the attribute it lives in alive even when the value's storage is
  // replaced during the step.
  const TensorSharding* sharding = nullptr;
  std::optional<ir::Attribute> keep;
  void own(std::optional<TensorSharding> s) {
    if (!s) {
      sharding = nullptr;
      keep.reset();
      return;
    }
    keep = ir::Attribute(std::move(*s));
    sharding = keep->as<TensorSharding>();
  }
  // Where an update goes: the value's sharding, a data-flow edge's own
  // `sharding` (`edge`), or result `funcIndex` of function `func`.
  enum class Kind : uint8_t { Value, Edge, FuncResult };
  Kind kind = Kind::Value;
  bool funcResult = false;
  ir::Op* edge = nullptr;
  ir::Op* func = nullptr;
  unsigned funcIndex = 0;
  void set(const TensorSharding& t) const;
  // What to record as the written value: (value, sharding given to setSharding).
  StepEvent::Write write(const TensorSharding& t) const;
};

std::optional<TensorSharding> transformEdgeSharding(ir::Op& edge, const std::optional<TensorSharding>& s,
                                                    bool beforePropagation) {
  if (!s) return s;
  ir::Value* owner = edge.numOperands() ? edge.operand(0) : nullptr;
  ir::Op* ownerOp = owner ? owningOp(owner) : nullptr;
  if (!ownerOp || !SS_OP_IS(*ownerOp, "sdy.manual_computation")) return s;
  std::vector<std::string> manual = manualAxesOf(*ownerOp);
  auto listOf = [&](const char* name) {
    std::vector<TensorSharding> out;
    if (const ir::Attribute* a = ownerOp->attr(name))
      if (const auto* pv = a->as<TensorShardingPerValue>()) out = pv->shardings;
    return out;
  };
  bool isArg = owner->isBlockArgument();
  if (beforePropagation == isArg) {
    // Block argument before / result after: put the manual axes back in front.
    std::vector<TensorSharding> outer = listOf(isArg ? "in_shardings" : "out_shardings");
    if (owner->index >= outer.size()) return s;
    return addFreeAxes(outer[owner->index], *s, manual);
  }
  return eraseManualAxes(*s, manual);
}

void Slot::set(const TensorSharding& t) const {
  switch (kind) {
    case Kind::Value: setSharding(value, t); return;
    case Kind::Edge: edge->setAttr("sharding", ir::Attribute(*transformEdgeSharding(*edge, t, false)), true); return;
    case Kind::FuncResult: setFuncResultSharding(*func, funcIndex, t); return;
  }
}

StepEvent::Write Slot::write(const TensorSharding& t) const {
  StepEvent::Write w;
  switch (kind) {
    case Kind::Value:
      w.value = value;
      w.sharding = t;
      break;
    case Kind::Edge:
      w.value = value;
      w.sharding = *transformEdgeSharding(*edge, t, false);
      break;
    case Kind::FuncResult:
      w.func = func;
      w.funcResult = funcIndex;
      w.sharding = t;
      break;
  }
  return w;
}

}  // namespace

struct PropagationDriver::Impl {
  PropagationDriver& d;
  // Function argument/result shardings are deferred from prepare() to finish().
  bool deferringFuncShardings = false;
  std::vector<ir::Op*> preorder;
  // Pre-order index of each op: on the op (Op::scratchIndex, valid while
  // its scratchGeneration is `generation`), else in `index`, built from
  // `preorder` when first needed.
  uint32_t generation = 0;
  std::unordered_map<const ir::Op*, int64_t> index;
  bool indexMapBuilt = false;
  void ensureIndexMap() {
    if (indexMapBuilt) return;
    indexMapBuilt = true;
    index.reserve(preorder.size());
    for (size_t i = 0; i < preorder.size(); ++i) index.emplace(preorder[i], static_cast<int64_t>(i));
  }
  static uint32_t nextGeneration() {
    static std::atomic<uint32_t> counter{0};
    uint32_t g = ++counter;
    if (g == 0) g = ++counter;  // 0 means "none"
    return g;
  }
  std::vector<std::vector<ir::Value*>> groups;
  std::unordered_map<ir::Value*, int64_t> groupOf;
  std::map<std::string, ir::Op*> funcs;
  std::map<std::string, std::vector<ir::Op*>> callers;
  ir::Op* mainFunc = nullptr;

  // Worklist state of the current run.
  std::vector<std::pair<ir::Op*, int64_t>> worklist;  // (op, id)
  ir::Op* current = nullptr;
  bool notifying = false;
  int64_t visit = 0;

  // Rules per op for the driver's lifetime (null: the op has none). The
  // registry's answer for an op does not change during propagation, so it
  // is looked up or created once (ruleFor) instead of on every visit.
  // Per op, the inputs of its last visit when that visit changed nothing.
  // The lists live side by side for all ops in `MemoLists` (three heap
  // blocks per op, made on its first quiet visit and freed with the driver,
  // cost more than the memo saved on a large module); an op's place there
  // is kept for later visits, which have the same list lengths.
  // (Fields ordered so that the flags share one word: there is a memo per
  // op, a million of them in a large module, each in fresh memory.)
  struct NoChangeMemo {
    const FactorPropagation* strategy = nullptr;
    uint32_t tensorsAt = 0, numTensors = 0;  // in MemoLists::shardings / keep
    uint32_t dirsAt = 0, numDirs = 0;        // in MemoLists::dirs
    bool valid = false;
    // Every factor had the same axes on all tensors mapping it: no step
    // changes anything whatever the directions.
    bool anyDirs = false;
    bool placed = false;
  };
  struct MemoLists {
    std::vector<const TensorSharding*> shardings;  // operands then results
    std::vector<std::optional<ir::Attribute>> keep;
    std::vector<PropagationDirection> dirs;
  };
  MemoLists memoLists;

  bool memoMatches(const NoChangeMemo& m, const FactorPropagation* s, const std::vector<Slot>& operands,
                   const std::vector<Slot>& results, const std::vector<PropagationDirection>& d) const {
    if (!m.valid || s != m.strategy || m.numTensors != operands.size() + results.size()) return false;
    if (!m.anyDirs &&
        (m.numDirs != d.size() || !std::equal(d.begin(), d.end(), memoLists.dirs.begin() + m.dirsAt)))
      return false;
    const TensorSharding* const* seen = memoLists.shardings.data() + m.tensorsAt;
    for (const std::vector<Slot>* list : {&operands, &results})
      for (const Slot& slot : *list)
        // Owned (computed) shardings live in fresh attributes: never equal.
        if (slot.sharding != *seen++) return false;
    return true;
  }
  // Lets go of the attributes `m` holds alive.
  void memoRelease(const NoChangeMemo& m) {
    for (uint32_t i = 0; i < m.numTensors; ++i) memoLists.keep[m.tensorsAt + i].reset();
  }
  void memoClear(NoChangeMemo& m) {
    if (!m.valid) return;
    m.valid = false;
    memoRelease(m);  // at once, as a list per op would
  }
  void memoRecord(NoChangeMemo& m, const FactorPropagation* s, const std::vector<Slot>& operands,
                  const std::vector<Slot>& results, const std::vector<PropagationDirection>& d, bool agree) {
    auto n = static_cast<uint32_t>(operands.size() + results.size());
    auto nd = static_cast<uint32_t>(d.size());
    if (!m.placed || m.numTensors != n || m.numDirs != nd) {
      if (m.placed) memoRelease(m);
      m.placed = true;
      m.tensorsAt = static_cast<uint32_t>(memoLists.shardings.size());
      m.numTensors = n;
      memoLists.shardings.resize(memoLists.shardings.size() + n);
      memoLists.keep.resize(memoLists.keep.size() + n);
      m.dirsAt = static_cast<uint32_t>(memoLists.dirs.size());
      m.numDirs = nd;
      memoLists.dirs.resize(memoLists.dirs.size() + nd);
    }
    m.valid = true;
    m.anyDirs = agree;
    m.strategy = s;
    std::copy(d.begin(), d.end(), memoLists.dirs.begin() + m.dirsAt);
    uint32_t k = m.tensorsAt;
    for (const std::vector<Slot>* list : {&operands, &results})
      for (const Slot& slot : *list) {
        memoLists.shardings[k] = slot.sharding;
        memoLists.keep[k] = slot.keep;
        ++k;
      }
  }
  // Per-op state, indexed by the op's id: its pre-order index, or for an op
  // outside the pre-order (none in practice) an id handed out on demand.
  struct OpState {
    // The rule, inside the op's `sdy.sharding_rule` attribute (held alive in
    // `ruleKeeps`); nullptr before it is looked up, kNoRule when the op has
    // none.
    const OpShardingRule* rule = nullptr;
    NoChangeMemo memo;
  };
  static inline const OpShardingRule kNoRule{};
  std::vector<OpState> state;
  // The attributes the rules of `state` live in, one per op that has a rule,
  // kept alive for the driver's lifetime (apart from OpState, which stays
  // 40 bytes: 80 with a slot of its own for each).
  std::vector<ir::Attribute> ruleKeeps;
  // Whether the op with that id is on the worklist (apart from `state`: it
  // is set for every op at the start of each run).
  std::vector<uint8_t> pending;
  std::unordered_map<const ir::Op*, int64_t> extraIds;
  bool indexed = false;
  // Whether syncGroups() inserted sharding constraints (the index is stale).
  bool insertedOps = false;
  int64_t curId = -1;  // id of the op being processed

  int64_t idOf(const ir::Op* op) {
    if (op->scratchGeneration == generation && generation != 0) return static_cast<int64_t>(op->scratchIndex);
    // Another driver re-indexed the op since: the map from the pre-order.
    ensureIndexMap();
    auto it = index.find(op);
    if (it != index.end()) return it->second;
    auto [e, inserted] = extraIds.try_emplace(op, static_cast<int64_t>(state.size()));
    if (inserted) {
      state.emplace_back();
      pending.push_back(0);
    }
    return e->second;
  }

  // Scratch of the agreement check in propagateTensorsImpl.
  std::vector<const TensorSharding*> agreementOperands, agreementResults;
  FactorAgreementScratch agreementScratch;

  // Scratch directions of propagateTensors.
  std::vector<PropagationDirection> dirsScratch;
  // Scratch slot lists and step event of processRegistered.
  std::vector<Slot> registeredOperands, registeredResults;
  StepEvent registeredEvent;

  // Registry rules, one per op signature.
  OpShardingRuleCache ruleCache;

  // Identity rules of edges and barriers, keyed by op.
  std::unordered_map<const ir::Op*, OpShardingRule> identityCache;

  // Current run.
  const FactorPropagation* strategy = nullptr;
  const GetDirectionFn* direction = nullptr;
  RunLabel label;

  explicit Impl(PropagationDriver& driver) : d(driver) {}

  void indexOps() {
    preorder.clear();
    index.clear();
    indexMapBuilt = false;
    extraIds.clear();
    state.clear();
    ruleKeeps.clear();
    memoLists.shardings.clear();
    memoLists.keep.clear();
    memoLists.dirs.clear();
    pending.clear();
    generation = nextGeneration();
    size_t tensors = 0;
    for (auto& op : d.module_.body().ops())
      op->walkPreOrder([&](ir::Op& o) {
        o.scratchGeneration = generation;
        o.scratchIndex = static_cast<uint32_t>(preorder.size());
        preorder.push_back(&o);
        tensors += o.numOperands() + o.numResults();
        return true;
      });
    // Room for a memo of every op's tensors (an edge's sources may exceed
    // its operands: then the lists grow as before). Grown by doubling, they
    // were copied over and over and left freed blocks behind: on the 100k-op
    // transformer 4 MB more fresh memory (each page cleared by the kernel).
    memoLists.shardings.reserve(tensors);
    memoLists.keep.reserve(tensors);
    state.resize(preorder.size());
    ruleKeeps.reserve(preorder.size());  // one per op at most (ops outside the pre-order may add more)
    pending.assign(preorder.size(), 0);
    indexed = true;
    funcs.clear();
    callers.clear();
    for (ir::Op* f : d.module_.functions()) funcs[symbolName(*f)] = f;
    for (ir::Op* op : preorder)
      if (SS_OP_IS(*op, "func.call"))
        if (const ir::Attribute* a = op->attr("callee"))
          if (const auto* r = a->as<ir::SymbolRefAttr>(); r && !r->path.empty()) callers[r->root()].push_back(op);
    std::vector<ir::Op*> fs = d.module_.functions();
    mainFunc = nullptr;
    if (fs.size() == 1)
      mainFunc = fs.front();
    else if (funcs.count("main"))
      mainFunc = funcs["main"];
  }

  // ---- Notification ------------------------------------------------------

  void notifyOp(ir::Op* op) {
    if (!notifying || !op || op == current) return;
    int64_t id = idOf(op);
    if (pending[id]) return;
    pending[id] = 1;
    worklist.emplace_back(op, id);
  }

  // Values whose users the current notification has reached: calls and
  // returns lead from a value to others and can come back to it (a callee
  // returning its argument, called from two functions that call each other's
  // results), so each value is followed once per top-level notification.
  std::unordered_set<ir::Value*> notifiedValues;
  int notifyDepth = 0;

  void notifyUsersModified(ir::Value* value) {
    if (!value || !notifiedValues.insert(value).second) return;
    ++notifyDepth;
    notifyUsersOf(value);
    if (--notifyDepth == 0) notifiedValues.clear();
  }

  void notifyUsersOf(ir::Value* value) {
    // Notifying only queues ops; the IR (and so this use list) is unchanged.
    for (const ir::Use& use : value->uses()) {
      ir::Op* user = use.user;
      if (ir::Op* edge = lookupEdgeOfSource(user, use.index)) {
        notifyOp(edge);
        continue;
      }
      if (isTerminatorOp(*user)) {
        ir::Op* parent = user->parentOp();
        if (!SS_OP_IS(*user, "func.return") || !parent) {
          notifyOp(parent);
          continue;
        }
        auto it = callers.find(symbolName(*parent));
        if (it == callers.end() || it->second.empty()) {
          notifyOp(parent);
          continue;
        }
        for (ir::Op* call : it->second)
          if (use.index < call->numResults()) notifyUsersModified(call->result(use.index));
        continue;
      }
      if (SS_OP_IS(*user, "func.call")) {
        const ir::Attribute* a = user->attr("callee");
        const auto* r = a ? a->as<ir::SymbolRefAttr>() : nullptr;
        auto it = r && !r->path.empty() ? funcs.find(r->root()) : funcs.end();
        if (it != funcs.end() && it->second->numRegions() && !it->second->region(0).empty()) {
          ir::Block& body = it->second->region(0).front();
          if (use.index < body.numArguments()) notifyUsersModified(body.argument(use.index));
        }
        continue;
      }
      notifyOp(user);
    }
  }

  void notifyShardingModified(ir::Value* value) {
    if (!value) return;
    if (!value->isBlockArgument() && value->definingOp && SS_OP_IS(*value->definingOp, "sdy.data_flow_edge")) {
      ir::Op* edge = value->definingOp;
      if (edge->numOperands())
        for (ir::Value* target : nonOwnerTargets(edge->operand(0))) notifyUsersModified(target);
    }
    if (value->isBlockArgument())
      notifyOp(value->ownerBlock->parentOp());
    else
      notifyOp(value->definingOp);
    notifyUsersModified(value);
  }

  // ---- Sharding groups ---------------------------------------------------

  void buildGroups() {
    groups.clear();
    groupOf.clear();
    for (ir::Op* op : preorder) {
      if (!SS_OP_IS(*op, "sdy.sharding_group") || op->numOperands() == 0) continue;
      const ir::Attribute* a = op->attr("group_id");
      std::optional<int64_t> id = a ? a->integer() : std::nullopt;
      if (!id || *id < 0) continue;
      if (static_cast<int64_t>(groups.size()) <= *id) groups.resize(*id + 1);
      ir::Value* v = op->operand(0);
      groupOf.emplace(v, *id);
      groups[*id].push_back(v);
    }
  }

  void syncGroups() {
    for (size_t g = 0; g < groups.size(); ++g) {
      std::vector<ir::Value*>& members = groups[g];
      if (members.empty()) continue;
      std::optional<TensorSharding> common;
      bool conflict = false;
      if (members.size() == 1) {
        common = getSharding(members.front());
      } else {
        for (ir::Value* m : members) {
          std::optional<TensorSharding> s = getSharding(m);
          if (!s) continue;
          bool openEmpty = hasNoAxes(*s) && std::all_of(s->dims.begin(), s->dims.end(),
                                                        [](const DimensionSharding& dim) { return !dim.closed; });
          if (openEmpty) continue;
          if (!common) {
            common = s;
          } else if (!(*s == *common)) {
            conflict = true;
            break;
          }
        }
      }
      if (!common) continue;
      if (!conflict) {
        for (ir::Value* m : members) setSharding(m, *common);
        continue;
      }
      ir::Op* firstOwner = owningOp(members.front());
      d.diags_.warning(firstOwner ? firstOwner->loc() : ir::SourceLoc{},
                       "The initial operand shardings on the sharding groups of groupID: " +
                           std::to_string(g) +
                           " do not match. Inserting an open sharding constraint to all constrained "
                           "values. This can be caused when shardings from different values are "
                           "grouped (e.g. from jax.shard_alike) but have separate inconsistent "
                           "sharding constraints on them.");
      for (ir::Value*& m : members) {
        auto constraint = std::make_unique<ir::Op>("sdy.sharding_constraint",
                                                   m->isBlockArgument() ? ir::SourceLoc{}
                                                                        : m->definingOp->loc());
        constraint->addOperand(m);
        ir::Value* result = constraint->addResult(m->type);
        constraint->setAttr("sharding", ir::Attribute(fullyReplicated(common->mesh, rankOf(m->type), false)),
                            true);
        ir::Op* inserted;
        if (m->isBlockArgument()) {
          ir::Block* b = m->ownerBlock;
          inserted = b->empty() ? b->append(std::move(constraint))
                                : b->insertBefore(b->ops().front().get(), std::move(constraint));
        } else {
          inserted = m->definingOp->parentBlock()->insertAfter(m->definingOp, std::move(constraint));
        }
        insertedOps = true;
        m->replaceUsesWithIf(result, [&](const ir::Use& u) { return u.user != inserted; });
        groupOf.erase(m);
        m = result;
        groupOf.emplace(m, static_cast<int64_t>(g));
      }
    }
  }

  std::vector<ir::Value*> groupMembers(ir::Value* v) {
    auto it = groupOf.find(v);
    if (it == groupOf.end()) return {};
    return groups[it->second];
  }

  // ---- Mesh --------------------------------------------------------------

  // The mesh a sharding names, as Module::meshOf. The last named mesh is
  // remembered: meshOf scans the module's top-level ops comparing symbol
  // names, and nearly every sharding of a module names the same mesh. (Mesh
  // ops are neither added nor removed while the driver lives.)
  std::string lastMeshName;
  const Mesh* lastMesh = nullptr;
  const Mesh* meshOf(const TensorSharding& s) {
    if (s.mesh.inlineMesh) return &*s.mesh.inlineMesh;
    if (lastMesh && s.mesh.name == lastMeshName) return lastMesh;
    const Mesh* m = d.module_.meshOf(s);
    if (m) {
      lastMeshName = s.mesh.name;
      lastMesh = m;
    }
    return m;
  }

  // Common mesh of the slots' shardings; false when there is none or they
  // differ. `ref` points into the sharding of one of the slots (held alive by
  // the slot), not a copy: a MeshRef holds a string and maybe a whole mesh.
  bool commonMesh(const std::vector<Slot>& a, const std::vector<Slot>& b, const MeshRef*& ref,
                  const Mesh*& mesh) {
    mesh = nullptr;
    bool found = false;
    for (const std::vector<Slot>* list : {&a, &b})
      for (const Slot& s : *list) {
        if (!s.sharding) continue;
        const Mesh* m = meshOf(*s.sharding);
        if (!m) continue;
        if (!mesh || mesh->empty()) {
          mesh = m;
          ref = &s.sharding->mesh;
          found = true;
          continue;
        }
        if (m->empty()) continue;
        if (!(*m == *mesh)) return false;
      }
    return found;
  }

  // ---- One op-level propagation -----------------------------------------

  const OpShardingRule* ruleFor(ir::Op* op) {
    OpState& st = state[op == current && curId >= 0 ? curId : idOf(op)];
    if (!st.rule) {
      st.rule = &kNoRule;
      // As getOrCreateOpShardingRule, without its copies of the rule (out of
      // the attribute, into it, then compared). Ops alike share one rule
      // attribute (see OpShardingRuleCache), which the op state holds.
      std::optional<ir::Attribute> created;
      if (!rules::existingOpShardingRule(*op))
        created = ruleCache.ruleFor(*op, d.options_.conservativePropagation, &d.diags_);
      // Only rules to keep go onto the op: finish() would strip the others
      // again, and adding an attribute moves the op's attribute list to
      // fresh memory, away from its neighbours', for every later pass.
      if (created && d.options_.keepShardingRules) {
        static const ir::AttrName kRuleName{kShardingRuleAttr};  // interned once, not per op
        op->setAttr(kRuleName, std::move(*created), /*inherent=*/false);
        created.reset();
      }
      if (const ir::Attribute* a = created ? &*created : op->attr(kShardingRuleAttr)) {
        if (const OpShardingRule* stored = a->as<OpShardingRule>()) {
          ruleKeeps.push_back(*a);  // no second copy of the rule per op
          st.rule = stored;
        }
      }
    }
    return st.rule == &kNoRule ? nullptr : st.rule;
  }

  const OpShardingRule& cachedIdentityRule(const ir::Op* op, const ir::Type& type, size_t numOperands) {
    auto it = identityCache.find(op);
    if (it == identityCache.end() || it->second.operands.size() != numOperands)
      it = identityCache.insert_or_assign(op, identityRule(type, numOperands)).first;
    return it->second;
  }

  // Fills `dirsScratch` with each factor's direction (None for blocked
  // factors); false when no factor may propagate.
  template <typename DirFn>
  bool computeDirections(const OpShardingRule& rule, const DirFn& dirFn) {
    std::vector<PropagationDirection>& dirs = dirsScratch;
    dirs.assign(rule.factorSizes.size(), PropagationDirection::None);
    bool any = false;
    for (size_t f = 0; f < dirs.size(); ++f) {
      dirs[f] = rule.isBlocked(static_cast<int64_t>(f)) ? PropagationDirection::None
                                                        : dirFn(static_cast<int64_t>(f));
      any = any || dirs[f] != PropagationDirection::None;
    }
    return any;
  }

  // The step of `op` on its tensors, along the directions the caller put in
  // `dirsScratch` with computeDirections (which found some factor that may
  // propagate).
  bool propagateTensors(ir::Op* op, std::vector<Slot>& operands, std::vector<Slot>& results,
                        const OpShardingRule& rule, bool conservative, bool notify, bool elementwise,
                        StepEvent& event) {
    // An op-level step is a pure function of the tensors' shardings, the
    // directions and the strategy (the rule, mesh table and flags are fixed
    // per op). When the last visit of `op` changed nothing and it sees the
    // very same sharding attributes again (held alive by the memo, so equal
    // addresses mean identical contents), it would change nothing again.
    NoChangeMemo* memo = notify ? &state[op == current && curId >= 0 ? curId : idOf(op)].memo : nullptr;
    // Nothing can move when no tensor has an axis in any dimension (both
    // strategies only ever extend a factor by axes some tensor already holds
    // for it).
    auto hasDimAxes = [](const Slot& slot) {
      if (!slot.sharding) return false;
      for (const DimensionSharding& dim : slot.sharding->dims)
        if (!dim.axes.empty()) return true;
      return false;
    };
    if (std::none_of(operands.begin(), operands.end(), hasDimAxes) &&
        std::none_of(results.begin(), results.end(), hasDimAxes))
      return false;
    // Reused from step to step (a step never starts another).
    std::vector<PropagationDirection>& dirs = dirsScratch;
    if (memo && memoMatches(*memo, strategy, operands, results, dirs)) return false;
    bool allAgree = false;
    bool changed = propagateTensorsImpl(op, operands, results, rule, dirs, conservative, notify, elementwise,
                                        event, allAgree);
    if (memo) {
      if (changed)
        memoClear(*memo);
      else
        memoRecord(*memo, strategy, operands, results, dirs, allAgree);
    }
    return changed;
  }

  // Whether some factor that may propagate (per `dirs`) has different axes
  // on two tensors mapping it; `allAgree`: no factor at all has.
  static bool factorsMayChange(const ShardingProjection& projection, const std::vector<PropagationDirection>& dirs,
                               bool& allAgree) {
    allAgree = true;
    bool may = false;
    for (size_t f = 0; f < dirs.size(); ++f) {
      const AxisRefList* first = nullptr;
      bool agree = true;
      for (const std::vector<TensorFactorShardings>* rows : {&projection.operands, &projection.results}) {
        for (const TensorFactorShardings& row : *rows) {
          const FactorSharding* fs = row.find(static_cast<int64_t>(f));
          if (!fs) continue;
          if (!first) {
            first = &fs->axes;
          } else if (!(*first == fs->axes)) {
            agree = false;
            break;
          }
        }
        if (!agree) break;
      }
      if (agree) continue;
      allAgree = false;
      if (dirs[f] != PropagationDirection::None) may = true;
    }
    return may;
  }

  bool propagateTensorsImpl(ir::Op* op, std::vector<Slot>& operands, std::vector<Slot>& results,
                            const OpShardingRule& rule, std::vector<PropagationDirection>& dirs, bool conservative,
                            bool notify, bool elementwise, StepEvent& event, bool& allAgree) {
    allAgree = false;
    const MeshRef* meshRef = nullptr;
    const Mesh* mesh = nullptr;
    if (!commonMesh(operands, results, meshRef, mesh)) return false;
    if (mesh->isMaximal()) return false;
    // Most visits change nothing, and when the rule and the shardings allow
    // it that shows without building the factor table (factor_agreement.h);
    // the answer is the one factorsMayChange would give on the table.
    agreementOperands.clear();
    agreementResults.clear();
    for (const Slot& slot : operands) agreementOperands.push_back(slot.sharding);
    for (const Slot& slot : results) agreementResults.push_back(slot.sharding);
    const FactorAgreement agreement =
        factorAgreement(rule, agreementOperands, agreementResults, dirs, agreementScratch);
    if (agreement.decided && !agreement.mayChange) {
      allAgree = agreement.allAgree;
      return false;
    }
    ShardingProjection projection;
    projection.operands.reserve(rule.operands.size());
    projection.results.reserve(rule.results.size());
    for (size_t i = 0; i < rule.operands.size(); ++i)
      projection.operands.push_back(projectTensor(
          rule.operands[i], i < operands.size() ? operands[i].sharding : nullptr, rule.factorSizes, *mesh));
    for (size_t i = 0; i < rule.results.size(); ++i)
      projection.results.push_back(projectTensor(
          rule.results[i], i < results.size() ? results[i].sharding : nullptr, rule.factorSizes, *mesh));
    // Both strategies give a factor only axes compatible with what the
    // tensors mapping it hold (a fold of their axes, then only truncated),
    // and a tensor changes only when its axes are a strict prefix of those.
    // So when every factor that may propagate has the same axes on all the
    // tensors mapping it, the step changes nothing: skip the strategy.
    if (!agreement.decided && !factorsMayChange(projection, dirs, allAgree)) return false;
    allAgree = false;
    // Only observers look at the table before the update.
    std::optional<ShardingProjection> before;
    if (!d.observers_.empty()) before = projection;
    FactorPropagationContext ctx{rule.factorSizes, *mesh,
                                 [&](int64_t f) { return dirs[static_cast<size_t>(f)]; }, conservative,
                                 elementwise};
    UpdateTensorShardings update = strategy->propagate(projection, ctx);

    bool any = false;
    const bool observed = !d.observers_.empty();
    auto apply = [&](std::vector<Slot>& slots, const std::vector<TensorFactorShardings>& rows,
                     const std::vector<TensorFactorMapping>& mappings, std::vector<bool>& bits) {
      for (size_t i = 0; i < slots.size() && i < rows.size(); ++i) {
        if (!bits[i]) continue;
        TensorSharding updated = unprojectTensor(rows[i], mappings[i], rule.factorSizes, *meshRef, *mesh);
        const TensorSharding* old = slots[i].sharding;
        if ((!old && hasNoAxes(updated)) || (old && *old == updated)) {
          bits[i] = false;
          continue;
        }
        any = true;
        slots[i].set(updated);
        // Only observers read the writes.
        if (observed) event.writes.push_back(slots[i].write(updated));
        if (slots[i].funcResult) continue;
        ir::Value* modified = shardableValue(slots[i].value);
        if (notify) notifyShardingModified(modified);
        for (ir::Value* member : groupMembers(modified)) {
          if (member == modified) continue;
          setSharding(member, updated);
          if (observed) {
            StepEvent::Write w;
            w.value = member;
            w.sharding = updated;
            event.writes.push_back(w);
          }
          if (notify) notifyShardingModified(member);
        }
      }
    };
    apply(operands, projection.operands, rule.operands, update.operands);
    apply(results, projection.results, rule.results, update.results);
    if (!any) return false;

    event.step = d.nextStep_++;
    event.operands.clear();
    event.results.clear();
    for (const Slot& s : operands) event.operands.push_back(s.value);
    for (const Slot& s : results) event.results.push_back(s.value);
    event.rule = &rule;
    event.mesh = mesh;
    event.before = before ? &*before : &projection;
    event.after = &projection;
    event.directions = dirs;
    event.strategy = strategy;
    event.label = label;
    event.iteration = d.runIndex_;
    event.visit = notifying ? visit : 0;
    for (const StepObserver& obs : d.observers_) obs(event);
    return true;
  }

  Slot valueSlot(ir::Value* v) {
    Slot s;
    s.value = v;
    s.sharding = getShardingRef(v, s.keep);
    return s;
  }

  bool processRegistered(ir::Op* op) {
    const OpShardingRule* rule = ruleFor(op);
    if (!rule) return false;
    if (rule->operands.size() != op->numOperands() || rule->results.size() != op->numResults()) return false;
    // The slot lists are reused from visit to visit (a step never starts
    // another op's step), and emptied afterwards.
    // Directions first: they need only the op and its rule, while reading
    // the tensors' shardings visits every operand's producer. In the early
    // op-priority stages most ops may not propagate at all.
    if (!computeDirections(*rule, [&](int64_t f) { return (*direction)(*op, f, rule); })) return false;
    std::vector<Slot>& operands = registeredOperands;
    std::vector<Slot>& results = registeredResults;
    operands.clear();
    results.clear();
    // The event too is reused: a fresh one per visit cost a destruction of
    // its five lists each time, though a step fills them only when it
    // changes something (then all the fields it reports are set anew).
    StepEvent& ev = registeredEvent;
    ev.op = op;
    ev.writes.clear();
    for (ir::Value* v : op->operands()) operands.push_back(valueSlot(v));
    for (unsigned i = 0; i < op->numResults(); ++i) results.push_back(valueSlot(op->result(i)));
    bool changed = propagateTensors(op, operands, results, *rule, d.options_.conservativePropagation, true,
                                    isElementwiseOp(*op), ev);
    operands.clear();
    results.clear();
    return changed;
  }

  bool processBarrier(ir::Op* op) {
    if (op->numOperands() != 1 || op->numResults() != 1) return false;
    const ir::Type& type = op->result(0)->type;
    if (!type.isRankedTensor()) return false;
    PropagationDirection allowed = PropagationDirection::None;
    if (const ir::Attribute* a = op->attr("allowed_direction")) {
      if (const auto* e = a->as<ir::EnumAttr>()) {
        if (auto p = parseDirection(e->value)) allowed = *p;
      } else if (const std::string* s = a->string()) {
        if (auto p = parseDirection(*s)) allowed = *p;
      }
    }
    const OpShardingRule& rule = cachedIdentityRule(op, type, 1);
    if (!computeDirections(rule, [&](int64_t) { return allowed; })) return false;
    std::vector<Slot> operands{valueSlot(op->operand(0))};
    std::vector<Slot> results{valueSlot(op->result(0))};
    StepEvent ev;
    ev.op = op;
    return propagateTensors(op, operands, results, rule, false, true, true, ev);
  }

  bool processEdge(ir::Op* op) {
    if (op->numOperands() != 1 || op->numResults() != 1) return false;
    ir::Value* result = op->result(0);
    if (!result->type->isRankedTensor() || !result->type->hasStaticShape()) return false;
    std::vector<ir::Value*> sources = edgeSources(op->operand(0));
    std::vector<Slot> operands;
    StepEvent ev;
    ev.op = op;
    for (ir::Value* s : sources) operands.push_back(valueSlot(s));
    Slot res;
    res.value = result;
    const ir::Attribute* ownAttr = op->attr("sharding");
    const TensorSharding* ownSharding = ownAttr ? ownAttr->as<TensorSharding>() : nullptr;
    ir::Op* ownerOp = owningOp(op->operand(0));
    if (ownSharding && !(ownerOp && SS_OP_IS(*ownerOp, "sdy.manual_computation"))) {
      // Not a manual computation: the edge's own sharding is used as is.
      res.keep = *ownAttr;
      res.sharding = ownSharding;
    } else {
      std::optional<TensorSharding> own;
      if (ownSharding) own = *ownSharding;
      res.own(transformEdgeSharding(*op, own, true));
    }
    res.kind = Slot::Kind::Edge;
    res.edge = op;
    std::vector<Slot> results{std::move(res)};
    const OpShardingRule& rule = cachedIdentityRule(op, result->type, sources.size());
    if (!computeDirections(rule, [&](int64_t f) { return (*direction)(*op, f, nullptr); })) return false;
    return propagateTensors(op, operands, results, rule, false, true, false, ev);
  }

  // `sdy.func_data_flow_edge %x`: %x is an argument of a called function
  // (sources: the callers' operands) or a call result (source: the callee's
  // returned value).
  bool processFuncEdge(ir::Op* op) {
    if (op->numOperands() != 1 || op->numResults() != 1) return false;
    ir::Value* result = op->result(0);
    if (!result->type->isRankedTensor() || !result->type->hasStaticShape()) return false;
    ir::Value* in = op->operand(0);
    std::vector<ir::Value*> sources;
    if (in->isBlockArgument()) {
      ir::Op* func = op->parentOfName("func.func");
      if (!func) return false;
      auto it = callers.find(symbolName(*func));
      if (it != callers.end())
        for (ir::Op* call : it->second)
          if (in->index < call->numOperands()) sources.push_back(call->operand(in->index));
      if (sources.empty()) return true;
    } else if (in->definingOp && SS_OP_IS(*in->definingOp, "func.call")) {
      const ir::Attribute* a = in->definingOp->attr("callee");
      const auto* r = a ? a->as<ir::SymbolRefAttr>() : nullptr;
      auto it = r && !r->path.empty() ? funcs.find(r->root()) : funcs.end();
      if (it == funcs.end()) return false;
      ir::Op* ret = funcReturn(*it->second);
      if (ret && in->index < ret->numOperands()) sources.push_back(ret->operand(in->index));
    } else {
      return false;
    }
    std::vector<Slot> operands;
    StepEvent ev;
    ev.op = op;
    for (ir::Value* s : sources) operands.push_back(valueSlot(s));
    std::vector<Slot> results{valueSlot(result)};
    const OpShardingRule& rule = cachedIdentityRule(op, result->type, sources.size());
    if (!computeDirections(rule, [&](int64_t f) { return (*direction)(*op, f, nullptr); })) return false;
    return propagateTensors(op, operands, results, rule, false, true, false, ev);
  }

  void processOp(ir::Op* op) {
    if (SS_OP_IS(*op, "sdy.propagation_barrier") && processBarrier(op)) return;
    if (SS_OP_IS(*op, "sdy.data_flow_edge") && processEdge(op)) return;
    if (SS_OP_IS(*op, "sdy.func_data_flow_edge") && processFuncEdge(op)) return;
    processRegistered(op);
  }

  // ---- Function results --------------------------------------------------

  void propagateFuncResults() {
    if (!mainFunc) return;
    ir::Op* ret = funcReturn(*mainFunc);
    if (!ret) return;
    ir::Op* func = mainFunc;
    for (unsigned i = 0; i < ret->numOperands(); ++i) {
      ir::Value* v = ret->operand(i);
      if (!v->type->isRankedTensor() || !v->type->hasStaticShape()) continue;
      std::vector<Slot> operands{valueSlot(v)};
      Slot res;
      res.value = v;
      res.funcResult = true;
      res.own(funcResultSharding(*func, i));
      res.kind = Slot::Kind::FuncResult;
      res.func = func;
      res.funcIndex = i;
      std::vector<Slot> results{res};
      StepEvent ev;
      ev.op = func;
      ev.funcResultSync = true;
      ev.funcResultIndex = i;
      OpShardingRule rule = identityRule(v->type, 1);
      if (!computeDirections(rule, [](int64_t) { return PropagationDirection::Both; })) continue;
      bool saved = notifying;
      notifying = false;
      propagateTensors(func, operands, results, rule, false, false, false, ev);
      notifying = saved;
    }
  }
};

PropagationDriver::PropagationDriver(ir::Module& module, const PropagationOptions& options,
                                     ir::DiagnosticSink& diags)
    : impl_(std::make_unique<Impl>(*this)), module_(module), options_(options), diags_(diags) {}

PropagationDriver::~PropagationDriver() {
  if (impl_ && impl_->deferringFuncShardings) endDeferredFuncShardings();
}

int64_t PropagationDriver::opIndex(const ir::Op* op) const {
  if (op->scratchGeneration == impl_->generation && impl_->generation != 0)
    return static_cast<int64_t>(op->scratchIndex);
  impl_->ensureIndexMap();
  auto it = impl_->index.find(op);
  return it == impl_->index.end() ? -1 : it->second;
}

bool PropagationDriver::prepare() {
  bool ok = true;
  module_.op->walkPreOrder([&](ir::Op& op) {
    if (!ok) return false;
    for (ir::Value* r : op.resultRange()) {
      const ir::Type& t = r->type;
      if (t.isTensor() && (!t.isRankedTensor() || !t.hasStaticShape())) {
        diags_.error(op.loc(), "Shardy propagation only supports ranked tensors with a static shape. type: " +
                                   t.str());
        ok = false;
        return false;
      }
      if (t.kind == ir::Type::Kind::Tuple) {
        diags_.error(op.loc(), "Shardy propagation doesn't support tuples: " + t.str());
        ok = false;
        return false;
      }
    }
    return true;
  });
  if (!ok) return false;
  // Notifications follow calls into callees and returns back to callers:
  // on a cycle of calls they would never end.
  if ((ir::Op::anyLive("func.call") || ir::Op::anyLive("call")) &&
      !ir::checkNoRecursiveCalls(ir::CallGraph(module_), diags_))
    return false;
  if (!impl_->deferringFuncShardings) {
    beginDeferredFuncShardings();
    impl_->deferringFuncShardings = true;
  }
  impl_->indexOps();
  impl_->buildGroups();
  impl_->insertedOps = false;
  impl_->syncGroups();
  if (impl_->insertedOps) impl_->indexOps();  // the sync inserted constraints
  return true;
}

bool PropagationDriver::run(const FactorPropagation& strategy, const GetDirectionFn& direction,
                            RunLabel label) {
  Impl& m = *impl_;
  // The op structure does not change between prepare() and finish() (only
  // attributes do), so the pre-order index of prepare() stays valid.
  if (!m.indexed) m.indexOps();
  m.strategy = &strategy;
  m.direction = &direction;
  m.label = label;
  m.propagateFuncResults();

  m.worklist.clear();
  m.worklist.reserve(m.preorder.size());
  for (size_t i = m.preorder.size(); i-- > 0;) {
    m.worklist.emplace_back(m.preorder[i], static_cast<int64_t>(i));
    m.pending[i] = 1;
  }
  int64_t limit = options_.maxStepsPerRun;
  if (limit <= 0) limit = 100000 + 1024 * static_cast<int64_t>(m.preorder.size());
  int64_t pops = 0;
  bool converged = true;
  m.notifying = true;
  while (!m.worklist.empty()) {
    auto [op, id] = m.worklist.back();
    m.worklist.pop_back();
    m.pending[id] = 0;
    if (++pops > limit) {
      diags_.warning(module_.op->loc(), "sharding propagation did not converge after " +
                                            std::to_string(limit) + " op visits; stopping");
      converged = false;
      break;
    }
    m.current = op;
    m.curId = id;
    m.visit = pops;
    m.processOp(op);
    m.current = nullptr;
    m.curId = -1;
  }
  m.notifying = false;
  for (const auto& [op, id] : m.worklist) m.pending[id] = 0;
  m.worklist.clear();

  m.propagateFuncResults();
  ++runIndex_;
  return converged;
}

void PropagationDriver::finish() {
  if (impl_->deferringFuncShardings) {
    impl_->deferringFuncShardings = false;
    endDeferredFuncShardings();
  }
  if (options_.keepShardingRules) return;
  // The op structure is unchanged since prepare(): the pre-order index
  // covers every op below the module.
  auto strip = [](ir::Op& op) {
    const ir::Attribute* a = op.attr(kShardingRuleAttr);
    if (!a) return;
    const auto* rule = a->as<OpShardingRule>();
    if (rule && !rule->isCustom) op.removeAttr(kShardingRuleAttr);
  };
  if (!impl_->indexed) {
    module_.op->walk(strip);
    return;
  }
  strip(*module_.op);
  for (ir::Op* op : impl_->preorder) strip(*op);
}

}  // namespace shardscope::propagation
