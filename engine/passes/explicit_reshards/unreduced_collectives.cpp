// Replicated/sharded-to-unreduced collectives (see unreduced_collectives.h).
#include "passes/explicit_reshards/unreduced_collectives.h"

#include "passes/pass_utils.h"
#include "propagation/axis_algebra.h"

namespace shardscope::passes::explicit_reshards {

namespace prop = shardscope::propagation;

namespace {

// The part of `a` after `b` (`"x"` after `"x":(1)2` is `"x":(2)2`).
std::optional<AxisRef> suffixAfter(const AxisRef& a, const AxisRef& b, const Mesh& mesh) {
  int64_t aNext = a.preSize() * a.size(mesh);
  int64_t bNext = b.preSize() * b.size(mesh);
  if (!prop::overlaps(a, b) || aNext <= bNext) return std::nullopt;
  return prop::makeSubAxis(a.name, bNext, aNext / bNext, mesh);
}

std::string reasonFor(const ir::Use& use, const char* how, const AxisRefList& axes) {
  return "operand " + std::to_string(use.index) + " of " + use.user->name() + " must hold partial sums over " +
         strAxisList(axes) + ", which are " + how + " in it";
}

}  // namespace

std::optional<TensorSharding> makeUnreducedAxes(const ir::Use& use, const std::optional<TensorSharding>& target,
                                                InsertPoint& at, const ReshardContext& ctx) {
  ir::Value* input = use.user->operand(use.index);
  std::optional<TensorSharding> in = shardingOf(input);
  if (!in || !target || target->unreduced.empty()) return std::nullopt;
  const Mesh* mesh = ctx.meshes.of(*in);
  const Mesh* outMesh = ctx.meshes.of(*target);
  if (!mesh || !outMesh || mesh->axes != outMesh->axes || in->rank() != target->rank()) return std::nullopt;

  // out = in + replicated-to-unreduced + sharded-to-unreduced.
  AxisRefList added = axisSetDiff(target->unreduced, in->unreduced, *mesh);
  if (added.empty()) return std::nullopt;
  if (!axisSetDiff(in->unreduced, target->unreduced, *mesh).empty()) return std::nullopt;

  AxisRefList shardedAxes;
  std::vector<AxisRefList> perDim(in->dims.size());
  std::vector<DimensionSharding> aligned = target->dims;
  bool needReshard = false;
  for (size_t d = 0; d < in->dims.size(); ++d) {
    const AxisRefList& inAxes = in->dims[d].axes;
    const AxisRefList& outAxes = target->dims[d].axes;
    prop::PrefixStatus status = prop::listPrefixStatus(outAxes, inAxes);
    if (status == prop::PrefixStatus::NotAPrefix) {
      needReshard = true;
      continue;
    }
    if (status != prop::PrefixStatus::StrictPrefix) continue;
    // The minor axes the target drops from this dimension.
    AxisRefList dropped;
    size_t kept = outAxes.size();
    if (kept > 0 && !(outAxes.back() == inAxes[kept - 1])) {
      if (std::optional<AxisRef> rest = suffixAfter(inAxes[kept - 1], outAxes.back(), *mesh)) dropped.push_back(*rest);
    }
    dropped.insert(dropped.end(), inAxes.begin() + static_cast<std::ptrdiff_t>(kept), inAxes.end());
    if (axisSetDiff(dropped, added, *mesh).empty()) {
      // All of them are wanted unreduced: this dimension is gathered into
      // partial sums rather than resharded.
      perDim[d] = dropped;
      shardedAxes.insert(shardedAxes.end(), dropped.begin(), dropped.end());
      aligned[d] = in->dims[d];
    } else {
      needReshard = true;
    }
  }

  ir::Value* value = input;
  TensorSharding last = *in;
  if (needReshard) {
    TensorSharding reshardTo = *in;
    reshardTo.dims = aligned;
    ir::Op* reshard = createReshard(at, value, reshardTo, use.user->loc());
    ctx.record(ReshardCause::make(ReshardCause::Kind::Reshard, reshard, use.user, ReshardCause::Site::Operand,
                                  use.index, in, reshardTo,
                                  reasonFor(use, "not all minor axes of the dimensions they leave", added)));
    value = reshard->result(0);
    last = reshardTo;
  }
  AxisRefList replicatedAxes = axisSetDiff(added, shardedAxes, *mesh);
  if (!replicatedAxes.empty()) {
    TensorSharding next;
    next.mesh = in->mesh;
    next.dims = aligned;
    next.replicated = target->replicated;
    next.unreduced = in->unreduced;
    next.unreduced.insert(next.unreduced.end(), replicatedAxes.begin(), replicatedAxes.end());
    sortAndMerge(next.unreduced, *mesh);
    next.unreducedReduction = target->unreducedReduction;
    ir::Op* r2u = createReplicatedToUnreduced(at, value, replicatedAxes, next, use.user->loc());
    ReshardCause cause =
        ReshardCause::make(ReshardCause::Kind::ReplicatedToUnreduced, r2u, use.user, ReshardCause::Site::Operand,
                           use.index, last, next, reasonFor(use, "replicated", replicatedAxes));
    cause.axes = replicatedAxes;
    ctx.record(std::move(cause));
    value = r2u->result(0);
    last = next;
  }
  if (!shardedAxes.empty()) {
    ir::Op* s2u = createShardedToUnreduced(at, value, perDim, *target, use.user->loc());
    ReshardCause cause =
        ReshardCause::make(ReshardCause::Kind::ShardedToUnreduced, s2u, use.user, ReshardCause::Site::Operand,
                           use.index, last, *target, reasonFor(use, "sharding minor dimension axes", shardedAxes));
    cause.axes = shardedAxes;
    ctx.record(std::move(cause));
    value = s2u->result(0);
    last = *target;
  }
  if (value == input) return std::nullopt;
  use.user->setOperand(use.index, value);
  return last;
}

bool reshardToUnreducedCollectives(ir::Op* reshard, const ReshardContext& ctx) {
  if (reshard->numOperands() != 1 || reshard->numResults() != 1) return false;
  std::optional<TensorSharding> target = shardingOf(reshard->result(0));
  InsertPoint at = InsertPoint::beforeOp(reshard);
  size_t firstCause = ctx.causes ? ctx.causes->size() : 0;
  if (!makeUnreducedAxes({reshard, 0}, target, at, ctx)) return false;
  // The collectives now produce what the reshard did. The causes recorded
  // for them name the reshard they replace, which goes away.
  reshard->result(0)->replaceAllUsesWith(reshard->operand(0));
  if (ctx.causes)
    for (size_t i = firstCause; i < ctx.causes->size(); ++i) {
      ReshardCause& cause = (*ctx.causes)[i];
      cause.op = nullptr;
      cause.reason = "in place of an sdy.reshard of the input: " + cause.reason;
    }
  util::eraseOp(reshard);
  return true;
}

}  // namespace shardscope::passes::explicit_reshards
