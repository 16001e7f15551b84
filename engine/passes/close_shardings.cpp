// `-sdy-close-shardings`: every sharding in the module gets closed dimensions
// and loses its replicated axes: `<@m, [{"a", ?}, {?}], replicated={"b"}>`
// becomes `<@m, [{"a"}, {}]>` (priorities and unreduced axes stay).
#include <algorithm>

#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

bool closeShardings(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  util::transformShardings(module, [](const TensorSharding& s) -> std::optional<TensorSharding> {
    if (s.replicated.empty() &&
        std::all_of(s.dims.begin(), s.dims.end(), [](const DimensionSharding& d) { return d.closed; }))
      return std::nullopt;
    TensorSharding out = s;
    for (DimensionSharding& dim : out.dims) dim.closed = true;
    out.replicated.clear();
    return out;
  });
  return true;
}

}  // namespace shardscope::passes
