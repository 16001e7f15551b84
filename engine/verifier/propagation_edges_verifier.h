// The checks of an op's `sdy.propagation_edges` (ir/propagation_edges.h)
// against the op, with sdy_opt's messages. The edges must point at some
// sharded operand or result, those shardings must share one mesh, every
// axis must be in it, and every operand/result index must exist (but on
// `sdy.func_data_flow_edge`, whose edges stand for the function's values).
//
// Example: on `%0 = stablehlo.add %arg0, %arg0` (two operands, one result)
// with `%arg0` sharded on @mesh = <["z"=4]>,
//   {step-22 = [{"z" = operand-1 -> [operand-0, result-1]}]}
// gives `expected a value ref to have a result index in range [0, 1), got: 1`.
#pragma once
#include <functional>
#include <optional>

#include "ir/operation.h"
#include "verifier/verifier.h"
#include "verifier/verifier_support.h"

namespace shardscope {

// The sharding a value carries, or nullopt (as sdy's getSharding).
using ValueShardingFn = std::function<std::optional<TensorSharding>(const ir::Value*)>;

VerifyResult verifyPropagationEdges(const ir::PropagationEdgesAttr& edges, const ir::Op& op,
                                    const ValueShardingFn& shardingOf,
                                    const verifier_support::MeshTable& meshes);

}  // namespace shardscope
