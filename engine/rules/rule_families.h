// Internal to engine/rules: the rule of each op family, one function per op,
// grouped by file (shape_rules.cpp, contraction_rules.cpp, ...). The registry
// (op_sharding_rule_registry.cpp) maps op names to these.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "ir/operation.h"
#include "rules/op_sharding_rule_builder.h"
#include "sharding/op_sharding_rule.h"

namespace shardscope::rules::detail {

using RuleResult = std::optional<OpShardingRule>;

// What every family function gets besides the op.
struct RuleContext {
  bool conservative = false;
  ir::DiagnosticSink* diags = nullptr;
};

// Shape of a value (empty for scalars and non-tensors).
inline const std::vector<int64_t>& shapeOf(const ir::Value* v) {
  static const std::vector<int64_t> kNone;
  return v && v->type->isRankedTensor() ? v->type->shape : kNone;
}
inline const std::vector<int64_t>& operandShape(const ir::Op& op, unsigned i) {
  return shapeOf(i < op.numOperands() ? op.operand(i) : nullptr);
}
inline const std::vector<int64_t>& resultShape(const ir::Op& op, unsigned i) {
  return shapeOf(i < op.numResults() ? op.result(i) : nullptr);
}
inline bool contains(const std::vector<int64_t>& v, int64_t x) {
  for (int64_t e : v)
    if (e == x) return true;
  return false;
}

// shape_rules.cpp
RuleResult bitcastConvertRule(const ir::Op& op, const RuleContext& ctx);
RuleResult broadcastInDimRule(const ir::Op& op, const RuleContext& ctx);
RuleResult concatenateRule(const ir::Op& op, const RuleContext& ctx);
RuleResult dynamicSliceRule(const ir::Op& op, const RuleContext& ctx);
RuleResult dynamicUpdateSliceRule(const ir::Op& op, const RuleContext& ctx);
RuleResult padRule(const ir::Op& op, const RuleContext& ctx);
RuleResult reverseRule(const ir::Op& op, const RuleContext& ctx);
RuleResult sliceRule(const ir::Op& op, const RuleContext& ctx);
RuleResult transposeRule(const ir::Op& op, const RuleContext& ctx);

// reshape_rule.cpp
RuleResult reshapeRule(const ir::Op& op, const RuleContext& ctx);

// contraction_rules.cpp
RuleResult dotRule(const ir::Op& op, const RuleContext& ctx);
RuleResult dotGeneralRule(const ir::Op& op, const RuleContext& ctx);
RuleResult reduceRule(const ir::Op& op, const RuleContext& ctx);

// convolution_rule.cpp
RuleResult convolutionRule(const ir::Op& op, const RuleContext& ctx);

// window_rules.cpp
RuleResult reduceWindowRule(const ir::Op& op, const RuleContext& ctx);
RuleResult selectAndScatterRule(const ir::Op& op, const RuleContext& ctx);

// gather_scatter_rules.cpp
RuleResult gatherRule(const ir::Op& op, const RuleContext& ctx);
RuleResult scatterRule(const ir::Op& op, const RuleContext& ctx);

// collective_rules.cpp
RuleResult allGatherRule(const ir::Op& op, const RuleContext& ctx);
RuleResult allToAllRule(const ir::Op& op, const RuleContext& ctx);
RuleResult reduceScatterRule(const ir::Op& op, const RuleContext& ctx);

// linalg_rules.cpp (and other per-dimension rules)
RuleResult batchNormInferenceRule(const ir::Op& op, const RuleContext& ctx);
RuleResult choleskyRule(const ir::Op& op, const RuleContext& ctx);
RuleResult clampRule(const ir::Op& op, const RuleContext& ctx);
RuleResult fftRule(const ir::Op& op, const RuleContext& ctx);
RuleResult rngBitGeneratorRule(const ir::Op& op, const RuleContext& ctx);
RuleResult selectRule(const ir::Op& op, const RuleContext& ctx);
RuleResult sortRule(const ir::Op& op, const RuleContext& ctx);
RuleResult triangularSolveRule(const ir::Op& op, const RuleContext& ctx);

// custom_call_rules.cpp
RuleResult customCallRule(const ir::Op& op, const RuleContext& ctx);

// op_sharding_rule_registry.cpp: the one-warning-per-sink helper.
void warnUnknownOnce(ir::DiagnosticSink* diags, const ir::Op& op, const std::string& message,
                     const std::string& prefix);

}  // namespace shardscope::rules::detail
