// The op sharding rule registry: which factors each op's tensors share.
//
// `stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]` on
// tensor<8x32> x tensor<32x16> gets
//   ([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}
// so a sharding of %a's dim 0 flows to the result's dim 0 along `i`, and one
// along `k` needs an all-reduce of the result.
#pragma once
#include <optional>

#include "ir/diagnostics.h"
#include "ir/operation.h"
#include "sharding/op_sharding_rule.h"

namespace shardscope::rules {

// The discardable attribute holding an op's rule.
inline constexpr const char* kShardingRuleAttr = "sdy.sharding_rule";

// The rule the registry gives `op`, or nullopt for ops that have none:
// ops propagation handles itself (func.func, while, constants, sdy ops),
// terminators, size-0 reshapes, and ops it does not know. For the last, one
// warning per `diags` sink and kind (`custom call @X is unknown to SDY
// sharding rule registry`, `op 'X' is unknown to SDY sharding rule registry`).
//
// With `conservativePropagation`, dimensions whose sharding would need
// communication (convolution spatial dims, concat dim, padded / sliced /
// windowed dims) are given no factor or a blocked one.
std::optional<OpShardingRule> createOpShardingRule(const ir::Op& op,
                                                   bool conservativePropagation = false,
                                                   ir::DiagnosticSink* diags = nullptr);

// The rule already on `op` (`sdy.sharding_rule`, e.g. a user's `custom`
// rule) if any, else `createOpShardingRule`; with `setOnOp`, a created rule
// is stored on the op.
std::optional<OpShardingRule> getOrCreateOpShardingRule(ir::Op& op,
                                                        bool conservativePropagation = false,
                                                        ir::DiagnosticSink* diags = nullptr,
                                                        bool setOnOp = true);

// Whether the rule createOpShardingRule gives `op` is a function of the op's
// name, operand and result types and attributes alone, so that two ops alike
// in these get equal rules. False for the ops whose rule also looks at the
// producers of their operands (concatenate, dynamic_update_slice), at their
// uses (custom_call) or at their body (scatter).
bool ruleDependsOnlyOnSignature(const ir::Op& op);

// The rule stored on `op`, or nullptr.
const OpShardingRule* existingOpShardingRule(const ir::Op& op);

}  // namespace shardscope::rules
