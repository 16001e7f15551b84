// `-sdy-verify-unreduced-axes`: checks, op by op, that unreduced axes are not
// silently dropped or changed (see sharding/unreduced_axes_transition.h for
// what each kind of op may do with them).
//
//   %0 = stablehlo.add %arg0, %arg0   // %arg0 unreduced={"y"}, %0 has none
//     -> 'stablehlo.add' op dropped unreduced axis 'y' without a blessed
//        operation (e.g., sdy.reshard). ...
//
// Only sdy.reshard and sdy.sharding_constraint may reduce (they are where the
// all-reduce will be): a value they define counts as having no unreduced
// axes for its users. Calls and returns must hand over exactly the unreduced
// axes the other side declares. Ops are checked innermost first, and a
// function stops at its first error.
#include <algorithm>
#include <set>

#include "passes/export_passes.h"
#include "passes/pass_utils.h"
#include "sharding/unreduced_axes_transition.h"

namespace shardscope::passes {

namespace {

// The value behind any chain of sdy.propagation_barrier ops.
ir::Value* bypassBarriers(ir::Value* v) {
  while (v && v->definingOp && v->definingOp->is("sdy.propagation_barrier") &&
         v->definingOp->numOperands() == 1)
    v = v->definingOp->operand(0);
  return v;
}

std::optional<TensorSharding> shardingBypassingBarriers(ir::Value* v) {
  return util::getSharding(bypassBarriers(v));
}

bool definedByExplicitReshard(ir::Value* v) {
  ir::Op* def = bypassBarriers(v)->definingOp;
  return def && (def->is("sdy.reshard") || def->is("sdy.sharding_constraint"));
}

// The reduction of an sdy collective (`sdy.all_reduce max {"x"} ...`); sum
// when the op does not say. Held as an enum (`max`), or failing that as the
// last word of the attribute's text (`#sdy<reduction max>`).
std::string collectiveReduction(const ir::Op& op) {
  const ir::Attribute* a = op.attr("reduction_op");
  if (!a) return "sum";
  if (const auto* e = a->as<ir::EnumAttr>()) return e->value;
  std::string text = a->str();
  size_t end = text.find_last_not_of(">\" ");
  if (end == std::string::npos) return text;
  size_t begin = text.find_last_of("< \"", end);
  begin = begin == std::string::npos ? 0 : begin + 1;
  return text.substr(begin, end + 1 - begin);
}

// The reduction a region computes (its terminator's operands all defined by
// one of add / maximum / minimum), if any.
std::optional<std::string> regionReduction(const ir::Op& op) {
  if (op.numRegions() == 0 || op.region(0).empty()) return std::nullopt;
  const ir::Op* term = op.region(0).front().terminator();
  if (!term || !term->is("stablehlo.return") || term->numOperands() == 0) return std::nullopt;
  std::optional<std::string> kind;
  for (unsigned i = 0; i < term->numOperands(); ++i) {
    const ir::Op* def = term->operand(i)->definingOp;
    if (!def) return std::nullopt;
    std::string k;
    if (def->is("stablehlo.add"))
      k = "sum";
    else if (def->is("stablehlo.maximum"))
      k = "max";
    else if (def->is("stablehlo.minimum"))
      k = "min";
    else
      return std::nullopt;
    if (kind && *kind != k) return std::nullopt;
    kind = k;
  }
  return kind;
}

class Verifier {
 public:
  Verifier(ir::Module& module, ir::DiagnosticSink& diags)
      : module_(module), diags_(diags), symbols_(module) {}

  // Checks `func`; false after reporting its first error.
  bool verifyFunction(ir::Op& func) {
    std::vector<ir::Op*> ops;
    util::collectPostOrder(
        func, [&](ir::Op& op) { return &op != &func; }, ops);
    for (ir::Op* op : ops)
      if (!verifyOp(*op)) return false;
    return true;
  }

 private:
  bool verifyOp(ir::Op& op) {
    if (op.is("sdy.reshard") || op.is("sdy.sharding_constraint")) return verifyExplicitReshard(op);
    if (op.is("sdy.all_reduce") || op.is("sdy.reduce_scatter")) return verifySdyReduction(op);
    if (op.is("stablehlo.all_reduce") || op.is("stablehlo.reduce_scatter"))
      return verifyStablehloReduction(op);
    if (op.is("stablehlo.reduce")) return verifyReduce(op);
    if (op.is("stablehlo.dot") || op.is("stablehlo.dot_general")) {
      if (noUnreducedAxes(op)) return true;
      return checkTransition(op, operandShardings(op, op.numOperands()), resultShardings(op),
                             {"sum", {}});
    }
    if (util::isCallOp(op)) return verifyCall(op);
    if (op.is("func.return") || op.is("sdy.return")) return verifyReturn(op);
    if (util::isTerminator(op)) return true;
    // Any other op may make partial sums, never reduce.
    if (noUnreducedAxes(op)) return true;
    return checkTransition(op, operandShardings(op, op.numOperands()), resultShardings(op),
                           {"sum", {}});
  }

  // Whether no operand (as operandShardings sees it) and no result of `op`
  // has unreduced axes: then no transition can be wrong. Most ops of a
  // module, answered without copying a sharding.
  static bool noUnreducedAxes(const ir::Op& op) {
    for (ir::Value* v : op.operands())
      if (!definedByExplicitReshard(v) && util::hasUnreducedAxes(bypassBarriers(v))) return false;
    for (ir::Value* v : op.resultRange())
      if (util::hasUnreducedAxes(bypassBarriers(v))) return false;
    return true;
  }

  // The shardings of the first `count` operands; none for a value an explicit
  // reshard defines (that reshard is where its axes were reduced).
  std::vector<std::optional<TensorSharding>> operandShardings(const ir::Op& op, unsigned count) {
    std::vector<std::optional<TensorSharding>> out;
    for (unsigned i = 0; i < count && i < op.numOperands(); ++i)
      out.push_back(definedByExplicitReshard(op.operand(i))
                        ? std::nullopt
                        : shardingBypassingBarriers(op.operand(i)));
    return out;
  }
  std::vector<std::optional<TensorSharding>> resultShardings(const ir::Op& op) {
    std::vector<std::optional<TensorSharding>> out;
    for (unsigned i = 0; i < op.numResults(); ++i)
      out.push_back(shardingBypassingBarriers(op.result(i)));
    return out;
  }

  bool checkTransition(const ir::Op& op, const std::vector<std::optional<TensorSharding>>& operands,
                       const std::vector<std::optional<TensorSharding>>& results,
                       const UnreducedTransitionRules& rules) {
    auto pointers = [](const std::vector<std::optional<TensorSharding>>& list) {
      std::vector<const TensorSharding*> out;
      for (const auto& s : list) out.push_back(s ? &*s : nullptr);
      return out;
    };
    std::string error =
        checkUnreducedAxesTransition(pointers(operands), pointers(results), rules,
                                     [&](const MeshRef& ref) { return meshOf(ref); });
    return error.empty() || fail(op, error);
  }

  const Mesh* meshOf(const MeshRef& ref) const {
    if (ref.inlineMesh) return &*ref.inlineMesh;
    return module_.lookupMesh(ref.name);
  }

  bool fail(const ir::Op& op, const std::string& message) {
    diags_.error(op.loc(), "'" + op.name() + "' op " + message);
    return false;
  }

  bool verifyExplicitReshard(ir::Op& op) {
    std::optional<TensorSharding> source = shardingBypassingBarriers(op.operand(0));
    if (!source) return true;
    return checkTransition(op, {source}, {util::getSharding(op.result(0))},
                           {"sum", source->unreducedReduction});
  }

  bool verifySdyReduction(ir::Op& op) {
    std::optional<TensorSharding> operand = shardingBypassingBarriers(op.operand(0));
    if (!operand) return fail(op, "operand must be sharded.");
    return checkTransition(op, {operand}, {util::getSharding(op.result(0))},
                           {{}, collectiveReduction(op)});
  }

  bool verifyStablehloReduction(ir::Op& op) {
    std::optional<TensorSharding> operand = shardingBypassingBarriers(op.operand(0));
    std::optional<TensorSharding> result = shardingBypassingBarriers(op.result(0));
    if (!operand && !result) return true;
    return checkTransition(op, {operand}, {result}, {{}, regionReduction(op)});
  }

  bool verifyReduce(ir::Op& op) {
    // Operands are the inputs, then as many init values.
    return checkTransition(op, operandShardings(op, op.numResults()), resultShardings(op),
                           {regionReduction(op), {}});
  }

  // Both sides of a call boundary must name the same unreduced axes.
  bool verifyEqualAxes(const ir::Op& op, const std::optional<TensorSharding>& source,
                       const std::optional<TensorSharding>& target, const std::string& where) {
    AxisRefList from = source ? source->unreduced : AxisRefList{};
    AxisRefList to = target ? target->unreduced : AxisRefList{};
    auto key = [](const AxisRefList& axes) {
      std::set<std::string> out;
      for (const AxisRef& a : axes) out.insert(a.str());
      return out;
    };
    if (key(from) == key(to)) return true;
    std::set<std::string> names;  // sorted, unique
    for (const AxisRef& a : from)
      if (std::find(to.begin(), to.end(), a) == to.end()) names.insert(a.name);
    for (const AxisRef& a : to)
      if (std::find(from.begin(), from.end(), a) == from.end()) names.insert(a.name);
    std::string joined;
    for (const std::string& n : names) joined += (joined.empty() ? "" : ", ") + n;
    return fail(op, "has unreduced axes mismatch for '" + joined + where);
  }

  bool verifyCall(ir::Op& call) {
    ir::Op* callee = symbols_.lookupFunc(util::calleeOf(call));
    if (!callee) return true;
    for (unsigned i = 0; i < call.numOperands(); ++i) {
      if (definedByExplicitReshard(call.operand(i))) continue;
      if (!verifyEqualAxes(call, shardingBypassingBarriers(call.operand(i)),
                           util::funcArgSharding(*callee, i),
                           "' at call argument " + std::to_string(i) + "."))
        return false;
    }
    for (unsigned i = 0; i < call.numResults(); ++i)
      if (!verifyEqualAxes(call, util::funcResultSharding(*callee, i),
                           shardingBypassingBarriers(call.result(i)),
                           "' at call result " + std::to_string(i) + "."))
        return false;
    return true;
  }

  // A returned value must carry the unreduced axes its function (or region
  // op) result declares, unless an explicit reshard made it.
  bool verifyReturn(ir::Op& ret) {
    ir::Op* parent = ret.parentOp();
    if (!parent) return true;
    bool inFunction = util::isFuncOp(*parent);
    for (unsigned i = 0; i < ret.numOperands(); ++i) {
      std::optional<TensorSharding> declared;
      if (inFunction) {
        declared = util::funcResultSharding(*parent, i);
      } else {
        if (i >= parent->numResults()) continue;
        declared = shardingBypassingBarriers(parent->result(i));
        if (declared && parent->is("sdy.manual_computation"))
          declared = util::eraseManualAxes(*declared, util::manualAxesOf(*parent));
      }
      if (definedByExplicitReshard(ret.operand(i)) || !declared) continue;
      if (!verifyEqualAxes(
              ret, shardingBypassingBarriers(ret.operand(i)), declared,
              "' at return value " + std::to_string(i) +
                  " without a blessed operation (e.g., sdy.reshard). This is an invalid "
                  "transition from unreduced to reduced."))
        return false;
    }
    return true;
  }

  ir::Module& module_;
  ir::DiagnosticSink& diags_;
  util::SymbolTable symbols_;
};

// Whether a sharding anywhere in `module` (on an op, in a function's
// argument or result attributes, nested in arrays and dictionaries) names
// unreduced axes.
bool anyUnreducedAxes(ir::Module& module) {
  bool any = false;
  auto visit = [&](const ir::Attribute& attr, auto& self) -> void {
    if (any) return;
    if (const auto* s = attr.as<TensorSharding>()) {
      any = !s->unreduced.empty();
    } else if (const auto* pv = attr.as<TensorShardingPerValue>()) {
      for (const TensorSharding& one : pv->shardings) any |= !one.unreduced.empty();
    } else if (const ir::ArrayAttr* array = attr.array()) {
      for (const ir::Attribute& e : array->elems) self(e, self);
    } else if (const ir::DictionaryAttr* dict = attr.dict()) {
      for (const auto& entry : dict->entries) self(entry.second, self);
    }
  };
  module.op->walkPreOrder([&](ir::Op& op) {
    for (const ir::Op::Attr& a : op.attrs()) visit(a.value, visit);
    return !any;
  });
  return any;
}

}  // namespace

bool verifyUnreducedAxes(ir::Module& module, ir::DiagnosticSink& diags) {
  // Without unreduced axes every transition and call boundary agrees (there
  // is nothing to drop, add or hand over); only an sdy reduction may still
  // fail (its operand must be sharded). One look at the attributes is a
  // fraction of checking each op (a million-op module has none of either).
  if (!ir::Op::anyLive("sdy.all_reduce") && !ir::Op::anyLive("sdy.reduce_scatter") &&
      !anyUnreducedAxes(module))
    return true;
  Verifier verifier(module, diags);
  bool ok = true;
  for (ir::Op* func : module.functions()) ok &= verifier.verifyFunction(*func);
  return ok;
}

}  // namespace shardscope::passes
