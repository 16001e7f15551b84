// `-sdy-constant-or-scalar-splitter`: give every non-constant user its own
// copy of the constant sub-computation it uses, so that unrelated users of one
// constant are not forced to agree on a sharding.
//
//   %c = sdy.constant dense<1.0>             %c0 = sdy.constant dense<1.0>
//   %1 = stablehlo.dot_general %c, %x   ->   %c1 = sdy.constant dense<1.0>
//   %2 = stablehlo.add %c, %1                %1 = stablehlo.dot_general %c0, %x
//                                            %2 = stablehlo.add %c1, %1
//
// A constant expression is a constant or iota, or a broadcast / reshape /
// slice / pure elementwise op, a named computation or a call whose body is
// constant-preserving, applied to constant expressions. Broadcasts of a scalar
// are copied per user too. Scalars themselves are never copied. Copies of a
// call get a copy of the callee (`@foo_0`, with `sdy.original_func_name`).
// A recursive call is an error, and so is copying call trees beyond
// ir::kMaxCopiedOps ops (each copy of a call copies all its callees).
#include <optional>
#include <unordered_set>

#include "ir/call_graph.h"
#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {

// The constant sub-computations and scalar broadcasts of one region, in
// walk order. Membership is a tag on the op: a hash set of ops, asked for
// every operand of every op, missed the cache on large modules.
struct SplitCandidates {
  enum Kind : uint32_t { kNone = 0, kConstant = 1, kScalarExpansion = 2 };
  ir::OpTags tags;
  std::vector<ir::Op*> constants, scalarExpansions;
  void insert(ir::Op* op, Kind kind) {
    if (tags.get(*op) != kNone) return;
    tags.set(*op, kind);
    (kind == kConstant ? constants : scalarExpansions).push_back(op);
  }
  bool isConstant(const ir::Op* op) const { return tags.get(*op) == kConstant; }
  bool isCandidate(const ir::Op* op) const { return tags.get(*op) != kNone; }
};

class Splitter {
 public:
  Splitter(ir::Module& module, ir::DiagnosticSink& diags) : module_(module), diags_(diags), symbols_(module) {}

  // False (with an error) on a recursive call or when copies of calls would
  // copy too many ops.
  bool run() {
    if (util::mayHaveCalls()) {
      calls_.emplace(module_);
      if (!ir::checkNoRecursiveCalls(*calls_, diags_)) return false;
    }
    // Constants first become sdy.constant, so that they are not folded together.
    if (ir::Op::anyLive("stablehlo.constant"))
      module_.op->walk([](ir::Op& op) {
        if (op.is("stablehlo.constant")) op.setName("sdy.constant");
      });
    for (ir::Op* func : util::funcsInPostOrder(module_)) {
      std::vector<ir::Op*> namedComputations;
      if (ir::Op::anyLive("sdy.named_computation"))  // else no walk: there are none
        util::collectPostOrder(*func, [](const ir::Op& op) { return op.is("sdy.named_computation"); },
                               namedComputations);
      for (ir::Op* nc : namedComputations) walkOnRegion(nc->region(0), func);
      walkOnRegion(func->region(0), func);
    }
    return !overBudget_;
  }

 private:
  static std::string originalFuncName(const ir::Op& func) { return util::originalFuncName(func); }

  static std::string namedComputationName(const ir::Op& nc) {
    if (const ir::Attribute* a = nc.attr("name"))
      if (const std::string* s = a->string()) return *s;
    return "";
  }

  bool isConstantPreserving(const ir::Op& op) const {
    if (util::isCallOp(op)) {
      ir::Op* callee = symbols_.lookupFunc(util::calleeOf(op));
      if (!callee) return false;
      return nonConstFuncs_.count(originalFuncName(*callee)) == 0;
    }
    if (op.is("sdy.named_computation")) return nonConstNamedComputations_.count(namedComputationName(op)) == 0;
    if (!util::isPure(op)) return false;
    if (op.is("stablehlo.broadcast_in_dim") || op.is("stablehlo.reshape") || op.is("stablehlo.slice"))
      return true;
    return util::isElementwise(op);
  }

  bool isConstantExpression(const ir::Op& op, const SplitCandidates& found) const {
    if (op.is("sdy.constant") || op.is("stablehlo.iota")) return true;
    if (!isConstantPreserving(op)) return false;
    for (ir::Value* operand : op.operands())
      if (!operand->definingOp || !found.isConstant(operand->definingOp)) return false;
    return true;
  }

  static bool isScalarExpansion(const ir::Op& op) {
    return op.is("stablehlo.broadcast_in_dim") && op.numOperands() == 1 && util::isScalar(op.operand(0));
  }

  // Clones the operands of `result`'s op (unless already in `map`), then the
  // op itself right before the original, along with its sharding groups.
  void cloneSubComputation(ir::Value* result, util::ValueMap& map) {
    if (util::isScalar(result) || map.count(result)) return;
    ir::Op* op = result->definingOp;
    for (ir::Value* operand : op->operands())
      if (operand->definingOp) cloneSubComputation(operand, map);
    ir::Block* block = op->parentBlock();
    ir::Op* cloned = block->insertBefore(op, util::cloneOp(*op, map));
    if (util::isCallOp(*cloned)) {
      ir::Op* callee = symbols_.lookupFunc(util::calleeOf(*cloned));
      if (callee && mayCopyCallTree(*cloned, *callee))
        util::setCallee(*cloned, symbols_.insert(util::cloneFuncRecursively(*callee, symbols_)));
    }
    std::vector<ir::Op*> groups;
    for (const ir::Use& use : result->uses())
      if (use.user->is("sdy.sharding_group")) groups.push_back(use.user);
    for (ir::Op* group : groups) block->insertBefore(op, util::cloneOp(*group, map));
  }

  // Counts the ops a copy of `callee` with its callees adds; false (with
  // one error, at `call`) once the pass would copy more than the budget.
  bool mayCopyCallTree(const ir::Op& call, const ir::Op& callee) {
    if (overBudget_) return false;
    // Copies made by this pass are not in the graph; they weigh as much as
    // the function they copy.
    const ir::Op* original = symbols_.lookupFunc(originalFuncName(callee));
    uint64_t ops = calls_ ? calls_->opsInCallTree(original ? *original : callee) : 0;
    if (!__builtin_add_overflow(copiedOps_, ops, &copiedOps_) && copiedOps_ <= ir::kMaxCopiedOps) return true;
    diags_.error(call.loc(), "'func.call' op is part of a constant expression with several users, and giving "
                             "each user its own copy of the call and of all it calls would copy more than " +
                                 std::to_string(ir::kMaxCopiedOps) + " ops");
    overBudget_ = true;
    return false;
  }

  ir::Value* cloneSubComputation(ir::Value* result) {
    if (util::isScalar(result)) return result;
    util::ValueMap map;
    cloneSubComputation(result, map);
    return map.at(result);
  }

  void processOp(ir::Op& op, ir::Op* func, SplitCandidates& found) {
    if (util::isFuncOp(op) || op.is("sdy.sharding_group")) return;
    if (isConstantExpression(op, found)) {
      found.insert(&op, SplitCandidates::kConstant);
      return;
    }
    if (!isConstantPreserving(op) && !util::isTerminator(op)) {
      if (ir::Op* nc = op.parentOfName("sdy.named_computation"))
        nonConstNamedComputations_.insert(namedComputationName(*nc));
      if (func != lastNonConstFunc_) {  // (inserting it again changes nothing)
        nonConstFuncs_.insert(originalFuncName(*func));
        lastNonConstFunc_ = func;
      }
    }
    if (isScalarExpansion(op)) {
      found.insert(&op, SplitCandidates::kScalarExpansion);
      return;
    }
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      ir::Value* operand = op.operand(i);
      ir::Op* def = operand->definingOp;
      if (def && found.isCandidate(def))
        op.setOperand(i, cloneSubComputation(operand));
    }
  }

  // Pre-order over `region`, not entering named computations.
  void walkOps(ir::Region& region, const std::function<void(ir::Op&)>& fn) {
    for (auto& block : region.blocks()) {
      std::vector<ir::Op*> ops;
      for (auto& op : block->ops()) ops.push_back(op.get());
      for (ir::Op* op : ops) {
        fn(*op);
        if (op->is("sdy.named_computation")) continue;
        for (const auto& inner : op->regions()) walkOps(*inner, fn);
      }
    }
  }

  static bool onlyShardingGroupUsers(const ir::Op& op) {
    for (ir::Value* r : op.resultRange())
      for (const ir::Use& use : r->uses())
        if (!use.user->is("sdy.sharding_group")) return false;
    return true;
  }

  static void eraseIfUnused(ir::Op* op) {
    if (!onlyShardingGroupUsers(*op)) return;
    std::vector<ir::Op*> users;
    for (ir::Value* r : op->resultRange())
      for (const ir::Use& use : r->uses()) users.push_back(use.user);
    for (ir::Op* user : users) util::eraseOp(user);
    util::eraseOp(op);
  }

  void walkOnRegion(ir::Region& region, ir::Op* func) {
    SplitCandidates found;
    walkOps(region, [&](ir::Op& op) { processOp(op, func, found); });
    // Every use outside the constant sub-computations now has its own copy,
    // so the originals can go (users before definitions).
    for (ir::Op* op : found.scalarExpansions) eraseIfUnused(op);
    for (auto it = found.constants.rbegin(); it != found.constants.rend(); ++it) eraseIfUnused(*it);
  }

  ir::Module& module_;
  ir::DiagnosticSink& diags_;
  util::SymbolTable symbols_;
  std::optional<ir::CallGraph> calls_;  // when the module has calls
  uint64_t copiedOps_ = 0;              // by copies of calls so far
  bool overBudget_ = false;
  std::unordered_set<std::string> nonConstNamedComputations_;
  std::unordered_set<std::string> nonConstFuncs_;
  const ir::Op* lastNonConstFunc_ = nullptr;  // whose name is in nonConstFuncs_
};

}  // namespace

bool constantOrScalarSplitter(ir::Module& module, ir::DiagnosticSink& diags) {
  return Splitter(module, diags).run();
}

}  // namespace shardscope::passes
