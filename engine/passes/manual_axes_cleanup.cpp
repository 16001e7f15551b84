// `-sdy-manual-axes-cleanup`: normalize manual computations.
//
// 1) Manual axes are sorted in mesh order: manual_axes={"b", "a"} on mesh
//    ["a", "b"] becomes {"a", "b"}.
// 2) Each in/out sharding of a shaped value names every manual axis: manual
//    axes (or parts of them) it does not use are added to its replicated
//    axes, e.g. manual {"c", "a"} and `[{"c", ?}]` -> `[{"c", ?}], replicated={"a"}`.
//    A sharding rewritten this way uses the computation's common mesh (so a
//    sharding on the empty mesh moves to the real one).
#include <algorithm>
#include <span>

#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {

// The sub-ranges of `a` that `b` does not cover. Each reference is seen as
// the pre-size range [pre, pre*size) of its axis.
AxisRefList subtract(const AxisRef& a, const AxisRefList& b, const Mesh& mesh) {
  int64_t axisSize = mesh.axisSize(a.name);
  struct Range {
    int64_t first, last;
  };
  auto rangeOf = [&](const AxisRef& r) -> Range {
    if (r.subAxis) return {r.subAxis->preSize, r.subAxis->nextPreSize()};
    return {1, axisSize};
  };
  std::vector<Range> pieces = {rangeOf(a)};
  bool touched = false;
  for (const AxisRef& other : b) {
    if (other.name != a.name) continue;
    if (other == a) return {};
    touched = true;
    Range cut = rangeOf(other);
    std::vector<Range> next;
    for (const Range& p : pieces) {
      if (cut.last <= p.first || p.last <= cut.first) {
        next.push_back(p);
        continue;
      }
      if (p.first < cut.first) next.push_back({p.first, cut.first});
      if (cut.last < p.last) next.push_back({cut.last, p.last});
    }
    pieces = std::move(next);
  }
  if (!touched) return {a};  // (size-1 axes have an empty range but still count)
  AxisRefList out;
  for (const Range& p : pieces) {
    if (p.last <= p.first || p.last % p.first != 0) continue;
    AxisRef ref{a.name, SubAxisInfo{p.first, p.last / p.first}};
    out.push_back(ref.canonical(mesh));
  }
  return out;
}

// Every manual axis part not used by `sharding`.
AxisRefList unusedManualAxes(const std::vector<std::string>& manualAxes,
                             const TensorSharding& sharding, const Mesh& mesh) {
  AxisRefList used = sharding.dimAxes();
  used.insert(used.end(), sharding.replicated.begin(), sharding.replicated.end());
  used.insert(used.end(), sharding.unreduced.begin(), sharding.unreduced.end());
  AxisRefList out;
  for (const std::string& axis : manualAxes) {
    AxisRefList rest = subtract(AxisRef{axis, std::nullopt}, used, mesh);
    out.insert(out.end(), rest.begin(), rest.end());
  }
  return out;
}

// Adds unused manual axes to the replicated axes; returns whether any changed.
bool addUnusedToReplicated(std::vector<TensorSharding>& shardings, std::span<ir::Value* const> values,
                           const std::vector<std::string>& manualAxes, const MeshRef& commonMesh,
                           const Mesh& mesh) {
  bool modified = false;
  for (size_t i = 0; i < shardings.size(); ++i) {
    if (i < values.size() && !values[i]->type->isShaped()) continue;
    TensorSharding& s = shardings[i];
    AxisRefList unused = unusedManualAxes(manualAxes, s, mesh);
    if (unused.empty()) continue;
    AxisRefList replicated = s.replicated;
    replicated.insert(replicated.end(), unused.begin(), unused.end());
    s.replicated = canonicalAxisSet(std::move(replicated), mesh);
    s.mesh = commonMesh;
    modified = true;
  }
  return modified;
}

}  // namespace

bool manualAxesCleanup(ir::Module& module, ir::DiagnosticSink& diags) {
  bool ok = true;
  // Nothing to do without such ops; Op::anyLive answers that without a walk.
  if (!ir::Op::anyLive("sdy.manual_computation")) return ok;
  std::vector<ir::Op*> mcs;
  module.op->walk([&](ir::Op& op) {
    if (op.is("sdy.manual_computation")) mcs.push_back(&op);
  });
  for (ir::Op* op : mcs) {
    std::vector<TensorSharding> in = util::inShardingsOf(*op);
    std::vector<TensorSharding> out = util::outShardingsOf(*op);
    std::vector<std::string> manualAxes = util::manualAxesOf(*op);
    if (in.empty() && out.empty()) {
      bool bodyEmpty = true;
      if (op->numRegions() > 0 && !op->region(0).empty()) {
        const ir::Block& body = op->region(0).front();
        bodyEmpty = body.empty() || body.ops().front()->is("sdy.return");
      }
      if (!manualAxes.empty() && !bodyEmpty) {
        diags.error(op->loc(),
                    "'sdy.manual_computation' op op has manual_axes when there are no in/out shardings "
                    "and the body is not empty. This isn't allowed at this stage, please contact the "
                    "Shardy team or file a bug.");
        ok = false;
      }
      continue;
    }
    // The common mesh: the first non-empty one.
    const Mesh* mesh = nullptr;
    MeshRef common;
    std::vector<const TensorSharding*> all;
    for (const TensorSharding& s : in) all.push_back(&s);
    for (const TensorSharding& s : out) all.push_back(&s);
    for (const TensorSharding* s : all) {
      const Mesh* m = module.meshOf(*s);
      if (!m) continue;
      if (!mesh || mesh->empty()) {
        mesh = m;
        common = s->mesh;
      }
    }
    if (!mesh) continue;

    std::vector<std::string> sorted = manualAxes;
    std::stable_sort(sorted.begin(), sorted.end(), [&](const std::string& a, const std::string& b) {
      return mesh->axisIndex(a) < mesh->axisIndex(b);
    });
    if (sorted != manualAxes) {
      bool inherent = true;
      for (const ir::Op::Attr& a : op->attrs())
        if (a.name == "manual_axes") inherent = a.inherent;
      op->setAttr("manual_axes", ir::ManualAxesAttr{sorted}, inherent);
    }
    if (addUnusedToReplicated(in, op->operands(), manualAxes, common, *mesh)) util::setInShardings(*op, in);
    if (addUnusedToReplicated(out, op->results(), manualAxes, common, *mesh)) util::setOutShardings(*op, out);
  }
  return ok;
}

}  // namespace shardscope::passes
