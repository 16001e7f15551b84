// Explicit reshards of one op with a sharding rule (see reshard_insertion.h).
#include "passes/explicit_reshards/reshard_insertion.h"

#include <optional>
#include <algorithm>
#include <set>

#include "passes/explicit_reshards/common_factor_axes.h"
#include "passes/explicit_reshards/dot_result_reshard.h"
#include "passes/explicit_reshards/insert_point.h"
#include "passes/explicit_reshards/reshape_overflow.h"
#include "passes/pass_utils.h"
#include "propagation/axis_algebra.h"

namespace shardscope::passes::explicit_reshards {

namespace prop = shardscope::propagation;

namespace {

// Drop from `row` the factors of a dimension that come after the factor
// right behind an overflowing one: nothing can shard them.
void dropFactorsPastOverflow(prop::TensorFactorShardings& row, const TensorFactorMapping& mapping) {
  std::set<int64_t> dropped;
  for (const std::vector<int64_t>& dim : mapping.dims) {
    for (size_t k = 0; k < dim.size(); ++k) {
      const prop::FactorSharding* fs = row.find(dim[k]);
      if (!fs || fs->overflowAxes.empty()) continue;
      for (size_t later = k + 2; later < dim.size(); ++later) dropped.insert(dim[later]);
      break;
    }
  }
  if (dropped.empty()) return;
  prop::FactorShardingMap kept;
  for (const auto& [factor, fs] : row.factors)
    if (!dropped.count(factor)) kept[factor] = fs;
  row.factors = std::move(kept);
}

bool onAnotherDeviceOrder(const ReshardContext& ctx, const std::optional<TensorSharding>& sharding,
                          const OpMesh& mesh) {
  if (shardsNoDimension(sharding)) return false;
  const Mesh* own = ctx.meshes.of(*sharding);
  return own && own->deviceIds != mesh.mesh->deviceIds;
}

// Set `factor` to `axes` (no overflow) in every tensor mapping it.
void setFactorAxes(prop::ShardingProjection& projection, int64_t factor, const AxisRefList& axes,
                   prop::UpdateTensorShardings& changed) {
  auto update = [&](prop::TensorFactorShardings& row) {
    auto it = row.factors.find(factor);
    if (it == row.factors.end()) return false;
    prop::FactorSharding& fs = it->second;
    if (fs.axes == axes && fs.overflowAxes.empty()) return false;
    fs.axes = axes;
    fs.overflowAxes.clear();
    return true;
  };
  for (size_t i = 0; i < projection.operands.size(); ++i)
    if (update(projection.operands[i])) changed.operands[i] = true;
  for (size_t i = 0; i < projection.results.size(); ++i)
    if (update(projection.results[i])) changed.results[i] = true;
}

// Whether setFactorAxes(projection, f, common[f], ...) for every factor f
// would change some tensor's row.
bool commonAxesChange(const prop::ShardingProjection& projection, const AxesPerFactor& common) {
  for (const std::vector<prop::TensorFactorShardings>* rows : {&projection.operands, &projection.results})
    for (const prop::TensorFactorShardings& row : *rows)
      for (const auto& [factor, fs] : row.factors)
        if (factor >= 0 && factor < static_cast<int64_t>(common.size()) &&
            !(fs.axes == common[static_cast<size_t>(factor)] && fs.overflowAxes.empty()))
          return true;
  return false;
}

// The first factor whose axes differ between two rows of one tensor.
int64_t firstChangedFactor(const prop::TensorFactorShardings& before, const prop::TensorFactorShardings& after) {
  for (const auto& [factor, fs] : after.factors) {
    const prop::FactorSharding* old = before.find(factor);
    if (!old || !(old->axes == fs.axes) || !old->overflowAxes.empty()) return factor;
  }
  return -1;
}

AxisRefList axesOf(const prop::TensorFactorShardings& row, int64_t factor) {
  const prop::FactorSharding* fs = row.find(factor);
  if (!fs) return {};
  AxisRefList axes = fs->axes;
  axes.insert(axes.end(), fs->overflowAxes.begin(), fs->overflowAxes.end());
  return axes;
}

std::string tensorName(const prop::ShardingProjection& projection, size_t t) {
  return t < projection.numOperands() ? "operand " + std::to_string(t)
                                      : "result " + std::to_string(t - projection.numOperands());
}

// Why `factor` ended up on `after` rather than `before`: which factor took
// the axes it lost, and which tensor already had the axes it keeps, e.g.
// `"x" shards factor j instead (as in operand 1)`.
std::string whyFactorChanged(int64_t factor, const AxisRefList& before, const AxisRefList& after,
                             const prop::ShardingProjection& original, const prop::ShardingProjection& chosen,
                             const Mesh& mesh) {
  std::string why;
  for (const AxisRef& lost : axisSetDiff(before, after, mesh)) {
    for (size_t t = 0; t < chosen.numTensors() && why.empty(); ++t) {
      for (const auto& [other, fs] : chosen.tensor(t).factors) {
        if (other == factor || !prop::anyOverlap(fs.axes, {lost})) continue;
        why = lost.str() + " shards factor " + OpShardingRule::factorName(other) + " instead";
        for (size_t u = 0; u < original.numTensors(); ++u)
          if (const prop::FactorSharding* held = original.tensor(u).find(other); held && held->axes == fs.axes) {
            why += " (as in " + tensorName(original, u) + ")";
            break;
          }
        break;
      }
    }
    if (!why.empty()) break;
  }
  if (why.empty() && !after.empty()) {
    for (size_t u = 0; u < original.numTensors(); ++u)
      if (const prop::FactorSharding* held = original.tensor(u).find(factor); held && held->axes == after) {
        why = "as in " + tensorName(original, u);
        break;
      }
  }
  return why;
}

ReshardCause reshardCause(const ir::Op* op, const ir::Op* inserted, ReshardCause::Site site, unsigned index,
                          const prop::ShardingProjection& original, const prop::ShardingProjection& chosen,
                          const std::optional<TensorSharding>& from, const TensorSharding& to,
                          const OpMesh& mesh) {
  size_t tensor = site == ReshardCause::Site::Operand ? index : original.numOperands() + index;
  const prop::TensorFactorShardings& before = original.tensor(tensor);
  const prop::TensorFactorShardings& after = chosen.tensor(tensor);
  ReshardCause cause =
      ReshardCause::make(ReshardCause::Kind::Reshard, inserted, op, site, index, from, to, std::string());
  std::string where = tensorName(original, tensor) + " of " + op->name();
  cause.factor = firstChangedFactor(before, after);
  if (cause.factor >= 0) {
    cause.factorName = OpShardingRule::factorName(cause.factor);
    cause.factorAxesBefore = axesOf(before, cause.factor);
    cause.factorAxesAfter = axesOf(after, cause.factor);
    cause.reason = where + " has factor " + cause.factorName + " sharded on " +
                   strAxisList(cause.factorAxesBefore) + ", but the op is computed with " + cause.factorName +
                   " on " + strAxisList(cause.factorAxesAfter);
    std::string why = whyFactorChanged(cause.factor, cause.factorAxesBefore, cause.factorAxesAfter, original,
                                       chosen, *mesh.mesh);
    if (!why.empty()) cause.reason += ": " + why;
  } else {
    cause.reason = where + " is on mesh @" + (from ? from->mesh.name : std::string()) +
                   ", but the op is computed on @" + mesh.name + " (another device order)";
  }
  return cause;
}

std::vector<int64_t> sorted(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// All-reduce every result over the axes of the reduction factors that the
// results do not keep unreduced.
void allReduceReductionFactors(ir::Op* op, const prop::ShardingProjection& projection,
                               const AxesPerFactor& common, const OpShardingRule& rule, const OpMesh& mesh,
                               bool fullVersion, const ReshardContext& ctx) {
  if (op->numResults() == 0) return;
  std::optional<TensorSharding> first = shardingOf(op->result(0));
  AxisRefList unreduced = first ? first->unreduced : AxisRefList{};
  AxisRefList reductionAxes;
  int64_t blamed = -1;
  for (int64_t factor : sorted(rule.reductionFactors)) {
    AxisRefList axes;
    if (fullVersion) {
      axes = common.empty() ? AxisRefList{} : common[factor];
    } else {
      // Only when the results keep some axes unreduced.
      if (unreduced.empty()) return;
      std::optional<AxisRefList> agreed = agreedFactorAxes(projection, factor);
      if (!agreed) return;
      axes = *agreed;
    }
    if (!axes.empty() && blamed < 0) blamed = factor;
    reductionAxes.insert(reductionAxes.end(), axes.begin(), axes.end());
  }
  if (reductionAxes.empty()) return;
  AxisRefList allReduceAxes = axisSetDiff(reductionAxes, unreduced, *mesh.mesh);
  if (allReduceAxes.empty()) return;
  sortAndMerge(allReduceAxes, *mesh.mesh);

  InsertPoint at = InsertPoint::afterOp(op);
  for (ir::Value* result : op->results()) {
    std::optional<TensorSharding> sharding = shardingOf(result);
    TensorSharding out = sharding ? *sharding : TensorSharding::replicatedOf(mesh.ref(), result->type->rank(), true);
    ir::Op* allReduce = createAllReduce(at, result, allReduceAxes, out, out.unreducedReduction, op->loc());
    ir::Value* reduced = allReduce->result(0);
    result->replaceUsesWithIf(reduced, [&](const ir::Use& u) { return u.user != allReduce; });

    ReshardCause cause = ReshardCause::make(ReshardCause::Kind::AllReduce, allReduce, op,
                                            ReshardCause::Site::Result, result->index, out, out, std::string());
    cause.factor = blamed;
    if (blamed >= 0) {
      cause.factorName = OpShardingRule::factorName(blamed);
      cause.factorAxesAfter = fullVersion ? common[blamed] : AxisRefList{};
    }
    cause.axes = allReduceAxes;
    cause.reason = "result " + std::to_string(result->index) + " of " + op->name() +
                   " holds partial results: reduction factor " + cause.factorName + " is sharded on " +
                   strAxisList(allReduceAxes) + ", so they are summed over it";
    ctx.record(std::move(cause));
  }
}

}  // namespace

std::vector<int64_t> tensorSizes(const ir::Op& op) {
  std::vector<int64_t> sizes;
  auto add = [&](const ir::Value* v) {
    sizes.push_back(v->type->isRankedTensor() && v->type->hasStaticShape() ? v->type->numElements() : 0);
  };
  for (const ir::Value* v : op.operands()) add(v);
  for (const ir::Value* v : op.resultRange()) add(v);
  return sizes;
}

prop::ShardingProjection projectForReshards(const OptionalShardings& operands, const OptionalShardings& results,
                                            const OpShardingRule& rule, const Mesh& mesh) {
  prop::ShardingProjection projection =
      prop::ShardingProjection::build(operands, results, rule, mesh, /*closedIfMissing=*/true);
  for (size_t i = 0; i < projection.operands.size(); ++i)
    dropFactorsPastOverflow(projection.operands[i], rule.operands[i]);
  for (size_t i = 0; i < projection.results.size(); ++i)
    dropFactorsPastOverflow(projection.results[i], rule.results[i]);
  return projection;
}

void reshardToProjection(ir::Op* op, const OpShardingRule& rule, const OpMesh& mesh,
                         const OptionalShardings& operands, const OptionalShardings& results,
                         const prop::ShardingProjection& original, const prop::ShardingProjection& projection,
                         const prop::UpdateTensorShardings& changed, const ReshardContext& ctx) {
  InsertPoint before = InsertPoint::beforeOp(op);
  for (unsigned i = 0; i < operands.size() && i < op->numOperands(); ++i) {
    if (!changed.operands[i] && !onAnotherDeviceOrder(ctx, operands[i], mesh)) continue;
    TensorSharding sharding =
        prop::unprojectTensor(projection.operands[i], rule.operands[i], rule.factorSizes, mesh.ref(), *mesh.mesh);
    ir::Op* reshard = createReshard(before, op->operand(i), sharding, op->loc());
    op->setOperand(i, reshard->result(0));
    ctx.record(reshardCause(op, reshard, ReshardCause::Site::Operand, i, original, projection, operands[i],
                            sharding, mesh));
  }
  InsertPoint after = InsertPoint::afterOp(op);
  for (unsigned i = 0; i < results.size() && i < op->numResults(); ++i) {
    if (!changed.results[i] && !onAnotherDeviceOrder(ctx, results[i], mesh)) continue;
    ir::Value* result = op->result(i);
    TensorSharding sharding =
        prop::unprojectTensor(projection.results[i], rule.results[i], rule.factorSizes, mesh.ref(), *mesh.mesh);
    // What the result has now: its own sharding, or, when the op had none
    // and an earlier result was just given one, the open sharding that left
    // the others with (sdy_opt does the same).
    std::optional<TensorSharding> current = shardingOf(result);
    TensorSharding wanted =
        current ? *current : TensorSharding::replicatedOf(mesh.ref(), result->type->rank(), true);
    ir::Op* reshard = createReshard(after, result, wanted, op->loc());
    result->replaceUsesWithIf(reshard->result(0), [&](const ir::Use& u) { return u.user != reshard; });
    util::setSharding(result, sharding);
    ctx.record(reshardCause(op, reshard, ReshardCause::Site::Result, i, original, projection, sharding, wanted,
                            mesh));
  }
}

void insertReshardsForOp(ir::Op* op, const OpShardingRule& rule, const OpMesh& mesh,
                         const OptionalShardings& operands, const OptionalShardings& results, bool fullVersion,
                         const ReshardContext& ctx) {
  prop::ShardingProjection projection = projectForReshards(operands, results, rule, *mesh.mesh);
  AxesPerFactor common;
  if (fullVersion) {
    if (op->is("stablehlo.reshape") && hasOverflowAxes(projection)) {
      common = reshardReshapeWithOverflow(op, rule, mesh, operands, results, projection, ctx);
    } else {
      common = chooseCommonFactorAxes(projection, rule, tensorSizes(*op), *mesh.mesh);
      // The projection before the common axes, for the reshards' causes. On
      // most ops every tensor agrees already and the projection stays as it
      // is: it is copied only when setFactorAxes will change it.
      std::optional<prop::ShardingProjection> original;
      if (commonAxesChange(projection, common)) original = projection;
      prop::UpdateTensorShardings changed(projection.numOperands(), projection.numResults());
      for (int64_t factor = 0; factor < static_cast<int64_t>(common.size()); ++factor)
        setFactorAxes(projection, factor, common[factor], changed);
      reshardToProjection(op, rule, mesh, operands, results, original ? *original : projection, projection,
                          changed, ctx);
    }
  } else if (op->is("stablehlo.dot") || op->is("stablehlo.dot_general")) {
    reshardDotResult(op, rule, mesh, results, projection, ctx);
  }
  allReduceReductionFactors(op, projection, common, rule, mesh, fullVersion, ctx);
}

}  // namespace shardscope::passes::explicit_reshards
