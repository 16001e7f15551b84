// Reshards on the edges where a value must arrive with a given sharding
// rather than on ops with a sharding rule: a function's results (the
// function's result shardings), the arguments of a call (the callee's
// argument shardings) and the sources of a data-flow edge (while, case,
// optimization_barrier, manual and named computations: the edge owner's
// sharding).
//
// On each such edge: unreduced axes the target does not keep are
// all-reduced first; then, when the sharding still differs (and the full
// version applies), an `sdy.reshard` to the target (fully replicated and
// closed when the target has no sharding) is inserted.
//
// Example: `func.func @f(%a {sdy.sharding = <@m, [{"x"}]>}) -> (tensor<8xf32>
// {sdy.sharding = <@m, [{}]>})` returning %a gets
//   %0 = sdy.reshard %a <@m, [{}]>
//   return %0
#pragma once
#include "ir/operation.h"
#include "passes/explicit_reshards/insert_point.h"
#include "passes/explicit_reshards/reshard_insertion.h"

namespace shardscope::passes::explicit_reshards {

// Bring operand `use.index` of `use.user` to `target` (see above). `at`
// is where the new ops go. Returns the sharding the operand has afterwards.
std::optional<TensorSharding> reshardUseToTarget(const ir::Use& use, const std::optional<TensorSharding>& target,
                                                 InsertPoint& at, bool fullVersion, const ReshardContext& ctx);

// All-reduce operand `use` when its `source` sharding has unreduced axes
// that `userSharding` does not keep; returns the sharding after that.
std::optional<TensorSharding> allReduceUnkeptUnreducedAxes(const ir::Use& use,
                                                           const std::optional<TensorSharding>& source,
                                                           const std::optional<TensorSharding>& userSharding,
                                                           InsertPoint& at, const ReshardContext& ctx);

// The edges of one data-flow op.
void reshardDataFlowEdges(ir::Op* op, bool fullVersion, const ReshardContext& ctx);
// The arguments of one `func.call`.
void reshardCallArguments(ir::Op* call, const ReshardContext& ctx);
// The operands of `func`'s `func.return`.
void reshardFuncResults(ir::Op* func, bool fullVersion, const ReshardContext& ctx);

}  // namespace shardscope::passes::explicit_reshards
