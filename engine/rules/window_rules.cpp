// Rules of windowed ops: reduce_window and select_and_scatter. A dimension
// with a 1-wide window, stride 1 and no padding maps input to output one to
// one (pass-through); any other windowed dimension can still be sharded
// along its number of windows, at the price of a halo exchange
// (permutation), blocked in conservative mode.
#include "rules/rule_families.h"
#include "rules/stablehlo_attrs.h"

namespace shardscope::rules::detail {

namespace {

struct Window {
  std::vector<int64_t> dims, strides, padding;  // padding flattened [lo0, hi0, lo1, ...]

  static Window of(const ir::Op& op) {
    Window w;
    w.dims = intListAttrOf(op, "window_dimensions").value_or(std::vector<int64_t>{});
    w.strides = intListAttrOf(op, "window_strides").value_or(std::vector<int64_t>{});
    w.padding = intListAttrOf(op, "padding").value_or(std::vector<int64_t>{});
    return w;
  }

  bool isPassthrough(int64_t dim) const {
    auto d = static_cast<size_t>(dim);
    if (2 * d + 1 < padding.size() && (padding[2 * d] != 0 || padding[2 * d + 1] != 0))
      return false;
    bool unitStride = strides.empty() || (d < strides.size() && strides[d] == 1);
    bool unitWindow = dims.empty() || (d < dims.size() && dims[d] == 1);
    return unitStride && unitWindow;
  }
};

}  // namespace

// reduce_window: one factor per result dim (its size is the number of
// windows), shared by all inputs and results; init values map nothing.
//   48x48x3 -> 16x48x3, window [3, 1, 1], stride [3, 1, 1], padding dim 1 [2, -2]:
//   ([i, j, k], [i, j, k], [], [])->([i, j, k], [i, j, k]) {i=16, j=48, k=3} permutation={i, j}
RuleResult reduceWindowRule(const ir::Op& op, const RuleContext& ctx) {
  Window window = Window::of(op);
  return OpShardingRuleBuilder(op)
      .addPointwise(
          resultShape(op, 0),
          [&](int64_t dim) {
            return window.isPassthrough(dim) ? FactorType::Passthrough : FactorType::Permutation;
          },
          [&](FactorType type) { return ctx.conservative && type == FactorType::Permutation; })
      .build();
}

// select_and_scatter (operand, source, init): a windowed dim gets a
// need-replication factor for the source and a permutation factor shared by
// operand and result.
//   operand 10x24x24x64, source 10x12x12x64, window [1, 2, 2, 1] stride [1, 2, 2, 1]:
//   ([i, k, m, n], [i, j, l, n], [])->([i, k, m, n]) {i=10, j=12, k=24, l=12, m=24, n=64}
//   need_replication={j, l} permutation={k, m}
RuleResult selectAndScatterRule(const ir::Op& op, const RuleContext& ctx) {
  Window window = Window::of(op);
  const auto& out = resultShape(op, 0);
  const auto& source = operandShape(op, 1);
  OpShardingRuleBuilder builder(op);
  for (size_t d = 0; d < out.size(); ++d) {
    auto dim = static_cast<int64_t>(d);
    if (window.isPassthrough(dim)) {
      builder.addFactorToAll(dim, out[d]);
      continue;
    }
    builder.addFactor({kNullDim, dim, kNullDim}, {kNullDim}, d < source.size() ? source[d] : 1,
                      FactorType::NeedReplication, ctx.conservative);
    builder.addFactor({dim, kNullDim, kNullDim}, {dim}, out[d], FactorType::Permutation,
                      ctx.conservative);
  }
  return std::move(builder).build();
}

}  // namespace shardscope::rules::detail
