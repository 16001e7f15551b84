// `-sdy-remove-size-one-axes`: axes of size 1 shard nothing; remove them from
// dimension shardings and replicated/unreduced axes. A closed dimension left
// empty loses its priority: `[{"x"}p1]` with x=1 becomes `[{}]`.
#include <algorithm>

#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

bool removeSizeOneAxes(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  bool any = false;
  for (auto& op : module.body().ops()) {
    if (!op->is("sdy.mesh")) continue;
    const ir::Attribute* a = op->attr("mesh");
    const Mesh* mesh = a ? a->as<Mesh>() : nullptr;
    if (mesh && std::any_of(mesh->axes.begin(), mesh->axes.end(), [](const MeshAxis& x) { return x.size == 1; }))
      any = true;
  }
  if (!any) return true;
  util::transformShardings(module, [&](const TensorSharding& s) -> std::optional<TensorSharding> {
    const Mesh* mesh = module.meshOf(s);
    if (!mesh) return std::nullopt;
    auto sizeOne = [&](const AxisRef& axis) { return axis.size(*mesh) == 1; };
    TensorSharding out = s;
    for (DimensionSharding& dim : out.dims) {
      dim.axes.erase(std::remove_if(dim.axes.begin(), dim.axes.end(), sizeOne), dim.axes.end());
      if (dim.axes.empty() && dim.closed) dim.priority.reset();
    }
    auto sameAxes = [&] {
      for (size_t i = 0; i < s.dims.size(); ++i)
        if (s.dims[i].axes != out.dims[i].axes) return false;
      return true;
    };
    out.replicated.erase(std::remove_if(out.replicated.begin(), out.replicated.end(), sizeOne),
                         out.replicated.end());
    out.unreduced.erase(std::remove_if(out.unreduced.begin(), out.unreduced.end(), sizeOne),
                        out.unreduced.end());
    if (sameAxes() && out.replicated == s.replicated && out.unreduced == s.unreduced) return std::nullopt;
    return out;
  });
  return true;
}

}  // namespace shardscope::passes
