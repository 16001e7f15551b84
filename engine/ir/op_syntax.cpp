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
        "stablehlo.xor", "stablehlo.convert", "stablehlo.clamp", "stablehlo.after_all",
        "stablehlo.uniform_quantize", "stablehlo.uniform_dequantize"}) {
    t[op] = {op, TypeStyle::SameOrFunctional, {}};
  }
  for (std::string_view op :
       {"stablehlo.reshape", "stablehlo.bitcast_convert", "stablehlo.dynamic_update_slice",
        "stablehlo.dynamic_reshape", "stablehlo.real_dynamic_slice", "stablehlo.dynamic_pad",
        "stablehlo.is_finite", "stablehlo.cross-replica-sum"}) {
    t[op] = {op, TypeStyle::Functional, {}};
  }
  t["stablehlo.complex"] = {"stablehlo.complex", TypeStyle::ComplexOrFunctional, {}};
  // CHLO: unary ops `chlo.erf %0 : T -> T`; binary ops with broadcasting
  // `chlo.broadcast_add %0, %1 : (T, U) -> R` (the other attributes, such as
  // broadcast_dimensions or comparison_direction, stay in the dictionary).
  for (std::string_view op :
       {"chlo._asin_acos_kernel", "chlo.acos", "chlo.acosh", "chlo.asin", "chlo.asinh", "chlo.atan",
        "chlo.atanh", "chlo.bessel_i1e", "chlo.conj", "chlo.cosh", "chlo.sinh", "chlo.tan", "chlo.digamma",
        "chlo.erf", "chlo.erf_inv", "chlo.erfc", "chlo.is_inf", "chlo.is_neg_inf", "chlo.is_pos_inf",
        "chlo.lgamma", "chlo.square"}) {
    t[op] = {op, TypeStyle::Arrow, {}};
  }
  for (std::string_view op :
       {"chlo.broadcast_add", "chlo.broadcast_atan2", "chlo.broadcast_divide", "chlo.broadcast_maximum",
        "chlo.broadcast_minimum", "chlo.broadcast_multiply", "chlo.broadcast_next_after",
        "chlo.broadcast_polygamma", "chlo.broadcast_power", "chlo.broadcast_remainder",
        "chlo.broadcast_shift_left", "chlo.broadcast_shift_right_arithmetic",
        "chlo.broadcast_shift_right_logical", "chlo.broadcast_subtract", "chlo.broadcast_zeta",
        "chlo.broadcast_and", "chlo.broadcast_or", "chlo.broadcast_xor", "chlo.broadcast_complex",
        "chlo.broadcast_compare", "chlo.broadcast_select"}) {
    t[op] = {op, TypeStyle::Functional, {}};
  }
  for (std::string_view op : {"chlo.next_after", "chlo.polygamma", "chlo.zeta", "chlo.mulhi"})
    t[op] = {op, TypeStyle::ListArrow, {}};
  auto add = [&](std::string_view op, TypeStyle ts, std::vector<KeywordClause> kws) {
    t[op] = {op, ts, std::move(kws)};
  };
  using K = KeywordKind;
  add("stablehlo.broadcast_in_dim", TypeStyle::Functional, {{"dims", "broadcast_dimensions", K::I64Array}});
  add("stablehlo.transpose", TypeStyle::Functional, {{"dims", "permutation", K::I64Array}});
  add("stablehlo.reverse", TypeStyle::SameOrFunctional, {{"dims", "dimensions", K::I64Array}});
  add("stablehlo.concatenate", TypeStyle::Functional, {{"dim", "dimension", K::I64}});
  add("stablehlo.iota", TypeStyle::ResultOnly, {{"dim", "iota_dimension", K::I64}});
  add("stablehlo.dynamic_iota", TypeStyle::Functional, {{"dim", "iota_dimension", K::I64}});
  add("stablehlo.dynamic_broadcast_in_dim", TypeStyle::Functional,
      {{"dims", "broadcast_dimensions", K::I64Array}});
  add("stablehlo.broadcast", TypeStyle::Functional, {{"sizes", "broadcast_sizes", K::I64Array}});
  add("stablehlo.set_dimension_size", TypeStyle::Functional, {{"dim", "dimension", K::I64}});
  add("stablehlo.reduce_precision", TypeStyle::SameOrFunctional,
      {{"format", "exponent_bits", K::ExponentMantissa, {}, false, "mantissa_bits"}});
  add("stablehlo.einsum", TypeStyle::Functional, {{"config", "einsum_config", K::String}});
  add("stablehlo.unary_einsum", TypeStyle::Functional, {{"config", "einsum_config", K::String}});
  add("stablehlo.rng", TypeStyle::Functional,
      {{"distribution", "rng_distribution", K::Enum, "rng_distribution", true}});
  add("stablehlo.dynamic_slice", TypeStyle::Functional, {{"sizes", "slice_sizes", K::I64Array}});
  add("stablehlo.fft", TypeStyle::Functional,
      {{"type", "fft_type", K::Enum, "fft_type", true}, {"length", "fft_length", K::I64Array}});
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

std::string_view complexPartType(std::string_view elementType) {
  constexpr std::string_view kPrefix = "complex<";
  if (elementType.size() <= kPrefix.size() + 1 || elementType.substr(0, kPrefix.size()) != kPrefix ||
      elementType.back() != '>')
    return {};
  return elementType.substr(kPrefix.size(), elementType.size() - kPrefix.size() - 1);
}

const SimpleOpSyntax* lookupSimpleSyntax(std::string_view op) {
  static const auto table = buildTable();
  auto it = table.find(op);
  return it == table.end() ? nullptr : &it->second;
}

}  // namespace shardscope::ir
