// Module verification: the sdy invariants, reported with sdy_opt's wording.
#include "verifier/verifier.h"

#include <algorithm>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <span>
#include <thread>
#include <unordered_map>

#include "verifier/dominance.h"
#include "verifier/stablehlo_ops.h"

#include "ir/collective_ops.h"
#include "sharding/unreduced_axes_transition.h"
#include "verifier/collective_verifier.h"
#include "verifier/propagation_edges_verifier.h"
#include "verifier/verifier_support.h"

namespace shardscope {

namespace {

using ir::Op;
using ir::Type;
using verifier_support::MeshTable;
using verifier_support::sameMesh;
using verifier_support::sortedInMesh;
using verifier_support::verifyAxisList;

using verifier_support::problem;
using verifier_support::problemAt;

// `'tensor<4x8xf32>'`: MLIR quotes types inside diagnostics.
std::string quoted(const Type& type) { return "'" + type.str() + "'"; }

// `n` in decimal (std::to_string has no 128-bit overload).
std::string decimal(unsigned __int128 n) {
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(n % 10)));
    n /= 10;
  } while (n != 0);
  return digits;
}

std::string joinInts(const std::vector<int64_t>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(values[i]);
  }
  return out;
}

// Sub-axes of one mesh axis, sorted: each a proper, in-range slice, and no
// two of them overlapping.
VerifyResult verifySubAxesOf(const std::string& name, std::vector<AxisRef> subAxes,
                             const Mesh& mesh, const std::vector<AxisRef>& seen) {
  if (subAxes.empty()) return std::nullopt;
  if (std::find(seen.begin(), seen.end(), AxisRef{name, std::nullopt}) != seen.end())
    return problem("both sub-axis and full-axis are used for axis name: \"" + name + "\"");
  std::stable_sort(subAxes.begin(), subAxes.end(),
                   [&](const AxisRef& a, const AxisRef& b) { return a.lessInMesh(b, mesh); });
  const int64_t axisSize = mesh.axisSize(name);
  int64_t coveredUpTo = 1;  // next pre-size of the previous sub-axis
  const AxisRef* previous = nullptr;
  for (const AxisRef& axis : subAxes) {
    const SubAxisInfo& info = *axis.subAxis;
    if (info.preSize < 1) return problemAt("sub-axis pre-size must be at least 1: " + axis.str(), axis.str());
    if (info.size <= 1) return problemAt("sub-axis sizes must be greater than 1: " + axis.str(), axis.str());
    // Both factors are at least 1 here, so the exact product fits in 128
    // bits; one beyond int64 divides no axis size.
    const unsigned __int128 next = static_cast<unsigned __int128>(info.preSize) * info.size;
    if (next > static_cast<unsigned __int128>(axisSize) || axisSize % static_cast<int64_t>(next) != 0)
      return problemAt("sub-axis next pre-size " + decimal(next) +
                           " doesn't divide the size of the full axis " + std::to_string(axisSize) +
                           ": " + axis.str(),
                       axis.str());
    if (info.size == axisSize)
      return problemAt("sub-axis size is equal to the full axis size: " + axis.str(), axis.str());
    if (previous && coveredUpTo > info.preSize)
      return problemAt("overlapping sub-axes: " + previous->str() + ", " + axis.str(), axis.str());
    coveredUpTo = info.nextPreSize();
    previous = &axis;
  }
  return std::nullopt;
}

bool allDimsEmpty(const TensorSharding& sharding) {
  return std::all_of(sharding.dims.begin(), sharding.dims.end(),
                     [](const DimensionSharding& d) { return d.axes.empty(); });
}

bool rankZeroWithoutAxes(const TensorSharding& sharding) {
  return sharding.dims.empty() && sharding.replicated.empty() && sharding.unreduced.empty();
}

const char* kBoundAxisNote = "parent bounding this axis as manual";

VerifyProblem boundAxisProblem(const std::string& axis, const Op& owner) {
  return VerifyProblem{"operates on axis \"" + axis +
                           "\" which is already bound by a parent sdy.manual_computation op",
                       {{owner.loc(), kBoundAxisNote}}};
}

// Shardings of the values of one op (results, operands, block arguments),
// one per value. Messages about value i start with `- ` when there is a
// single value and with `i - ` otherwise. An op without values may carry one
// maximal or replicated sharding.
VerifyResult verifyShardingsPerValue(const std::vector<TensorSharding>& shardings,
                                     const std::vector<Type>& types, const MeshTable& meshes,
                                     const BoundManualAxes& bound) {
  auto prefixed = [&](VerifyProblem p, size_t index) {
    p.message = (types.size() == 1 ? std::string("- ") : std::to_string(index) + " - ") + p.message;
    p.at.element = index;
    return p;
  };
  if (types.empty() && shardings.size() == 1) {
    const TensorSharding& only = shardings.front();
    const Mesh* mesh = meshes.of(only);
    if ((mesh && mesh->isMaximal()) || allDimsEmpty(only)) {
      if (VerifyResult r = verifyTensorSharding(only, nullptr, mesh, bound))
        return prefixed(std::move(*r), 0);
      return std::nullopt;
    }
  }
  if (shardings.size() != types.size())
    return problem("shardings don't match number of values: " + std::to_string(shardings.size()) +
                   " shardings vs " + std::to_string(types.size()) + " values");
  for (size_t i = 0; i < shardings.size(); ++i) {
    if (VerifyResult r = verifyTensorSharding(shardings[i], &types[i], meshes.of(shardings[i]), bound))
      return prefixed(std::move(*r), i);
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------
// Op sharding rules.

// Mappings of the operands or the results (`kind`) against their types.
VerifyResult verifyRuleMappings(const std::vector<TensorFactorMapping>& mappings,
                                const std::vector<Type>& types,
                                const std::vector<int64_t>& factorSizes, const std::string& kind,
                                std::vector<bool>& used) {
  if (types.size() != mappings.size())
    return problem("number of " + kind + "s and mappings must match: " +
                   std::to_string(types.size()) + " != " + std::to_string(mappings.size()));
  if (mappings.empty())
    return problem("number of " + kind +
                   "s mappings cannot be 0. Op sharding rules can only be defined on operations "
                   "with at least one operand and result.");
  const int64_t numFactors = static_cast<int64_t>(factorSizes.size());
  for (size_t index = 0; index < mappings.size(); ++index) {
    const std::string prefix =
        kind + " " + (types.size() == 1 ? std::string("- ") : std::to_string(index) + " - ");
    const Type& type = types[index];
    if (!type.isRankedTensor() || !type.hasStaticShape())
      return problem(prefix + "expected a ranked tensor with a static shape. type: " + quoted(type));
    const TensorFactorMapping& mapping = mappings[index];
    if (static_cast<int64_t>(mapping.dims.size()) != type.rank())
      return problem(prefix + "mapping rank must match: " + std::to_string(mapping.dims.size()) +
                     " != " + std::to_string(type.rank()));
    std::vector<bool> usedHere(factorSizes.size(), false);
    for (const std::vector<int64_t>& dim : mapping.dims) {
      if (dim.empty()) return problem(prefix + "dim mapping must have at least one factor");
      for (int64_t factor : dim) {
        if (factor < 0 || factor >= numFactors)
          return problem(prefix +
                         "expecting factor indices to be within 0<=...<num_factors; received: " +
                         std::to_string(factor) + ", num_factors: " + std::to_string(numFactors));
        if (usedHere[static_cast<size_t>(factor)])
          return problem(prefix + "cannot reuse factors for the same tensor value");
        if (factorSizes[static_cast<size_t>(factor)] == 1 && dim.size() > 1)
          return problem(prefix +
                         "dim mapping can't have a factor of size 1 if there are multiple factors");
        usedHere[static_cast<size_t>(factor)] = true;
        used[static_cast<size_t>(factor)] = true;
      }
    }
  }
  return std::nullopt;
}

VerifyResult verifyFactorSet(const std::vector<int64_t>& indices, int64_t numFactors) {
  if (indices.empty()) return std::nullopt;
  if (!std::is_sorted(indices.begin(), indices.end()))
    return problem("indices of special factors must be sorted");
  if (std::adjacent_find(indices.begin(), indices.end()) != indices.end())
    return problem("indices of special factors must be unique");
  if (indices.front() < 0) return problem("index must be non-negative");
  if (indices.back() >= numFactors)
    return problem("index must be less than " + std::to_string(numFactors) +
                   ", got: " + std::to_string(indices.back()));
  return std::nullopt;
}

// ---------------------------------------------------------------------------
// Module walk.

std::vector<Type> typesOf(std::span<ir::Value* const> values) {
  std::vector<Type> out;
  out.reserve(values.size());
  for (const ir::Value* v : values) out.push_back(v->type);
  return out;
}

std::vector<Type> resultTypes(const Op& op) { return typesOf(op.results()); }
std::vector<Type> operandTypes(const Op& op) { return typesOf(op.operands()); }

const Op* terminatorOfRegion(const Op& op, unsigned region) {
  if (op.numRegions() <= region || op.region(region).empty()) return nullptr;
  return op.region(region).front().terminator();
}

// The values the body of `op` yields (operands of its region's terminator).
std::vector<Type> yieldedTypes(const Op& op) {
  const Op* terminator = terminatorOfRegion(op, 0);
  return terminator ? operandTypes(*terminator) : std::vector<Type>{};
}

std::vector<Type> entryArgTypes(const Op& op) {
  if (op.numRegions() == 0 || op.region(0).empty()) return {};
  return typesOf(op.region(0).front().arguments());
}

// Result types of a function: the operands of its `func.return`.
std::optional<std::vector<Type>> functionResultTypes(const Op& func) {
  if (func.numRegions() == 0) return std::nullopt;
  for (const auto& block : func.region(0).blocks()) {
    const Op* terminator = block->terminator();
    if (terminator && terminator->is("func.return")) return operandTypes(*terminator);
  }
  return std::nullopt;
}

bool isIsolatedOp(const Op& op) {
  return op.is("func.func") || op.is("sdy.manual_computation") || op.is("sdy.named_computation");
}

// The sharding a value carries (function argument attributes, the in
// shardings of a manual computation without its manual axes or of a named
// computation, constraint/edge/collective shardings, `sdy.sharding`), looking
// through propagation barriers when `bypassBarriers`.
std::optional<TensorSharding> shardingOfValue(const ir::Value* value, bool bypassBarriers = true) {
  while (bypassBarriers && value && value->definingOp &&
         value->definingOp->is("sdy.propagation_barrier") && value->definingOp->numOperands() > 0)
    value = value->definingOp->operand(0);
  if (!value) return std::nullopt;
  if (value->isBlockArgument()) {
    const Op* owner = value->ownerOp();
    if (!owner) return std::nullopt;
    if (owner->is("sdy.manual_computation") || owner->is("sdy.named_computation")) {
      const ir::Attribute* in = owner->attr("in_shardings");
      const auto* list = in ? in->as<TensorShardingPerValue>() : nullptr;
      if (!list || value->index >= list->shardings.size()) return std::nullopt;
      TensorSharding s = list->shardings[value->index];
      if (owner->is("sdy.manual_computation")) {
        std::vector<std::string> manual;
        if (const ir::Attribute* m = owner->attr("manual_axes"))
          if (const auto* axes = m->as<ir::ManualAxesAttr>()) manual = axes->axes;
        auto isManual = [&](const AxisRef& a) {
          return std::find(manual.begin(), manual.end(), a.name) != manual.end();
        };
        for (DimensionSharding& d : s.dims) std::erase_if(d.axes, isManual);
        std::erase_if(s.replicated, isManual);
        std::erase_if(s.unreduced, isManual);
      }
      return s;
    }
    if (!owner->is("func.func")) return std::nullopt;
    const ir::Attribute* argAttrs = owner->attr("arg_attrs");
    const ir::ArrayAttr* array = argAttrs ? argAttrs->array() : nullptr;
    if (!array || value->index >= array->elems.size()) return std::nullopt;
    const ir::DictionaryAttr* dict = array->elems[value->index].dict();
    const ir::Attribute* s = dict ? dict->get("sdy.sharding") : nullptr;
    if (s && s->as<TensorSharding>()) return *s->as<TensorSharding>();
    return std::nullopt;
  }
  const Op* op = value->definingOp;
  if (op->is("sdy.sharding_constraint") || op->is("sdy.reshard") || op->is("sdy.data_flow_edge")) {
    const ir::Attribute* s = op->attr("sharding");
    if (s && s->as<TensorSharding>()) return *s->as<TensorSharding>();
    return std::nullopt;
  }
  if (ir::isCollective(*op)) {
    if (const TensorSharding* out = ir::outShardingOf(*op)) return *out;
    return std::nullopt;
  }
  const char* perValueName =
      (op->is("sdy.manual_computation") || op->is("sdy.named_computation")) ? "out_shardings"
                                                                            : "sdy.sharding";
  const ir::Attribute* s = op->attr(perValueName);
  if (s && s->as<TensorShardingPerValue>()) {
    const auto& shardings = s->as<TensorShardingPerValue>()->shardings;
    if (value->index < shardings.size()) return shardings[value->index];
  }
  return std::nullopt;
}

// The sharding of `value` as the propagation edges checks read it (sdy's
// getSharding): the sharding of the data-flow edge that is the single user
// of an edge owner, else the value's own, not looking through barriers.
std::optional<TensorSharding> shardingForEdges(const ir::Value* value) {
  if (value && value->hasOneUse()) {
    const Op* user = value->uses().front().user;
    const Op* owner = value->ownerOp();
    const bool edgeOwner =
        owner && (owner->is("stablehlo.while") || owner->is("stablehlo.case") ||
                  owner->is("stablehlo.optimization_barrier") ||
                  owner->is("sdy.manual_computation") || owner->is("sdy.named_computation"));
    if (edgeOwner && user && user->is("sdy.data_flow_edge") &&
        (value->definingOp || !owner->is("stablehlo.while"))) {
      const ir::Attribute* s = user->attr("sharding");
      if (s && s->as<TensorSharding>()) return *s->as<TensorSharding>();
      return std::nullopt;
    }
  }
  return shardingOfValue(value, /*bypassBarriers=*/false);
}

class Verifier {
 public:
  Verifier(const ir::Module& module, ir::DiagnosticSink& diags, const ir::AttributeSites* sites,
           SitePlacement placement)
      : module_(module), diags_(diags), meshes_(module), sites_(sites), placement_(placement) {}

  bool run() {
    const int before = diags_.errorCount();
    if (opsInTopLevelBlocks() >= kTwoThreadOps) {
      if (!runOnTwoThreads()) return false;
    } else {
      // 1. What MLIR rejects while reading the text: malformed meshes, result
      //    types that disagree with the inferred ones. The reader stops at the
      //    first such problem.
      if (!checkWhileParsing()) return false;
      // 2. Each top-level op on its own (functions are isolated: one error each).
      for (const auto& op : module_.body().ops()) verifyOp(*op);
    }
    if (diags_.errorCount() != before) return false;
    // 3. Symbol users, once everything else is valid.
    verifySymbolUses();
    return diags_.errorCount() == before;
  }

 private:
  // The error at `op` (or, placed there, at `site`: where in one of its
  // attributes the problem is), its notes, and a note at `site` otherwise.
  void emit(const Op& op, const std::string& message, const std::vector<VerifyNote>& notes = {},
            const ir::SourceLoc& site = {}, const std::string& siteNote = {}) {
    const bool atSite = site.known() && placement_ == SitePlacement::Error;
    diags_.error(atSite ? site : op.loc(), message);
    if (site.known() && !atSite) diags_.note(site, siteNote);
    for (const VerifyNote& note : notes) diags_.note(note.loc, note.message);
  }
  // `'op.name' op <message>`; with `attr`, the attribute of `op` the problem
  // is in (pointed at when the reader's sites are known).
  void emitOpError(const Op& op, const std::string& prefix, const VerifyProblem& p,
                   const std::string& attr = {}) {
    emit(op, "'" + op.name() + "' op " + prefix + p.message, p.notes, siteOf(op, attr, p),
         siteNote(attr, p));
  }
  ir::SourceLoc siteOf(const Op& op, const std::string& attr, const VerifyProblem& p) const {
    if (!sites_ || attr.empty()) return {};
    return sites_->locate(op.loc(), attr, p.at);
  }
  // `at "c" in 'sdy.sharding' of argument 0`.
  static std::string siteNote(const std::string& attr, const VerifyProblem& p) {
    std::string where = "'" + attr + "'";
    for (const auto& [kind, word] : {std::pair<std::string, std::string>{"arg_attrs/", "argument"},
                                     {"res_attrs/", "result"}}) {
      if (attr.rfind(kind, 0) != 0) continue;
      const size_t slash = attr.find('/', kind.size());
      if (slash != std::string::npos)
        where = "'" + attr.substr(slash + 1) + "' of " + word + " " +
                attr.substr(kind.size(), slash - kind.size());
    }
    if (p.at.element) where = "sharding " + std::to_string(*p.at.element) + " of " + where;
    return p.at.token.empty() ? "in " + where : "at " + p.at.token + " in " + where;
  }

  // --- 1 and 2 on two threads ----------------------------------------------

  // From this many ops in the blocks of the top-level ops (a large model's
  // @main) the checks are shared with a second thread.
  static constexpr size_t kTwoThreadOps = 16384;

  size_t opsInTopLevelBlocks() const {
    size_t n = 0;
    for (const auto& op : module_.body().ops())
      for (const auto& region : op->regions())
        for (const auto& block : region->blocks()) n += block->ops().size();
    return n;
  }

  // Steps 1 and 2 as run() does them one after the other, with the same
  // diagnostics in the same order: a second verifier (its own sink and
  // memos) runs step 1 and then the region isolation check that ends each
  // top-level op's step 2 (verifyOpExit, a walk of the whole function),
  // while this one runs the rest of step 2 (verifyOpInside: the entry checks
  // with the dominance check, and the nested ops). Each reads the module
  // only; the dominance check's position tags on the ops are read by
  // nothing the other side runs. Afterwards the diagnostics are put
  // together as the sequential order would have them: only step 1's when it
  // failed; else per top-level op its inside problems, or when there were
  // none its isolation problem.
  bool runOnTwoThreads() {
    std::vector<const Op*> tops;
    for (const auto& op : module_.body().ops()) tops.push_back(op.get());
    ir::DiagnosticSink sideSink;
    bool parsedOk = true;
    std::vector<size_t> exitEnds(tops.size(), 0);  // sideSink's size after each exit check
    std::exception_ptr sideFailure;
    std::thread side([&] {
      try {
        Verifier other(module_, sideSink, sites_, placement_);
        parsedOk = other.checkWhileParsing();
        if (!parsedOk) return;
        for (size_t i = 0; i < tops.size(); ++i) {
          other.verifyOpExit(*tops[i]);
          exitEnds[i] = sideSink.all().size();
        }
      } catch (...) {
        sideFailure = std::current_exception();
      }
    });
    const size_t start = diags_.all().size();
    std::vector<size_t> insideEnds(tops.size(), 0);  // diags_'s size after each top-level op
    std::vector<char> insideOk(tops.size(), 0);
    try {
      for (size_t i = 0; i < tops.size(); ++i) {
        insideOk[i] = verifyOpInside(*tops[i]);
        insideEnds[i] = diags_.all().size();
      }
    } catch (...) {
      side.join();
      throw;
    }
    side.join();
    if (sideFailure) std::rethrow_exception(sideFailure);
    const std::vector<ir::Diagnostic> inside(diags_.all().begin() + static_cast<std::ptrdiff_t>(start),
                                             diags_.all().end());
    diags_.truncate(start);
    auto append = [&](const std::vector<ir::Diagnostic>& from, size_t begin, size_t end) {
      for (size_t k = begin; k < end; ++k) diags_.add(from[k].severity, from[k].loc, from[k].message);
    };
    const std::vector<ir::Diagnostic>& sideDiags = sideSink.all();
    if (!parsedOk) {
      append(sideDiags, 0, sideDiags.size());
      return false;
    }
    size_t insideAt = 0, exitAt = 0;
    for (size_t i = 0; i < tops.size(); ++i) {
      const size_t insideEnd = insideEnds[i] - start;
      append(inside, insideAt, insideEnd);
      if (insideOk[i]) append(sideDiags, exitAt, exitEnds[i]);
      insideAt = insideEnd;
      exitAt = exitEnds[i];
    }
    return true;
  }

  // --- 1. parse-time checks ------------------------------------------------

  bool checkWhileParsing() {
    bool ok = true;
    module_.op->walkPreOrder([&](Op& op) {
      if (!ok) return false;
      if (!checkOpWhileParsing(op)) ok = false;
      return ok;
    });
    return ok;
  }

  // Calls `fn` on every sharding an op's attributes hold, nested ones included.
  static void forEachSharding(const Op& op, const std::function<void(const TensorSharding&)>& fn) {
    auto visit = [&](const ir::Attribute& attr, auto& self) -> void {
      if (const auto* s = attr.as<TensorSharding>()) fn(*s);
      if (const auto* pv = attr.as<TensorShardingPerValue>())
        for (const TensorSharding& s : pv->shardings) fn(s);
      if (const ir::ArrayAttr* array = attr.array())
        for (const ir::Attribute& e : array->elems) self(e, self);
      if (const ir::DictionaryAttr* dict = attr.dict())
        for (const auto& [name, e] : dict->entries) self(e, self);
    };
    for (const Op::Attr& a : op.attrs()) visit(a.value, visit);
  }

  bool checkOpWhileParsing(const Op& op) {
    if (op.is("sdy.mesh")) {
      const ir::Attribute* attr = op.attr("mesh");
      const Mesh* mesh = attr ? attr->as<Mesh>() : nullptr;
      if (mesh) {
        if (VerifyResult r = verifyMesh(*mesh)) {
          emit(op, "custom op 'sdy.mesh' " + r->message, {}, siteOf(op, "mesh", *r),
               siteNote("mesh", *r));
          if (r->message.rfind("axis size must be at least 1", 0) == 0)
            emit(op,
                 "custom op 'sdy.mesh' failed to parse Sdy_Mesh parameter 'axes' which is to be a "
                 "`::llvm::ArrayRef<MeshAxisAttr>`");
          return false;
        }
      }
    }
    bool ok = true;
    forEachSharding(op, [&](const TensorSharding& s) {
      if (!ok || !s.mesh.inlineMesh) return;
      if (VerifyResult r = verifyMesh(*s.mesh.inlineMesh)) {
        emit(op, r->message);
        ok = false;
      }
    });
    if (!ok) return false;
    if (op.is("sdy.constant") && op.numResults() == 1) {
      const Type& type = op.result(0)->type;
      if (type.isTensor() && (type.unranked || !type.hasStaticShape())) {
        emit(op, "elements literal type must have static shape");
        return false;
      }
    }
    if (op.is("sdy.named_computation")) {
      std::vector<Type> inferred = yieldedTypes(op);
      std::vector<Type> declared = resultTypes(op);
      if (terminatorOfRegion(op, 0) && inferred != declared) {
        auto list = [](const std::vector<Type>& types) {
          std::string out;
          for (size_t i = 0; i < types.size(); ++i) out += (i ? ", " : "") + quoted(types[i]);
          return out;
        };
        emit(op, "'sdy.named_computation' op inferred type(s) " + list(inferred) +
                     " are incompatible with return type(s) of operation " + list(declared));
        emit(op, "'sdy.named_computation' op failed to infer returned types");
        return false;
      }
    }
    return true;
  }

  // --- 2. per-op checks ----------------------------------------------------

  // Entry checks, nested ops, exit checks; false at the first problem.
  bool verifyOp(const Op& op) { return verifyOpInside(op) && verifyOpExit(op); }
  // The entry checks and the nested ops.
  bool verifyOpInside(const Op& op) {
    if (!verifyOpEntry(op)) return false;
    for (const auto& region : op.regions())
      for (const auto& block : region->blocks())
        for (const auto& nested : block->ops())
          if (!verifyOp(*nested)) return false;
    return true;
  }

  bool verifyOpEntry(const Op& op) {
    // Discardable sdy attributes, in name order as MLIR's dictionary holds them.
    std::vector<const Op::Attr*> discardable;
    for (const Op::Attr& a : op.attrs())
      if (!a.inherent) discardable.push_back(&a);
    std::sort(discardable.begin(), discardable.end(),
              [](const Op::Attr* a, const Op::Attr* b) { return a->name < b->name; });
    for (const Op::Attr* a : discardable) {
      if (a->name == "sdy.sharding") {
        const auto* perValue = a->value.as<TensorShardingPerValue>();
        if (!perValue) {
          emitOpError(op, "", problem("should have a sharding attribute of type "
                                      "TensorShardingPerValueAttr"));
          return false;
        }
        BoundManualAxes bound = boundManualAxesAround(op);
        if (bound.empty() && foundValidBefore(*perValue, op)) continue;
        std::vector<Type> types = resultTypes(op);
        if (VerifyResult r = verifyShardingsPerValue(perValue->shardings, types, meshes_, bound)) {
          emitOpError(op, "result ", *r, "sdy.sharding");
          return false;
        }
        if (bound.empty()) {
          // A few type lists per sharding list: the search stays short.
          auto& known = validShardings_[perValue];
          if (known.size() < 8) known.push_back(std::move(types));
        }
      } else if (a->name == "sdy.sharding_rule") {
        const auto* rule = a->value.as<OpShardingRule>();
        if (!rule) {
          emitOpError(op, "", problem("should have a sharding rule attribute of type "
                                      "OpShardingRuleAttr for attr named 'sdy.sharding_rule'"));
          return false;
        }
        if (VerifyResult r = verifyOpShardingRule(*rule, operandTypes(op), resultTypes(op))) {
          emitOpError(op, "", *r, "sdy.sharding_rule");
          return false;
        }
      } else if (a->name == "sdy.propagation_edges") {
        const auto* edges = a->value.as<ir::PropagationEdgesAttr>();
        if (!edges) {
          emitOpError(op, "", problem("should have a propagation edges attribute of type "
                                      "PropagationEdgesAttr for attr named 'sdy.propagation_edges'"));
          return false;
        }
        if (VerifyResult r = verifyPropagationEdges(*edges, op, shardingForEdges, meshes_)) {
          emitOpError(op, "", *r);
          return false;
        }
      } else if (a->name == "sdy.result_propagation_edges" ||
                 a->name == "sdy.block_arg_propagation_edges") {
        const ir::ArrayAttr* list = a->value.array();
        const bool wellTyped =
            list && std::all_of(list->elems.begin(), list->elems.end(), [](const ir::Attribute& e) {
              return e.is<ir::PropagationEdgesAttr>();
            });
        if (!wellTyped) {
          emitOpError(op, "",
                      problem("should have a propagation edges attribute of type "
                              "ArrayAttr<PropagationEdgesAttr> for attr named "
                              "'sdy.result_propagation_edges' or 'sdy.block_arg_propagation_edges'"));
          return false;
        }
      }
    }

    if (std::vector<std::string> errors = verifier::stablehloOpErrors(op); !errors.empty()) {
      for (const std::string& e : errors) emit(op, e);
      return false;
    }
    if (op.is("func.func")) {
      if (std::optional<verifier::DominanceError> e = verifier::firstNonDominatingUse(op)) {
        emit(*e->use, e->message, {e->note});
        return false;
      }
      return verifyFunctionAttrs(op);
    }
    if (ir::isCollective(op)) {
      if (VerifyResult r = verifyCollectiveCommon(op, collectiveOperand(op), meshes_,
                                                  boundManualAxesAround(op))) {
        emitOpError(op, "", *r);
        return false;
      }
      return true;
    }
    if (op.is("sdy.propagation_barrier")) {
      const ir::Attribute* dir = op.attr("allowed_direction");
      const ir::EnumAttr* e = dir ? dir->as<ir::EnumAttr>() : nullptr;
      std::string value = e ? e->value : (dir && dir->string() ? *dir->string() : "");
      if (value == "BOTH") {
        emitOpError(op, "", problem("cannot specify `BOTH` as the direction. Not blocking "
                                    "propagation direction makes the op redundant."));
        return false;
      }
    }
    if (op.is("sdy.manual_computation")) {
      BoundManualAxes bound = boundManualAxesAround(op);
      for (const std::string& axis : manualAxesOf(op)) {
        for (const auto& [name, owner] : bound) {
          if (name == axis) {
            emitOpError(op, "", boundAxisProblem(axis, *owner));
            return false;
          }
        }
      }
    }
    return true;
  }

  // Shardings on function arguments and results.
  bool verifyFunctionAttrs(const Op& func) {
    auto check = [&](const char* attrName, const std::vector<Type>& types,
                     const char* kind) -> bool {
      const ir::Attribute* attr = func.attr(attrName);
      const ir::ArrayAttr* array = attr ? attr->array() : nullptr;
      if (!array) return true;
      for (size_t i = 0; i < array->elems.size(); ++i) {
        const ir::DictionaryAttr* dict = array->elems[i].dict();
        const ir::Attribute* s = dict ? dict->get("sdy.sharding") : nullptr;
        if (!s) continue;
        const std::string prefix = std::string(kind) + " " + std::to_string(i) + " - ";
        const auto* sharding = s->as<TensorSharding>();
        if (!sharding) {
          emitOpError(func, prefix,
                      problem("should have a sharding attribute of type TensorShardingAttr"));
          return false;
        }
        if (i >= types.size()) continue;  // type unknown (no body)
        if (VerifyResult r = verifyTensorSharding(*sharding, &types[i], meshes_.of(*sharding))) {
          emitOpError(func, prefix, *r, ir::argAttrKey(attrName, i, "sdy.sharding"));
          return false;
        }
      }
      return true;
    };
    if (!check("arg_attrs", entryArgTypes(func), "arg")) return false;
    return check("res_attrs", functionResultTypes(func).value_or(std::vector<Type>{}), "result");
  }

  // Isolated ops may only use values defined inside them.
  bool verifyOpExit(const Op& op) {
    if (!isIsolatedOp(op)) return true;
    bool ok = true;
    const_cast<Op&>(op).walkPreOrder([&](Op& nested) {
      if (!ok) return false;
      if (&nested == &op) return true;
      for (const ir::Value* v : nested.operands()) {
        const Op* owner = v ? v->ownerOp() : nullptr;
        if (owner && !op.isAncestorOf(owner)) {
          emit(nested, "'" + nested.name() + "' op using value defined outside the region",
               {{op.loc(), "required by region isolation constraints"}});
          ok = false;
          return false;
        }
      }
      return true;
    });
    return ok;
  }

  static std::vector<std::string> manualAxesOf(const Op& op) {
    const ir::Attribute* attr = op.attr("manual_axes");
    if (!attr) return {};
    if (const auto* m = attr->as<ir::ManualAxesAttr>()) return m->axes;
    if (const auto* l = attr->as<ir::AxisRefListAttr>()) {
      std::vector<std::string> out;
      for (const AxisRef& a : l->axes) out.push_back(a.name);
      return out;
    }
    return {};
  }

  // --- 3. symbol users -----------------------------------------------------

  // The ops this phase checks, each with its check.
  using SymbolUserCheck = bool (Verifier::*)(const Op&);
  struct SymbolUser {
    const char* name;
    SymbolUserCheck check;
  };
  static const std::vector<SymbolUser>& symbolUsers() {
    static const std::vector<SymbolUser> users = {
        {"sdy.sharding_constraint", &Verifier::verifyConstraint},
        {"sdy.reshard", &Verifier::verifyConstraint},
        {"sdy.data_flow_edge", &Verifier::verifyDataFlowEdge},
        {"sdy.func_data_flow_edge", &Verifier::verifyFuncDataFlowEdge},
        {"sdy.manual_computation", &Verifier::verifyManualComputation},
        {"sdy.named_computation", &Verifier::verifyNamedComputation},
        {"sdy.all_gather", &Verifier::verifyCollective},
        {"sdy.all_slice", &Verifier::verifyCollective},
        {"sdy.all_to_all", &Verifier::verifyCollective},
        {"sdy.collective_permute", &Verifier::verifyCollective},
        {"sdy.all_reduce", &Verifier::verifyCollective},
        {"sdy.reduce_scatter", &Verifier::verifyCollective},
        {"sdy.sharded_to_unreduced", &Verifier::verifyCollective},
        {"sdy.replicated_to_unreduced", &Verifier::verifyCollective},
        {"func.call", &Verifier::verifyCall},
    };
    return users;
  }

  // func.call against its callee, as MLIR's CallOp::verifySymbolUses.
  bool verifyCall(const Op& call) {
    const ir::Attribute* attr = call.attr("callee");
    const auto* ref = attr ? attr->as<ir::SymbolRefAttr>() : nullptr;
    if (!ref || ref->path.empty()) {
      emit(call, "'func.call' op requires a 'callee' symbol reference attribute");
      return false;
    }
    if (functionsByName_.empty())
      for (Op* f : module_.functions())
        if (const ir::Attribute* name = f->attr("sym_name"); name && name->string())
          functionsByName_.emplace(*name->string(), f);
    auto it = ref->path.size() == 1 ? functionsByName_.find(ref->root()) : functionsByName_.end();
    if (it == functionsByName_.end()) {
      emit(call, "'func.call' op '" + ref->root() + "' does not reference a valid function");
      return false;
    }
    const std::vector<Type> params = signatureTypes(*it->second, true);
    const std::vector<Type> results = signatureTypes(*it->second, false);
    if (params.size() != call.numOperands()) {
      emit(call, "'func.call' op incorrect number of operands for callee");
      return false;
    }
    for (unsigned i = 0; i < params.size(); ++i)
      if (!(call.operand(i)->type == params[i])) {
        emit(call, "'func.call' op operand type mismatch: expected operand type " + quoted(params[i]) +
                       ", but provided " + quoted(call.operand(i)->type) + " for operand number " +
                       std::to_string(i));
        return false;
      }
    if (results.size() != call.numResults()) {
      emit(call, "'func.call' op incorrect number of results for callee");
      return false;
    }
    for (unsigned i = 0; i < results.size(); ++i)
      if (!(call.result(i)->type == results[i])) {
        auto list = [](const std::vector<Type>& types) {
          std::string out;
          for (size_t j = 0; j < types.size(); ++j) out += (j ? ", " : "") + quoted(types[j]);
          return out;
        };
        emit(call, "'func.call' op result type mismatch at index " + std::to_string(i),
             {{call.loc(), "      op result types: " + list(resultTypes(call))},
              {call.loc(), "function result types: " + list(results)}});
        return false;
      }
    return true;
  }

  // The input (`inputs`) or result types of a function's `function_type`.
  static std::vector<Type> signatureTypes(const Op& func, bool inputs) {
    if (const ir::Attribute* ft = func.attr("function_type"))
      if (const auto* t = ft->as<ir::TypeAttr>(); t && t->type.kind == Type::Kind::Function)
        return inputs ? t->type.elements : t->type.results;
    if (inputs) return entryArgTypes(func);
    return functionResultTypes(func).value_or(std::vector<Type>{});
  }

  void verifySymbolUses() {
    // Without any op to check, no walk.
    const std::vector<SymbolUser>& users = symbolUsers();
    if (std::none_of(users.begin(), users.end(), [](const SymbolUser& u) { return Op::anyLive(u.name); })) return;
    bool ok = true;
    module_.op->walkPreOrder([&](Op& op) {
      if (!ok) return false;
      ok = verifySymbolUser(op);
      return ok;
    });
  }

  bool verifySymbolUser(const Op& op) {
    for (const SymbolUser& u : symbolUsers())
      if (op.is(u.name)) return (this->*u.check)(op);
    return true;
  }

  static const TensorSharding* inherentSharding(const Op& op, const char* name = "sharding") {
    const ir::Attribute* attr = op.attr(name);
    return attr ? attr->as<TensorSharding>() : nullptr;
  }
  static const TensorShardingPerValue* inherentPerValue(const Op& op, const char* name) {
    const ir::Attribute* attr = op.attr(name);
    return attr ? attr->as<TensorShardingPerValue>() : nullptr;
  }

  bool verifyConstraint(const Op& op) {
    const TensorSharding* sharding = inherentSharding(op);
    if (!sharding || op.numResults() == 0) return true;
    if (VerifyResult r = verifyTensorSharding(*sharding, &*op.result(0)->type, meshes_.of(*sharding),
                                              boundManualAxesAround(op))) {
      emitOpError(op, "", *r, "sharding");
      return false;
    }
    if (op.numOperands() == 0) return true;
    std::optional<TensorSharding> source = shardingOfValue(op.operand(0));
    if (!source) return true;
    // A constraint or reshard may add unreduced axes (as a sum) and reduce
    // them with their own reduction.
    const std::string message =
        checkUnreducedAxesTransition({&*source}, {sharding}, {"sum", source->unreducedReduction},
                                     [&](const MeshRef& ref) { return meshes_.of(ref); });
    if (!message.empty()) {
      emitOpError(op, "", problem(message));
      return false;
    }
    return true;
  }

  // A collective's operand: its sharding (barriers are not looked through)
  // and where it is defined.
  static CollectiveOperand collectiveOperand(const Op& op) {
    if (op.numOperands() == 0 || !op.operand(0)) return {};
    const ir::Value* v = op.operand(0);
    const Op* owner = v->ownerOp();
    // A note points where the operand is defined: its op, or where a block
    // argument is declared.
    ir::SourceLoc defined = v->isBlockArgument() && v->loc.known() ? v->loc
                            : owner                                ? owner->loc()
                                                                   : op.loc();
    return {shardingOfValue(v, /*bypassBarriers=*/false), defined};
  }

  bool verifyCollective(const Op& op) {
    if (VerifyResult r = verifyCollectiveKind(op, collectiveOperand(op), meshes_)) {
      emitOpError(op, "", *r);
      return false;
    }
    return true;
  }

  bool verifyDataFlowEdge(const Op& op) {
    if (op.numResults() == 0 || op.numOperands() == 0) return true;
    const Type& type = op.result(0)->type;
    if (!type.hasStaticShape() || (type.isTensor() && type.unranked)) {
      emitOpError(op, "", problem("expected sdy.data_flow_edge to have a static-shaped result. type: " +
                                  quoted(type)));
      return false;
    }
    const ir::Value* input = op.operand(0);
    if (!input->hasOneUse()) {
      emitOpError(op, "", problem("expected input of sdy.data_flow_edge to have a single user"));
      return false;
    }
    if (const Op* def = input->definingOp;
        def && def->dialect() == "sdy" && !def->is("sdy.named_computation") &&
        !def->is("sdy.manual_computation")) {
      emitOpError(op, "",
                  VerifyProblem{"expected input of sdy.data_flow_edge to not be defined by an "
                                "SdyDialect op (other than an sdy.named_computation).",
                                {{def->loc(), "sdy op defining the input of the sdy.data_flow_edge"}}});
      return false;
    }
    if (const TensorSharding* sharding = inherentSharding(op)) {
      if (VerifyResult r = verifyTensorSharding(*sharding, &type, meshes_.of(*sharding),
                                                boundManualAxesAround(op))) {
        emitOpError(op, "", *r, "sharding");
        return false;
      }
    }
    return true;
  }

  // `sdy.func_data_flow_edge`: static shape, and its operand is a function
  // argument or a call result used only here.
  bool verifyFuncDataFlowEdge(const Op& op) {
    if (op.numResults() == 0) return true;
    const Type& type = op.result(0)->type;
    if (!type.hasStaticShape() || (type.isTensor() && type.unranked)) {
      emitOpError(op, "", problem("expected sdy.func_data_flow_edge to have a static-shaped "
                                  "result. type: " + quoted(type)));
      return false;
    }
    if (op.numOperands() == 0 || !op.operand(0)) {
      emitOpError(op, "", problem("expected operand of sdy.func_data_flow_edge should be non-null."));
      return false;
    }
    const ir::Value* input = op.operand(0);
    if (!input->hasOneUse()) {
      emitOpError(op, "", problem("expected operand of sdy.func_data_flow_edge to have a single user"));
      return false;
    }
    if (input->isBlockArgument()) {
      const Op* owner = input->ownerOp();
      if (!owner || !owner->is("func.func")) {
        emitOpError(op, "", problem("expected operand of sdy.func_data_flow_edge to be a block "
                                    "argument of a func op."));
        return false;
      }
    } else if (!input->definingOp || !input->definingOp->is("func.call")) {
      emitOpError(op, "", problem("expected operand of sdy.func_data_flow_edge to be a result of "
                                  "call op."));
      return false;
    }
    return true;
  }

  // In or out shardings of a manual computation against the global (op) and
  // local (region) types. `kind` is "operand" or "result".
  bool verifyManualValues(const Op& op, const std::vector<Type>& globalTypes,
                          const std::vector<Type>& localTypes,
                          const std::vector<TensorSharding>& shardings,
                          const std::vector<std::string>& manualAxes, const std::string& kind) {
    if (globalTypes.empty() && localTypes.empty() && shardings.empty()) return true;
    if (VerifyResult r =
            verifyShardingsPerValue(shardings, globalTypes, meshes_, boundManualAxesAround(op))) {
      emitOpError(op, kind + " ", *r, kind == "operand" ? "in_shardings" : "out_shardings");
      return false;
    }
    if (globalTypes.size() != localTypes.size()) {
      emitOpError(op, "",
                  problem("number of op " + kind + "s and region " + kind +
                          "s must match. Op has " + std::to_string(globalTypes.size()) + " op " +
                          kind + "s and " + std::to_string(localTypes.size()) + " region " + kind +
                          "s"));
      return false;
    }
    auto isManual = [&](const AxisRef& a) {
      return std::find(manualAxes.begin(), manualAxes.end(), a.name) != manualAxes.end();
    };
    for (size_t index = 0; index < globalTypes.size() && index < shardings.size(); ++index) {
      const TensorSharding& sharding = shardings[index];
      for (size_t dim = 0; dim < sharding.dims.size(); ++dim) {
        const AxisRefList& axes = sharding.dims[dim].axes;
        auto firstFree = std::find_if_not(axes.begin(), axes.end(), isManual);
        auto manualAfterFree = std::find_if(firstFree, axes.end(), isManual);
        if (manualAfterFree != axes.end()) {
          emitOpError(op, "",
                      problem(kind + " sharding at index " + std::to_string(index) +
                              " must have all manual axes come before free axes in its dimension "
                              "sharding at index " +
                              std::to_string(dim) + ". Saw manual axis " + manualAfterFree->str() +
                              " after free axis " + (manualAfterFree - 1)->str()));
          return false;
        }
      }
      const Type& global = globalTypes[index];
      if (!global.isTensor()) continue;
      const Mesh* mesh = meshes_.of(sharding);
      std::vector<int64_t> localShape;
      for (size_t dim = 0; dim < global.shape.size() && dim < sharding.dims.size(); ++dim) {
        int64_t size = global.shape[dim];
        if (size == Type::kDynamic) {
          localShape.push_back(Type::kDynamic);
          continue;
        }
        int64_t manualSize = 1;
        for (const AxisRef& axis : sharding.dims[dim].axes)
          if (isManual(axis) && mesh) manualSize *= axis.size(*mesh);
        if (manualSize <= 0) manualSize = 1;
        if (size % manualSize != 0) {
          emitOpError(op, "",
                      problem(kind + " dimension size " + std::to_string(size) +
                              " is not divisible by the manual axes size " +
                              std::to_string(manualSize)));
          return false;
        }
        localShape.push_back(size / manualSize);
      }
      Type expected = Type::tensor(localShape, global.elementType);
      const Type& local = localTypes[index];
      bool matches = local.isRankedTensor() && local.shape == expected.shape &&
                     local.elementType == expected.elementType;
      if (!matches) {
        emitOpError(op, "",
                    problem(kind + " shape, corresponding sharding, and region " + kind +
                            " shape at index " + std::to_string(index) +
                            " must match. Expected local shape " + quoted(expected) +
                            ", actual local shape " + quoted(local)));
        return false;
      }
    }
    return true;
  }

  bool verifyManualComputation(const Op& op) {
    const TensorShardingPerValue* in = inherentPerValue(op, "in_shardings");
    const TensorShardingPerValue* out = inherentPerValue(op, "out_shardings");
    static const TensorShardingPerValue kNone;
    if (!in) in = &kNone;
    if (!out) out = &kNone;
    const std::vector<std::string> manualAxes = manualAxesOf(op);
    if (!verifyManualValues(op, operandTypes(op), entryArgTypes(op), in->shardings, manualAxes,
                            "operand") ||
        !verifyManualValues(op, resultTypes(op), yieldedTypes(op), out->shardings, manualAxes,
                            "result"))
      return false;
    if (in->shardings.empty() && out->shardings.empty()) return true;
    // One mesh for all in/out shardings (empty meshes aside).
    const Mesh* common = nullptr;
    bool conflict = false;
    for (const auto* list : {in, out}) {
      for (const TensorSharding& s : list->shardings) {
        const Mesh* mesh = meshes_.of(s);
        if (!mesh) continue;
        if (!common || common->empty()) {
          common = mesh;
        } else if (!mesh->empty() && !sameMesh(*common, *mesh)) {
          conflict = true;
        }
      }
    }
    if (conflict) common = nullptr;
    if (!common && !manualAxes.empty()) {
      emitOpError(op, "", problem("all in and out shardings must be bound to the same mesh or an "
                                  "empty mesh."));
      return false;
    }
    for (const std::string& axis : manualAxes) {
      if (common && !common->hasAxis(axis)) {
        emitOpError(op, "", problem("unknown manual axis: \"" + axis + "\""));
        return false;
      }
    }
    return true;
  }

  bool verifyNamedComputation(const Op& op) {
    std::vector<Type> args = entryArgTypes(op);
    std::vector<Type> operands = operandTypes(op);
    if (args.size() != operands.size()) {
      emit(op, "number of block arguments must match the number of operands: " +
                   std::to_string(args.size()) + " != " + std::to_string(operands.size()));
      return false;
    }
    for (size_t i = 0; i < args.size(); ++i) {
      if (!(args[i] == operands[i])) {
        emit(op, "expected the type of the " + std::to_string(i) +
                     "'th block argument to match the type of the corresponding operand: " +
                     quoted(args[i]) + " vs " + quoted(operands[i]));
        return false;
      }
    }
    const TensorShardingPerValue* in = inherentPerValue(op, "in_shardings");
    const TensorShardingPerValue* out = inherentPerValue(op, "out_shardings");
    const BoundManualAxes bound = boundManualAxesAround(op);
    if (in) {
      if (VerifyResult r = verifyShardingsPerValue(in->shardings, operands, meshes_, bound)) {
        emitOpError(op, "in_shardings ", *r, "in_shardings");
        return false;
      }
    }
    if (out) {
      if (VerifyResult r = verifyShardingsPerValue(out->shardings, resultTypes(op), meshes_, bound)) {
        emitOpError(op, "out_shardings ", *r, "out_shardings");
        return false;
      }
    }
    return true;
  }

  const ir::Module& module_;
  ir::DiagnosticSink& diags_;
  MeshTable meshes_;
  const ir::AttributeSites* sites_;
  SitePlacement placement_;
  // Sharding lists found valid on ops with these result types and no bound
  // manual axes. The reader keeps one attribute object per spelling, so ops
  // share a few hundred lists: checking each op's again cost as much as all
  // its other checks together.
  std::unordered_map<const TensorShardingPerValue*, std::vector<std::vector<Type>>> validShardings_;

  // Whether `shardings` was found valid before for results of `op`'s types
  // (then it is again: the check depends on nothing else).
  bool foundValidBefore(const TensorShardingPerValue& shardings, const Op& op) const {
    auto it = validShardings_.find(&shardings);
    if (it == validShardings_.end()) return false;
    for (const std::vector<Type>& types : it->second) {
      if (types.size() != op.numResults()) continue;
      bool same = true;
      for (unsigned i = 0; i < op.numResults() && same; ++i) same = op.result(i)->type == types[i];
      if (same) return true;
    }
    return false;
  }
  std::unordered_map<std::string, const Op*> functionsByName_;  // for calls, built on first use
};

}  // namespace

VerifyResult verifyMesh(const Mesh& mesh) {
  for (const MeshAxis& axis : mesh.axes)
    if (axis.size < 1) return problem("axis size must be at least 1, got: " + std::to_string(axis.size));
  for (int64_t id : mesh.deviceIds)
    if (id < 0) return problem("device id must be non-negative, got: " + std::to_string(id));
  if (mesh.axes.empty()) {
    if (mesh.deviceIds.size() > 1)
      return problem("axes is empty and device_ids has more than one element");
    return std::nullopt;
  }
  std::set<std::string> names;
  for (const MeshAxis& axis : mesh.axes)
    if (!names.insert(axis.name).second)
      return problem("duplicate axis name: \"" + axis.name + "\"");
  // sdy multiplies axis sizes in int64 (device counts, sub-axis pre-sizes):
  // a product beyond it has no meaning. (sdy_opt itself does not check.)
  int64_t product = 1;
  for (const MeshAxis& axis : mesh.axes)
    if (__builtin_mul_overflow(product, axis.size, &product))
      return problem("total product of axis sizes must fit in a 64-bit integer (at most " +
                     std::to_string(std::numeric_limits<int64_t>::max()) + "), but it overflows at axis \"" +
                     axis.name + "\"=" + std::to_string(axis.size));
  if (mesh.deviceIds.empty()) return std::nullopt;
  const int64_t total = mesh.totalSize();
  const int64_t count = static_cast<int64_t>(mesh.deviceIds.size());
  if (total != count)
    return problem("total product of axis sizes must match total number of device ids, got: " +
                   std::to_string(total) + " != " + std::to_string(count));
  std::vector<int64_t> sorted = mesh.deviceIds;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t i = 0; i < count; ++i)
    if (sorted[static_cast<size_t>(i)] != i)
      return problem("sorted device ids must be iota(product(axes)), got: " + joinInts(sorted));
  // Ids equal to iota are dropped when the mesh is built, so they are fine here.
  return std::nullopt;
}

BoundManualAxes boundManualAxesAround(const ir::Op& op) {
  BoundManualAxes out;
  for (const Op* p = op.parentOp(); p; p = p->parentOp()) {
    if (!p->is("sdy.manual_computation")) continue;
    const ir::Attribute* attr = p->attr("manual_axes");
    std::vector<std::string> axes;
    if (attr) {
      if (const auto* m = attr->as<ir::ManualAxesAttr>()) axes = m->axes;
      if (const auto* l = attr->as<ir::AxisRefListAttr>())
        for (const AxisRef& a : l->axes) axes.push_back(a.name);
    }
    // Outer computations take precedence, as in sdy (the outermost owner is reported).
    for (const std::string& axis : axes) {
      auto it = std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == axis; });
      if (it == out.end())
        out.emplace_back(axis, p);
      else
        it->second = p;
    }
  }
  return out;
}

VerifyResult verifyTensorSharding(const TensorSharding& sharding, const ir::Type* type,
                                  const Mesh* mesh, const BoundManualAxes& bound) {
  if (!mesh) return problemAt("unknown mesh: @" + sharding.mesh.name, "@" + sharding.mesh.name);
  if (mesh->isMaximal() || (!type && allDimsEmpty(sharding))) {
    if (!rankZeroWithoutAxes(sharding))
      return problem("a maximal sharding can only have a sharding with rank 0 and no replicated or "
                     "unreduced axes.");
    return std::nullopt;
  }
  const Type* tensor = type;
  if (tensor && tensor->kind == Type::Kind::Tuple) {
    if (tensor->elements.size() != 1)
      return problem("ops can only have a sharding for a tuple of size 1: " + quoted(*tensor));
    tensor = &tensor->elements.front();
  }
  if (!tensor || !tensor->isTensor()) {
    if (!rankZeroWithoutAxes(sharding))
      return problem("non-shaped tensors can only have a sharding with rank 0 and no replicated or "
                     "unreduced axes. type: " +
                     (type ? quoted(*type) : std::string("<<NULL TYPE>>")) +
                     ", sharding: " + sharding.str());
    return std::nullopt;
  }
  if (tensor->unranked) return problem("only ranked tensors can have a sharding. type: " + quoted(*type));
  if (sharding.rank() != tensor->rank())
    return problem("sharding doesn't match tensor rank: " + std::to_string(sharding.rank()) +
                   " != " + std::to_string(tensor->rank()));

  std::vector<AxisRef> seen;
  std::vector<AxisRef> subAxes;
  for (size_t dim = 0; dim < sharding.dims.size(); ++dim) {
    const DimensionSharding& d = sharding.dims[dim];
    if (d.priority) {
      if (*d.priority < 0) return problem("dim " + std::to_string(dim) + " has a negative priority");
      if (d.closed && d.axes.empty())
        return problem("dim " + std::to_string(dim) + " is empty and closed but has a priority");
    }
    if (VerifyResult r = verifyAxisList(d.axes, *mesh, seen, subAxes)) return r;
  }
  if (!sortedInMesh(sharding.replicated, *mesh))
    return problem("replicated axes are not ordered w.r.t. mesh");
  if (VerifyResult r = verifyAxisList(sharding.replicated, *mesh, seen, subAxes)) return r;
  if (!sortedInMesh(sharding.unreduced, *mesh))
    return problem("unreduced axes are not ordered w.r.t. mesh");
  if (VerifyResult r = verifyAxisList(sharding.unreduced, *mesh, seen, subAxes)) return r;

  for (const MeshAxis& axis : mesh->axes) {
    std::vector<AxisRef> ofAxis;
    for (const AxisRef& s : subAxes)
      if (s.name == axis.name) ofAxis.push_back(s);
    if (VerifyResult r = verifySubAxesOf(axis.name, ofAxis, *mesh, seen)) return r;
  }

  if (!bound.empty()) {
    auto check = [&](const AxisRef& axis) -> VerifyResult {
      for (const auto& [name, owner] : bound)
        if (name == axis.name) return boundAxisProblem(name, *owner);
      return std::nullopt;
    };
    for (const DimensionSharding& d : sharding.dims)
      for (const AxisRef& axis : d.axes)
        if (VerifyResult r = check(axis)) return r;
    for (const AxisRef& axis : sharding.replicated)
      if (VerifyResult r = check(axis)) return r;
    for (const AxisRef& axis : sharding.unreduced)
      if (VerifyResult r = check(axis)) return r;
  }
  return std::nullopt;
}

VerifyResult verifyOpShardingRule(const OpShardingRule& rule, const std::vector<ir::Type>& operandTypes,
                                  const std::vector<ir::Type>& resultTypes) {
  const int64_t numFactors = rule.numFactors();
  std::vector<bool> inOperands(rule.factorSizes.size(), false);
  std::vector<bool> inResults(rule.factorSizes.size(), false);
  if (VerifyResult r = verifyRuleMappings(rule.operands, operandTypes, rule.factorSizes, "operand",
                                          inOperands))
    return r;
  if (VerifyResult r =
          verifyRuleMappings(rule.results, resultTypes, rule.factorSizes, "result", inResults))
    return r;
  for (int64_t f = 0; f < numFactors; ++f) {
    if (!inOperands[static_cast<size_t>(f)] && !inResults[static_cast<size_t>(f)])
      return problem("has factor " + OpShardingRule::factorName(f) + "=" +
                     std::to_string(rule.factorSizes[static_cast<size_t>(f)]) +
                     " that isn't used in operand and result mappings");
  }
  for (const auto* set : {&rule.reductionFactors, &rule.needReplicationFactors,
                          &rule.permutationFactors})
    if (VerifyResult r = verifyFactorSet(*set, numFactors)) return r;
  std::set<int64_t> special;
  special.insert(rule.reductionFactors.begin(), rule.reductionFactors.end());
  special.insert(rule.needReplicationFactors.begin(), rule.needReplicationFactors.end());
  special.insert(rule.permutationFactors.begin(), rule.permutationFactors.end());
  if (special.size() != rule.reductionFactors.size() + rule.needReplicationFactors.size() +
                            rule.permutationFactors.size())
    return problem("a factor can only be in one of the reduction, need replication, or "
                   "permutation factor sets");
  if (VerifyResult r = verifyFactorSet(rule.blockedPropagationFactors, numFactors)) return r;
  for (int64_t f : rule.reductionFactors)
    if (f >= 0 && f < numFactors && inResults[static_cast<size_t>(f)])
      return problem("reduction factor cannot be in result mappings");
  return std::nullopt;
}

bool verifyModule(const ir::Module& module, ir::DiagnosticSink& diags,
                  const ir::AttributeSites* sites, SitePlacement placement) {
  if (!module.op || module.op->numRegions() == 0 || module.op->region(0).empty()) return true;
  return Verifier(module, diags, sites, placement).run();
}

}  // namespace shardscope
