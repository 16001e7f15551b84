// `-sdy-update-non-divisible-input-output-shardings`: function inputs and
// outputs (and call results and manual computation edges) must be evenly
// sharded. A dimension that is not is cut to the axes that divide it, taking
// a sub-axis of the first axis that only partly divides it:
// dim 6 with `{"x", "y"}`, x=2, y=4: 6/2=3, gcd(4,3)=1 -> `{"x"}`;
// dim 6 with `{"y"}`, y=4: gcd(4,6)=2 -> `{"y":(1)2}`.
#include <numeric>

#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {

TensorSharding evenlySharded(const TensorSharding& s, const ir::Type& type, const Mesh& mesh) {
  TensorSharding out = s;
  for (size_t d = 0; d < out.dims.size() && d < type.shape.size(); ++d) {
    DimensionSharding& dim = out.dims[d];
    int64_t dimSize = type.shape[d];
    int64_t sharded = axesSize(dim.axes, mesh);
    if (sharded != 0 && dimSize % sharded == 0) continue;
    int64_t remaining = dimSize;
    AxisRefList kept;
    for (const AxisRef& axis : dim.axes) {
      int64_t size = axis.size(mesh);
      int64_t g = std::gcd(size, remaining);
      if (g == 1) break;
      if (g == size) {
        kept.push_back(axis);
        remaining /= g;
        continue;
      }
      kept.push_back(AxisRef{axis.name, SubAxisInfo{axis.preSize(), g}});
      break;
    }
    dim.axes = std::move(kept);
    dim.priority.reset();
  }
  return out;
}

}  // namespace

bool updateNonDivisibleInputOutputShardings(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  auto fix = [&](const TensorSharding& s, const ir::Type& type) -> TensorSharding {
    const Mesh* mesh = module.meshOf(s);
    if (!mesh || !util::isStaticShaped(type)) return s;
    return evenlySharded(s, type, *mesh);
  };
  for (ir::Op* func : module.functions()) {
    if (func->numRegions() == 0 || func->region(0).empty()) continue;
    ir::Block& body = func->region(0).front();
    for (unsigned i = 0; i < body.numArguments(); ++i)
      if (auto s = util::funcArgSharding(*func, i))
        util::setFuncArgSharding(*func, i, fix(*s, body.argument(i)->type));
    const ir::Op* term = body.terminator();
    for (unsigned i = 0; i < util::numFuncResults(*func); ++i)
      if (auto s = util::funcResultSharding(*func, i))
        if (term && i < term->numOperands())
          util::setFuncResultSharding(*func, i, fix(*s, term->operand(i)->type));
  }
  module.op->walk([&](ir::Op& op) {
    if (util::isCallOp(op)) {
      const ir::Attribute* a = op.attr(util::kShardingAttr);
      const TensorShardingPerValue* per = a ? a->as<TensorShardingPerValue>() : nullptr;
      if (!per) return;
      TensorShardingPerValue out = *per;
      for (size_t i = 0; i < out.shardings.size() && i < op.numResults(); ++i)
        out.shardings[i] = fix(out.shardings[i], op.result(i)->type);
      op.setAttr(util::kShardingAttr, out);
    } else if (op.is("sdy.manual_computation")) {
      // Edge owners: the body arguments (shardings without manual axes) and results.
      std::vector<std::string> manual = util::manualAxesOf(op);
      std::vector<TensorSharding> in = util::inShardingsOf(op);
      std::vector<ir::Value*> args = util::blockArgEdgeOwners(op);
      for (size_t i = 0; i < in.size() && i < args.size(); ++i) {
        TensorSharding local = util::eraseManualAxes(in[i], manual);
        in[i] = util::addFreeAxesToManualSharding(in[i], fix(local, args[i]->type), manual);
      }
      if (!in.empty()) util::setInShardings(op, in);
      std::vector<TensorSharding> out = util::outShardingsOf(op);
      for (size_t i = 0; i < out.size() && i < op.numResults(); ++i)
        out[i] = fix(out[i], op.result(i)->type);
      if (!out.empty()) util::setOutShardings(op, out);
    }
  });
  return true;
}

}  // namespace shardscope::passes
