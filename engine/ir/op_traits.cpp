#include "ir/op_traits.h"

#include <functional>
#include <string>
#include <string_view>
#include <unordered_set>

namespace shardscope::ir {

namespace {
struct InherentEntry {
  std::string_view op;
  std::string_view attr;
};
// Inherent attributes of the ops whose syntax we know. Names from other
// dialects default to discardable unless written inside `<{...}>`.
constexpr InherentEntry kInherent[] = {
    {"sdy.mesh", "sym_name"}, {"sdy.mesh", "mesh"},
    {"sdy.sharding_constraint", "sharding"}, {"sdy.reshard", "sharding"},
    {"sdy.data_flow_edge", "sharding"}, {"sdy.func_data_flow_edge", "sharding"},
    {"sdy.propagation_barrier", "allowed_direction"}, {"sdy.sharding_group", "group_id"},
    {"sdy.manual_computation", "in_shardings"}, {"sdy.manual_computation", "out_shardings"},
    {"sdy.manual_computation", "manual_axes"}, {"sdy.named_computation", "name"},
    {"sdy.named_computation", "in_shardings"}, {"sdy.named_computation", "out_shardings"},
    {"sdy.constant", "value"}, {"stablehlo.constant", "value"}, {"arith.constant", "value"},
    {"sdy.all_reduce", "reduction_axes"}, {"sdy.all_reduce", "out_sharding"},
    {"sdy.all_reduce", "reduction_op"}, {"sdy.all_gather", "gathering_axes"},
    {"sdy.all_gather", "out_sharding"}, {"sdy.all_slice", "slicing_axes"},
    {"sdy.all_slice", "out_sharding"}, {"sdy.all_to_all", "params"},
    {"sdy.all_to_all", "out_sharding"}, {"sdy.collective_permute", "out_sharding"},
    {"sdy.reduce_scatter", "reduce_scatter_axes"}, {"sdy.reduce_scatter", "reduction_op"},
    {"sdy.reduce_scatter", "out_sharding"}, {"sdy.sharded_to_unreduced", "axes"},
    {"sdy.sharded_to_unreduced", "out_sharding"}, {"sdy.replicated_to_unreduced", "axes"},
    {"sdy.replicated_to_unreduced", "out_sharding"},
    {"func.func", "sym_name"}, {"func.func", "function_type"}, {"func.func", "arg_attrs"},
    {"func.func", "res_attrs"}, {"func.func", "sym_visibility"}, {"func.call", "callee"},
    {"func.call", "arg_attrs"}, {"func.call", "res_attrs"},
    {"builtin.module", "sym_name"}, {"builtin.module", "sym_visibility"},
    {"stablehlo.custom_call", "call_target_name"}, {"stablehlo.custom_call", "backend_config"},
    {"stablehlo.custom_call", "has_side_effect"}, {"stablehlo.custom_call", "api_version"},
    {"stablehlo.custom_call", "called_computations"}, {"stablehlo.custom_call", "operand_layouts"},
    {"stablehlo.custom_call", "result_layouts"}, {"stablehlo.custom_call", "output_operand_aliases"},
    {"stablehlo.compare", "comparison_direction"}, {"stablehlo.compare", "compare_type"},
    {"stablehlo.dot_general", "dot_dimension_numbers"}, {"stablehlo.dot_general", "precision_config"},
    {"stablehlo.dot_general", "algorithm"}, {"stablehlo.dot", "precision_config"},
    {"stablehlo.broadcast_in_dim", "broadcast_dimensions"}, {"stablehlo.transpose", "permutation"},
    {"stablehlo.reverse", "dimensions"}, {"stablehlo.reduce", "dimensions"},
    {"stablehlo.concatenate", "dimension"}, {"stablehlo.iota", "iota_dimension"},
    {"stablehlo.dynamic_slice", "slice_sizes"}, {"stablehlo.fft", "fft_type"},
    {"stablehlo.fft", "fft_length"}, {"stablehlo.cholesky", "lower"},
    {"stablehlo.rng_bit_generator", "rng_algorithm"}, {"stablehlo.slice", "start_indices"},
    {"stablehlo.slice", "limit_indices"}, {"stablehlo.slice", "strides"},
    {"stablehlo.pad", "edge_padding_low"}, {"stablehlo.pad", "edge_padding_high"},
    {"stablehlo.pad", "interior_padding"}, {"stablehlo.get_tuple_element", "index"},
    {"stablehlo.get_dimension_size", "dimension"},
    {"stablehlo.convolution", "dimension_numbers"}, {"stablehlo.convolution", "window_strides"},
    {"stablehlo.convolution", "padding"}, {"stablehlo.convolution", "lhs_dilation"},
    {"stablehlo.convolution", "rhs_dilation"}, {"stablehlo.convolution", "window_reversal"},
    {"stablehlo.convolution", "feature_group_count"}, {"stablehlo.convolution", "batch_group_count"},
    {"stablehlo.convolution", "precision_config"},
    {"stablehlo.gather", "dimension_numbers"}, {"stablehlo.gather", "slice_sizes"},
    {"stablehlo.gather", "indices_are_sorted"}, {"stablehlo.scatter", "scatter_dimension_numbers"},
    {"stablehlo.scatter", "indices_are_sorted"}, {"stablehlo.scatter", "unique_indices"},
    {"stablehlo.reduce_window", "window_dimensions"}, {"stablehlo.reduce_window", "window_strides"},
    {"stablehlo.reduce_window", "base_dilations"}, {"stablehlo.reduce_window", "window_dilations"},
    {"stablehlo.reduce_window", "padding"}, {"stablehlo.sort", "dimension"},
    {"stablehlo.sort", "is_stable"}, {"stablehlo.reduce_precision", "exponent_bits"},
    {"stablehlo.reduce_precision", "mantissa_bits"},
    // Collectives.
    {"stablehlo.all_reduce", "replica_groups"}, {"stablehlo.all_reduce", "channel_handle"},
    {"stablehlo.all_reduce", "use_global_device_ids"}, {"stablehlo.all_gather", "all_gather_dim"},
    {"stablehlo.all_gather", "replica_groups"}, {"stablehlo.all_gather", "channel_handle"},
    {"stablehlo.all_gather", "use_global_device_ids"}, {"stablehlo.reduce_scatter", "scatter_dimension"},
    {"stablehlo.reduce_scatter", "replica_groups"}, {"stablehlo.reduce_scatter", "channel_handle"},
    {"stablehlo.reduce_scatter", "use_global_device_ids"}, {"stablehlo.all_to_all", "split_dimension"},
    {"stablehlo.all_to_all", "concat_dimension"}, {"stablehlo.all_to_all", "split_count"},
    {"stablehlo.all_to_all", "replica_groups"}, {"stablehlo.all_to_all", "channel_handle"},
    {"stablehlo.collective_permute", "source_target_pairs"}, {"stablehlo.collective_permute", "channel_handle"},
    {"stablehlo.collective_broadcast", "replica_groups"}, {"stablehlo.collective_broadcast", "channel_handle"},
    // Other ops usually written in generic form.
    {"stablehlo.scatter", "dimension_numbers"}, {"stablehlo.select_and_scatter", "window_dimensions"},
    {"stablehlo.select_and_scatter", "window_strides"}, {"stablehlo.select_and_scatter", "padding"},
    {"stablehlo.triangular_solve", "left_side"}, {"stablehlo.triangular_solve", "lower"},
    {"stablehlo.triangular_solve", "unit_diagonal"}, {"stablehlo.triangular_solve", "transpose_a"},
    {"stablehlo.batch_norm_inference", "epsilon"}, {"stablehlo.batch_norm_inference", "feature_index"},
    {"stablehlo.batch_norm_training", "epsilon"}, {"stablehlo.batch_norm_training", "feature_index"},
    {"stablehlo.batch_norm_grad", "epsilon"}, {"stablehlo.batch_norm_grad", "feature_index"},
    {"stablehlo.dynamic_iota", "iota_dimension"}, {"stablehlo.map", "dimensions"},
    {"stablehlo.composite", "name"}, {"stablehlo.composite", "composite_attributes"},
    {"stablehlo.composite", "decomposition"}, {"stablehlo.composite", "version"},
    // Dynamic-shape and other ops with a pretty form.
    {"stablehlo.dynamic_broadcast_in_dim", "broadcast_dimensions"},
    {"stablehlo.dynamic_broadcast_in_dim", "known_expanding_dimensions"},
    {"stablehlo.dynamic_broadcast_in_dim", "known_nonexpanding_dimensions"},
    {"stablehlo.broadcast", "broadcast_sizes"}, {"stablehlo.set_dimension_size", "dimension"},
    {"stablehlo.einsum", "einsum_config"}, {"stablehlo.unary_einsum", "einsum_config"},
    {"stablehlo.rng", "rng_distribution"}, {"stablehlo.dynamic_gather", "dimension_numbers"},
    {"stablehlo.dynamic_gather", "indices_are_sorted"}, {"stablehlo.dynamic_conv", "dimension_numbers"},
    {"stablehlo.dynamic_conv", "window_strides"}, {"stablehlo.dynamic_conv", "lhs_dilation"},
    {"stablehlo.dynamic_conv", "rhs_dilation"}, {"stablehlo.dynamic_conv", "window_reversal"},
    {"stablehlo.dynamic_conv", "feature_group_count"}, {"stablehlo.dynamic_conv", "batch_group_count"},
    {"stablehlo.dynamic_conv", "precision_config"}, {"stablehlo.torch_index_select", "dim"},
    {"stablehlo.torch_index_select", "batch_dims"},
    {"stablehlo.infeed", "infeed_config"}, {"stablehlo.infeed", "layout"},
    {"stablehlo.outfeed", "outfeed_config"}, {"stablehlo.send", "channel_handle"},
    {"stablehlo.send", "is_host_transfer"}, {"stablehlo.send", "source_target_pairs"},
    {"stablehlo.recv", "channel_handle"}, {"stablehlo.recv", "is_host_transfer"},
    {"stablehlo.recv", "source_target_pairs"}, {"stablehlo.collective_reduce", "replica_groups"},
    {"stablehlo.collective_reduce", "channel_handle"}, {"stablehlo.async_start", "execution_thread"},
    // CHLO.
    {"chlo.top_k", "k"}, {"chlo.top_k", "is_stable"}, {"chlo.constant", "value"},
    {"chlo.constant_like", "value"}, {"chlo.broadcast_compare", "comparison_direction"},
    {"chlo.broadcast_compare", "compare_type"}, {"chlo.ragged_dot", "ragged_dot_dimension_numbers"},
    {"chlo.ragged_dot", "precision_config"}, {"chlo.scan", "dimension"}, {"chlo.scan", "is_reverse"},
    {"chlo.scan", "is_associative"},
};
}  // namespace

bool isInherentAttr(std::string_view opName, std::string_view attr) {
  // Every CHLO broadcasting op (`chlo.broadcast_add`, ...) has them.
  if (attr == "broadcast_dimensions" && opName.substr(0, 15) == "chlo.broadcast_") return true;
  // Keyed by (op, attribute), both views of the table's literals: asked for
  // every attribute the reader sees, so a lookup builds no string.
  struct Key {
    std::string_view op, attr;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      std::hash<std::string_view> h;
      return h(k.op) * 31 + h(k.attr);
    }
  };
  static const std::unordered_set<Key, KeyHash> table = [] {
    std::unordered_set<Key, KeyHash> t;
    for (const InherentEntry& e : kInherent) t.insert({e.op, e.attr});
    return t;
  }();
  return table.count({opName, attr}) != 0;
}

bool isIsolatedFromAbove(std::string_view opName) {
  return opName == "func.func" || opName == "builtin.module";
}

}  // namespace shardscope::ir
