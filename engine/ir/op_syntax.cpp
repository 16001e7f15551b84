#include "ir/op_syntax.h"

#include <string>
#include <unordered_map>

namespace shardscope::ir {

namespace {

std::unordered_map<std::string_view, SimpleOpSyntax> buildTable() {
  std::unordered_map<std::string_view, SimpleOpSyntax> t;
  // Element-wise ops print `: T` when every type agrees.
  for (std::string_view op :
       {"stablehlo.abs", "stablehlo.add", "stablehlo.and", "stablehlo.atan2", "stablehlo.cbrt",
        "stablehlo.ceil", "stablehlo.count_leading_zeros", "stablehlo.cosine", "stablehlo.divide",
        "stablehlo.exponential", "stablehlo.exponential_minus_one", "stablehlo.floor",
        "stablehlo.imag", "stablehlo.is_finite", "stablehlo.log", "stablehlo.log_plus_one",
        "stablehlo.logistic", "stablehlo.maximum", "stablehlo.minimum", "stablehlo.multiply",
        "stablehlo.negate", "stablehlo.not", "stablehlo.or", "stablehlo.popcnt", "stablehlo.power",
        "stablehlo.real", "stablehlo.remainder", "stablehlo.round_nearest_afz",
        "stablehlo.round_nearest_even", "stablehlo.rsqrt", "stablehlo.shift_left",
        "stablehlo.shift_right_arithmetic", "stablehlo.shift_right_logical", "stablehlo.sign",
        "stablehlo.sine", "stablehlo.sqrt", "stablehlo.subtract", "stablehlo.tan", "stablehlo.tanh",
        "stablehlo.xor", "stablehlo.convert", "stablehlo.complex", "stablehlo.clamp",
        "stablehlo.after_all", "stablehlo.reduce_precision"}) {
    t[op] = {op, TypeStyle::SameOrFunctional, {}};
  }
  for (std::string_view op :
       {"stablehlo.reshape", "stablehlo.bitcast_convert", "stablehlo.dynamic_update_slice",
        "stablehlo.dynamic_reshape", "stablehlo.real_dynamic_slice", "stablehlo.dynamic_iota",
        "stablehlo.dynamic_broadcast_in_dim", "stablehlo.cross-replica-sum"}) {
    t[op] = {op, TypeStyle::Functional, {}};
  }
  auto add = [&](std::string_view op, TypeStyle ts, std::vector<KeywordClause> kws) {
    t[op] = {op, ts, std::move(kws)};
  };
  using K = KeywordKind;
  add("stablehlo.broadcast_in_dim", TypeStyle::Functional, {{"dims", "broadcast_dimensions", K::I64Array}});
  add("stablehlo.transpose", TypeStyle::Functional, {{"dims", "permutation", K::I64Array}});
  add("stablehlo.reverse", TypeStyle::SameOrFunctional, {{"dims", "dimensions", K::I64Array}});
  add("stablehlo.concatenate", TypeStyle::Functional, {{"dim", "dimension", K::I64}});
  add("stablehlo.iota", TypeStyle::ResultOnly, {{"dim", "iota_dimension", K::I64}});
  add("stablehlo.dynamic_slice", TypeStyle::Functional, {{"sizes", "slice_sizes", K::I64Array}});
  add("stablehlo.fft", TypeStyle::Functional,
      {{"type", "fft_type", K::Enum, "fft_type"}, {"length", "fft_length", K::I64Array}});
  add("stablehlo.cholesky", TypeStyle::SameOrFunctional, {{"lower", "lower", K::Bool}});
  add("stablehlo.rng_bit_generator", TypeStyle::Functional,
      {{"algorithm", "rng_algorithm", K::Enum, "rng_algorithm", true}});
  add("stablehlo.get_dimension_size", TypeStyle::Functional, {{"dim", "dimension", K::I64}});
  add("stablehlo.pad", TypeStyle::Functional,
      {{"low", "edge_padding_low", K::I64Array}, {"high", "edge_padding_high", K::I64Array},
       {"interior", "interior_padding", K::I64Array}});
  add("stablehlo.dot", TypeStyle::Functional, {});
  // Ops without operands: `stablehlo.partition_id : tensor<ui32>`.
  for (std::string_view op : {"stablehlo.partition_id", "stablehlo.replica_id", "stablehlo.create_token"})
    add(op, TypeStyle::ResultOnly, {});
  return t;
}

}  // namespace

const SimpleOpSyntax* lookupSimpleSyntax(std::string_view op) {
  static const auto table = buildTable();
  auto it = table.find(op);
  return it == table.end() ? nullptr : &it->second;
}

}  // namespace shardscope::ir
