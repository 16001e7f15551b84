// Resharding a dot's result instead of its operand (see dot_result_reshard.h).
#include "passes/explicit_reshards/dot_result_reshard.h"

#include <algorithm>

#include "passes/explicit_reshards/insert_point.h"
#include "passes/pass_utils.h"
#include "propagation/axis_algebra.h"

namespace shardscope::passes::explicit_reshards {

namespace prop = shardscope::propagation;

void reshardDotResult(ir::Op* dot, const OpShardingRule& rule, const OpMesh& mesh, const OptionalShardings& results,
                      prop::ShardingProjection& projection, const ReshardContext& ctx) {
  if (results.empty() || !results[0] || projection.numOperands() < 2 || projection.numResults() < 1) return;
  const prop::TensorFactorShardings& lhs = projection.operands[0];
  const prop::TensorFactorShardings& rhs = projection.operands[1];
  prop::TensorFactorShardings& result = projection.results[0];
  std::vector<int64_t> sizes = tensorSizes(*dot);
  int64_t lhsSize = sizes[0], rhsSize = sizes[1], resultSize = sizes[2];

  int64_t conflicting = -1;
  AxisRefList operandAxesOfConflict;
  AxisRefList contractingAxes;
  AxisRefList nonContractingAxes;
  for (int64_t factor = 0; factor < rule.numFactors(); ++factor) {
    const prop::FactorSharding* l = lhs.find(factor);
    const prop::FactorSharding* r = rhs.find(factor);
    AxisRefList operandAxes;
    int64_t operandSize = 0;
    if (l && r) {
      if (!(l->axes == r->axes)) return;  // lhs and rhs disagree
      operandAxes = l->axes;
      operandSize = std::max(lhsSize, rhsSize);
      if (rule.factorType(factor) == FactorType::Reduction) {
        contractingAxes.insert(contractingAxes.end(), operandAxes.begin(), operandAxes.end());
        continue;
      }
    } else if (l || r) {
      operandAxes = l ? l->axes : r->axes;
      operandSize = l ? lhsSize : rhsSize;
      for (const AxisRef& axis : operandAxes) {
        for (const AxisRef& seen : nonContractingAxes)
          if (prop::overlaps(seen, axis)) return;  // one axis on both sides
        nonContractingAxes.push_back(axis);
      }
    } else {
      continue;
    }
    const prop::FactorSharding* res = result.find(factor);
    if (!res || res->axes == operandAxes) continue;
    if (operandAxes.empty() || conflicting >= 0 || resultSize > operandSize) return;
    conflicting = factor;
    operandAxesOfConflict = operandAxes;
  }
  if (conflicting < 0) return;
  AxisRefList& resultAxes = result.factors[conflicting].axes;
  if (resultAxes.empty() || !(resultAxes == contractingAxes)) return;

  AxisRefList before = resultAxes;
  resultAxes = operandAxesOfConflict;
  ir::Value* value = dot->result(0);
  TensorSharding computed =
      prop::unprojectTensor(result, rule.results[0], rule.factorSizes, mesh.ref(), *mesh.mesh);
  util::setSharding(value, computed);
  InsertPoint at = InsertPoint::afterOp(dot);
  ir::Op* reshard = createReshard(at, value, *results[0], dot->loc());
  value->replaceUsesWithIf(reshard->result(0), [&](const ir::Use& u) { return u.user != reshard; });

  ReshardCause cause = ReshardCause::make(ReshardCause::Kind::Reshard, reshard, dot, ReshardCause::Site::Result, 0,
                                          computed, *results[0], std::string());
  cause.factor = conflicting;
  cause.factorName = OpShardingRule::factorName(conflicting);
  cause.factorAxesBefore = before;
  cause.factorAxesAfter = operandAxesOfConflict;
  cause.reason = "result of " + dot->name() + " wants factor " + cause.factorName + " on the contracting axes " +
                 strAxisList(before) + "; the dot is computed with " + cause.factorName + " on " +
                 strAxisList(operandAxesOfConflict) + " like its operand and the smaller result is resharded";
  ctx.record(std::move(cause));
}

}  // namespace shardscope::passes::explicit_reshards
