// `-sdy-lift-inlined-meshes`: shardings name their mesh by symbol.
//
//   #sdy.sharding<mesh<["x"=2, "y"=2]>, [{"x"}, {}]>  ->  #sdy.sharding<@mesh_0, [{"x"}, {}]>
//   sdy.mesh @mesh_0 = <["x"=2, "y"=2]>   (new, after the last existing mesh)
//
// Identical meshes are merged: a later `sdy.mesh` equal to an earlier one is
// erased and references to it point to the earlier one. A new mesh is named
// `maximal_mesh_<id>` for a maximal mesh, `empty_mesh` for the empty one, and
// `mesh` otherwise (uniqued `mesh_0`, `mesh_1`, ...). Collective ops whose
// `replica_groups` name an inline mesh are lifted too. Finally every mesh gets
// a `stablehlo.mesh` dictionary describing its axes.
#include <map>

#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {

const Mesh* meshAttrOf(const ir::Op& meshOp) {
  const ir::Attribute* a = meshOp.attr("mesh");
  return a ? a->as<Mesh>() : nullptr;
}

std::string newMeshBaseName(const Mesh& mesh) {
  if (mesh.isMaximal()) return "maximal_mesh_" + std::to_string(mesh.deviceIds.front());
  if (mesh.empty()) return "empty_mesh";
  return "mesh";
}

// `{axes = [{name = "a", size = 4 : i64}], device_ids = dense<...> : tensor<Nxi64>}`.
ir::Attribute stablehloMeshDict(const Mesh& mesh) {
  std::vector<ir::Attribute> axes;
  for (const MeshAxis& axis : mesh.axes)
    axes.push_back(ir::Attribute::makeDict(
        {{"name", ir::StringAttr{axis.name}}, {"size", ir::IntegerAttr{axis.size, "i64"}}}));
  std::vector<ir::NamedAttribute> fields = {{"axes", ir::Attribute::makeArray(std::move(axes))}};
  if (!mesh.deviceIds.empty()) {
    std::string text = "dense<";
    if (mesh.deviceIds.size() > 1) text += '[';
    for (size_t i = 0; i < mesh.deviceIds.size(); ++i) {
      if (i) text += ", ";
      text += std::to_string(mesh.deviceIds[i]);
    }
    if (mesh.deviceIds.size() > 1) text += ']';
    text += "> : tensor<" + std::to_string(mesh.deviceIds.size()) + "xi64>";
    fields.push_back({"device_ids", ir::OpaqueAttr{text}});
  }
  return ir::Attribute::makeDict(std::move(fields));
}

// A `#stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = "z", size = 4>]>` as a Mesh.
std::optional<Mesh> meshFromStablehlo(const ir::Attribute& attr) {
  const ir::StructAttr* st = attr.structAttr();
  if (!st || st->name != "stablehlo.mesh") return std::nullopt;
  Mesh mesh;
  const ir::Attribute* axes = st->get("axes");
  if (axes && axes->array()) {
    for (const ir::Attribute& a : axes->array()->elems) {
      const ir::StructAttr* ax = a.structAttr();
      if (!ax) continue;
      const ir::Attribute* name = ax->get("name");
      const ir::Attribute* size = ax->get("size");
      if (!name || !name->string() || !size || !size->integer()) continue;
      mesh.axes.push_back({*name->string(), *size->integer()});
    }
  }
  return mesh;
}

class Lifter {
 public:
  explicit Lifter(ir::Module& module) : module_(module), symbols_(module) {}

  void run() {
    // Dedupe existing meshes.
    std::vector<ir::Op*> meshOps;
    for (auto& op : module_.body().ops())
      if (op->is("sdy.mesh")) meshOps.push_back(op.get());
    for (ir::Op* meshOp : meshOps) {
      const Mesh* mesh = meshAttrOf(*meshOp);
      std::string name = util::symNameOf(*meshOp);
      if (!mesh) {
        lastMesh_ = meshOp;
        continue;
      }
      auto [it, inserted] = meshToName_.try_emplace(mesh->str(), name);
      if (!inserted) {
        refToName_[name] = it->second;
        symbols_.erase(meshOp);
      } else {
        lastMesh_ = meshOp;
      }
    }

    util::transformShardings(module_, [&](const TensorSharding& s) { return lift(s); });

    static const char* kCollectives[] = {"stablehlo.all_gather", "stablehlo.all_reduce",
                                         "stablehlo.reduce_scatter", "stablehlo.all_to_all",
                                         "stablehlo.collective_broadcast"};
    bool anyCollective = false;  // else no walk for replica groups
    for (const char* n : kCollectives) anyCollective |= ir::Op::anyLive(n);
    if (anyCollective) module_.op->walk([&](ir::Op& op) {
      bool isCollective = false;
      for (const char* n : kCollectives) isCollective |= op.is(n);
      if (!isCollective) return;
      const ir::Attribute* groups = op.attr("replica_groups");
      if (!groups) return;
      if (auto lifted = liftReplicaGroups(*groups)) {
        bool inherent = false;
        for (const ir::Op::Attr& a : op.attrs())
          if (a.name == "replica_groups") inherent = a.inherent;
        op.setAttr("replica_groups", *lifted, inherent);
      }
    });

    for (auto& op : module_.body().ops()) {
      if (!op->is("sdy.mesh") || op->hasAttr("stablehlo.mesh")) continue;
      if (const Mesh* mesh = meshAttrOf(*op)) op->setAttr("stablehlo.mesh", stablehloMeshDict(*mesh));
    }
  }

 private:
  // Name of the mesh symbol for `mesh`, creating it when needed.
  std::string nameFor(const Mesh& mesh) {
    auto it = meshToName_.find(mesh.str());
    if (it != meshToName_.end()) return it->second;
    auto op = std::make_unique<ir::Op>("sdy.mesh", module_.op->loc());
    op->setAttr("sym_name", ir::StringAttr{newMeshBaseName(mesh)}, true);
    op->setAttr("mesh", mesh, true);
    ir::Op* raw = op.get();
    std::string name =
        lastMesh_ ? symbols_.insert(std::move(op), lastMesh_) : symbols_.insertFirst(std::move(op));
    lastMesh_ = raw;
    meshToName_[mesh.str()] = name;
    return name;
  }

  // nullopt: `s` names a mesh that stays.
  std::optional<TensorSharding> lift(const TensorSharding& s) {
    if (s.mesh.inlineMesh) {
      TensorSharding out = s;
      out.mesh = MeshRef{nameFor(*s.mesh.inlineMesh), std::nullopt};
      return out;
    }
    auto it = refToName_.find(s.mesh.name);
    if (it == refToName_.end()) return std::nullopt;
    TensorSharding out = s;
    out.mesh.name = it->second;
    return out;
  }

  std::optional<ir::Attribute> liftReplicaGroups(const ir::Attribute& attr) {
    const ir::StructAttr* st = attr.structAttr();
    if (!st || st->name != "stablehlo.replica_group_mesh_axes") return std::nullopt;
    std::vector<ir::NamedAttribute> params = st->params;
    bool changed = false;
    for (auto& [key, value] : params) {
      if (key != "mesh") continue;
      std::string name;
      if (const Mesh* m = value.as<Mesh>()) {
        name = nameFor(*m);
      } else if (auto m2 = meshFromStablehlo(value)) {
        name = nameFor(*m2);
      } else if (const ir::SymbolRefAttr* ref = value.as<ir::SymbolRefAttr>()) {
        auto it = refToName_.find(ref->root());
        if (it == refToName_.end()) continue;
        name = it->second;
      } else {
        continue;
      }
      value = ir::SymbolRefAttr{{name}};
      changed = true;
    }
    if (!changed) return std::nullopt;
    return ir::Attribute::makeStruct(st->name, std::move(params));
  }

  ir::Module& module_;
  util::SymbolTable symbols_;
  ir::Op* lastMesh_ = nullptr;
  std::map<std::string, std::string> meshToName_;  // keyed by Mesh::str()
  std::map<std::string, std::string> refToName_;
};

}  // namespace

bool liftInlinedMeshes(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  Lifter(module).run();
  return true;
}

}  // namespace shardscope::passes
