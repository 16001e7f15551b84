// `-sdy-remove-sub-axes-in-input-output-shardings`: in the argument and
// result shardings of the main function (the only function, else `@main`),
// each open dimension is cut before its first sub-axis:
// `[{"x", "y":(1)2, ?}]` -> `[{"x", ?}]`. Closed dimensions are kept.
#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {

TensorSharding cutAtSubAxes(const TensorSharding& s) {
  TensorSharding out = s;
  for (DimensionSharding& dim : out.dims) {
    if (dim.closed) continue;
    AxisRefList kept;
    for (const AxisRef& axis : dim.axes) {
      if (axis.isSubAxis()) break;
      kept.push_back(axis);
    }
    dim.axes = std::move(kept);
  }
  return out;
}

}  // namespace

bool removeSubAxesInInputOutputShardings(ir::Module& module, ir::DiagnosticSink& diags) {
  ir::Op* func = util::mainFunction(module);
  if (!func) {
    diags.error(module.op->loc(), "Failed to lookup function: main");
    return false;
  }
  unsigned numArgs = func->numRegions() && !func->region(0).empty() ? func->region(0).front().numArguments() : 0;
  for (unsigned i = 0; i < numArgs; ++i)
    if (auto s = util::funcArgSharding(*func, i)) util::setFuncArgSharding(*func, i, cutAtSubAxes(*s));
  for (unsigned i = 0; i < util::numFuncResults(*func); ++i)
    if (auto s = util::funcResultSharding(*func, i)) util::setFuncResultSharding(*func, i, cutAtSubAxes(*s));
  return true;
}

}  // namespace shardscope::passes
