// The module's mesh symbols (see mesh_symbols.h).
#include "ir/mesh_symbols.h"

namespace shardscope::ir {

MeshSymbols::MeshSymbols(const Module& module) {
  for (const auto& op : module.body().ops()) {
    if (!op->is("sdy.mesh")) continue;
    const Attribute* name = op->attr("sym_name");
    const Attribute* meshAttr = op->attr("mesh");
    if (!name || !name->string() || !meshAttr) continue;
    const Mesh* mesh = meshAttr->as<Mesh>();
    if (!mesh) continue;
    byName_.emplace(*name->string(), mesh);
    if (!firstWithAxes_ && !mesh->isMaximal() && !mesh->axes.empty())
      firstWithAxes_ = std::make_pair(*name->string(), mesh);
  }
}

const Mesh* MeshSymbols::named(const std::string& name) const {
  auto it = byName_.find(name);
  return it == byName_.end() ? nullptr : it->second;
}

const Mesh* MeshSymbols::of(const MeshRef& ref) const {
  if (ref.inlineMesh) return &*ref.inlineMesh;
  return named(ref.name);
}

}  // namespace shardscope::ir
