// `-sdy-inline-meshes`: the inverse of lift-inlined-meshes, for consumers that
// want each sharding to be self-contained. Every sharding that names a mesh
// symbol gets the mesh written inline, collectives whose `replica_groups`
// name a mesh get it as a `#stablehlo.mesh`, and the `sdy.mesh` ops go.
//
//   sdy.mesh @mesh = <["x"=2]>
//   #sdy.sharding<@mesh, [{"x"}]>  ->  #sdy.sharding<mesh<["x"=2]>, [{"x"}]>
#include "passes/export_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {

// `#stablehlo.mesh<axes=[<name = "x", size = 2>], device_ids=dense<[1, 0]> : tensor<2xi64>>`,
// written as the StableHLO printer writes it.
std::string stablehloMeshText(const Mesh& mesh) {
  std::string text = "#stablehlo.mesh<axes=[";
  for (size_t i = 0; i < mesh.axes.size(); ++i) {
    if (i) text += ", ";
    text +=
        "<name = \"" + mesh.axes[i].name + "\", size = " + std::to_string(mesh.axes[i].size) + ">";
  }
  text += "]";
  if (!mesh.deviceIds.empty()) {
    text += ", device_ids=dense<";
    if (mesh.deviceIds.size() > 1) text += '[';
    for (size_t i = 0; i < mesh.deviceIds.size(); ++i)
      text += (i ? ", " : "") + std::to_string(mesh.deviceIds[i]);
    if (mesh.deviceIds.size() > 1) text += ']';
    text += "> : tensor<" + std::to_string(mesh.deviceIds.size()) + "xi64>";
  }
  return text + ">";
}

// `replica_groups` with its `mesh = @name` replaced by the mesh itself, or
// nullopt when it names no known mesh.
std::optional<ir::Attribute> inlineReplicaGroups(const ir::Module& module,
                                                 const ir::Attribute& groups) {
  const ir::StructAttr* st = groups.structAttr();
  if (!st || st->name != "stablehlo.replica_group_mesh_axes") return std::nullopt;
  std::vector<ir::NamedAttribute> params = st->params;
  bool changed = false;
  for (auto& [key, value] : params) {
    const ir::SymbolRefAttr* ref = key == "mesh" ? value.as<ir::SymbolRefAttr>() : nullptr;
    if (!ref) continue;
    if (const Mesh* mesh = module.lookupMesh(ref->root())) {
      value = ir::OpaqueAttr{stablehloMeshText(*mesh)};
      changed = true;
    }
  }
  if (!changed) return std::nullopt;
  return ir::Attribute::makeStruct(st->name, std::move(params));
}

}  // namespace

bool inlineMeshes(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  util::transformShardings(module, [&](const TensorSharding& s) -> std::optional<TensorSharding> {
    if (s.mesh.isInline()) return std::nullopt;
    const Mesh* mesh = module.lookupMesh(s.mesh.name);
    if (!mesh) return std::nullopt;
    TensorSharding out = s;
    out.mesh = MeshRef{"", *mesh};
    return out;
  });
  module.op->walk([&](ir::Op& op) {
    const ir::Attribute* groups = op.attr("replica_groups");
    if (!groups) return;
    if (auto inlined = inlineReplicaGroups(module, *groups)) {
      bool inherent = false;
      for (const ir::Op::Attr& a : op.attrs())
        if (a.name == "replica_groups") inherent = a.inherent;
      op.setAttr("replica_groups", *inlined, inherent);
    }
  });
  std::vector<ir::Op*> meshes;
  for (auto& op : module.body().ops())
    if (op->is("sdy.mesh")) meshes.push_back(op.get());
  for (ir::Op* mesh : meshes) util::eraseOp(mesh);
  return true;
}

}  // namespace shardscope::passes
