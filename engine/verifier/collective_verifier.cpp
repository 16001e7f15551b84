// Collective verification (see collective_verifier.h).
#include "verifier/collective_verifier.h"

#include <functional>
#include <string>
#include <vector>

#include "ir/collective_ops.h"
#include "propagation/axis_algebra.h"
#include "sharding/unreduced_axes_transition.h"

namespace shardscope {

namespace {

using ir::CollectiveKind;
using verifier_support::MeshTable;
using verifier_support::problem;

std::string reductionOf(const TensorSharding& s) {
  return s.unreducedReduction.empty() ? std::string("sum") : s.unreducedReduction;
}

// `["x", "y":(1)2]`: an axis list as sdy's messages print it.
std::string bracketed(const AxisRefList& axes) {
  std::string out = "[";
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i) out += ", ";
    axes[i].print(out);
  }
  return out + "]";
}

// Collectives add no unreduced axes; those that reduce (all-reduce,
// reduce-scatter) remove them with their own reduction.
VerifyResult unreducedTransition(const TensorSharding& in, const TensorSharding& out,
                                 const Mesh& mesh, const std::string& reduction) {
  std::string message = checkUnreducedAxesTransition(
      {&in}, {&out}, {std::nullopt, reduction}, [&](const MeshRef&) { return &mesh; });
  if (message.empty()) return std::nullopt;
  return problem(std::move(message));
}

std::string meshNote(const Mesh& mesh) { return "operand mesh: #sdy.mesh" + mesh.str(); }

// The operand's sharding, or (when it has none) a closed replicated one on
// the result's mesh, as the kinds that allow a missing sharding read it.
TensorSharding operandOrReplicated(const ir::Op& op, const CollectiveOperand& operand,
                                   const TensorSharding& result) {
  if (operand.sharding) return *operand.sharding;
  const ir::Type& type = op.operand(0)->type;
  return TensorSharding::replicatedOf(result.mesh, type.isRankedTensor() ? type.rank() : 0, true);
}

VerifyResult checkAxisLists(const std::vector<AxisRefList>& lists, const Mesh& mesh) {
  std::vector<AxisRef> seen, subAxes;
  for (const AxisRefList& axes : lists)
    if (VerifyResult r = verifier_support::verifyAxisList(axes, mesh, seen, subAxes)) return r;
  return std::nullopt;
}

// A flat axis list that must also be in mesh order; `what` names it in the
// message ("reduction axes are not ordered w.r.t. mesh").
VerifyResult checkSortedAxisList(const AxisRefList& axes, const Mesh& mesh, const char* what) {
  if (!verifier_support::sortedInMesh(axes, mesh))
    return problem(std::string(what) + " axes are not ordered w.r.t. mesh");
  return checkAxisLists({axes}, mesh);
}

// The dimension's axes once `gathered` are taken off their end: each
// gathered axis must be a suffix of the dimension's last remaining axis.
// `what` names the axes in the message ("gathering").
VerifyResult gatherAlongDim(AxisRefList& axes, const AxisRefList& gathered, int64_t dim,
                            const Mesh& mesh, const char* what) {
  for (auto it = gathered.rbegin(); it != gathered.rend(); ++it) {
    if (axes.empty() || !propagation::suffixOf(*it, axes.back(), mesh))
      return problem("can't apply " + std::string(what) + " axis " + it->str() +
                     " to operand sharding on dimension " + std::to_string(dim));
    AxisRef last = axes.back();
    axes.pop_back();
    if (std::optional<AxisRef> rest = propagation::prefixWithoutOverlap(last, *it))
      axes.push_back(*rest);
  }
  return std::nullopt;
}

// The dimension's axes with `sliced` appended (merged where they continue
// the last sub-axis).
void sliceAlongDim(AxisRefList& axes, const AxisRefList& sliced, const Mesh& mesh) {
  for (const AxisRef& axis : sliced) propagation::appendOrMerge(axes, axis, mesh);
}

VerifyResult expectDim(const TensorSharding& result, size_t dim, const AxisRefList& expected) {
  if (dim < result.dims.size() && expected == result.dims[dim].axes) return std::nullopt;
  return problem("result sharding doesn't match expected sharding " + bracketed(expected) +
                 " on dimension " + std::to_string(dim));
}

// Kinds with one axis list per dimension: `apply` turns the operand's axes
// of a dimension into the expected result axes.
using ApplyFn = std::function<VerifyResult(AxisRefList& axes, const AxisRefList& collective,
                                           int64_t dim, const Mesh& mesh)>;
VerifyResult verifyAxesPerDim(const TensorSharding& operand, const TensorSharding& result,
                              const std::vector<AxisRefList>& perDim, const Mesh& mesh,
                              const ApplyFn& apply) {
  if (VerifyResult r = checkAxisLists(perDim, mesh)) return r;
  if (result.dims.size() != perDim.size())
    return problem("result sharding has rank " + std::to_string(result.dims.size()) +
                   " but collective axes has rank " + std::to_string(perDim.size()));
  for (size_t dim = 0; dim < perDim.size() && dim < operand.dims.size(); ++dim) {
    AxisRefList axes = operand.dims[dim].axes;
    if (VerifyResult r = apply(axes, perDim[dim], static_cast<int64_t>(dim), mesh)) return r;
    if (VerifyResult r = expectDim(result, dim, axes)) return r;
  }
  return std::nullopt;
}

ApplyFn gathering(const char* what) {
  return [what](AxisRefList& axes, const AxisRefList& gathered, int64_t dim, const Mesh& mesh) {
    return gatherAlongDim(axes, gathered, dim, mesh, what);
  };
}

VerifyResult slicing(AxisRefList& axes, const AxisRefList& sliced, int64_t, const Mesh& mesh) {
  sliceAlongDim(axes, sliced, mesh);
  return std::nullopt;
}

// Unreduced axes after adding `added` to `start`: in mesh order, merged.
AxisRefList unreducedPlus(AxisRefList start, const AxisRefList& added, const Mesh& mesh) {
  start.insert(start.end(), added.begin(), added.end());
  return canonicalAxisSet(std::move(start), mesh);
}

VerifyResult verifyShardedToUnreduced(const ir::Op& op, const CollectiveOperand& operand,
                                      const TensorSharding& result, const Mesh& mesh) {
  if (reductionOf(result) != "sum") return problem("out_sharding reduction_op must be SUM");
  const ir::AxisRefListsAttr* axes = ir::axesPerDimOf(op);
  if (!axes) return std::nullopt;
  TensorSharding in = operandOrReplicated(op, operand, result);
  if (VerifyResult r = verifyAxesPerDim(in, result, axes->perDim, mesh, gathering("shard-to-unreduce")))
    return r;
  AxisRefList moved;
  for (const AxisRefList& dimAxes : axes->perDim) moved.insert(moved.end(), dimAxes.begin(), dimAxes.end());
  AxisRefList inUnreduced = operand.sharding ? operand.sharding->unreduced : AxisRefList{};
  if (unreducedPlus(inUnreduced, moved, mesh) != result.unreduced)
    return problem("out_unreduced_axes should be in_unreduced_axes + sharded_to_unreduced_axes");
  return std::nullopt;
}

VerifyResult verifyReplicatedToUnreduced(const ir::Op& op, const TensorSharding& in,
                                         const TensorSharding& result, const Mesh& mesh) {
  if (reductionOf(result) != "sum") return problem("out_sharding reduction_op must be SUM");
  if (in.dims != result.dims) return problem("input and output must share the same dimension shardings");
  const AxisRefList* axes = ir::axisListOf(op);
  if (!axes || axes->empty()) return problem("r2u axes must not be empty");
  if (VerifyResult r = checkSortedAxisList(*axes, mesh, "r2u")) return r;
  for (const AxisRef& axis : *axes) {
    for (const DimensionSharding& d : in.dims)
      if (propagation::anyOverlap(d.axes, {axis}))
        return problem("r2u axis " + axis.str() + " overlaps with operand dimension sharding");
    if (propagation::anyOverlap(in.unreduced, {axis}))
      return problem("r2u axis " + axis.str() + " overlaps with operand unreduced axes");
  }
  if (unreducedPlus(in.unreduced, *axes, mesh) != result.unreduced)
    return problem("out_unreduced_axes should be in_unreduced_axes + r2u_axes");
  return std::nullopt;
}

VerifyResult verifyAllToAll(const ir::Op& op, const TensorSharding& in, const TensorSharding& result,
                            const Mesh& mesh) {
  const ir::AllToAllParamsAttr* params = ir::allToAllParamsOf(op);
  if (!params || params->params.empty()) return problem("parameter list is empty");
  const ir::Type& type = op.result(0)->type;
  const int64_t rank = type.isRankedTensor() ? type.rank() : 0;
  std::vector<bool> seenDims(static_cast<size_t>(rank), false);
  int64_t previousSrc = -1;
  std::vector<AxisRef> seen, subAxes;
  for (const ir::AllToAllParam& p : params->params) {
    if (VerifyResult r = verifier_support::verifyAxisList(p.axes, mesh, seen, subAxes)) return r;
    for (auto [dim, what] : {std::pair{p.srcDim, "source"}, std::pair{p.tgtDim, "target"}})
      if (dim < 0 || dim >= rank)
        return problem(std::string(what) + " dimension " + std::to_string(dim) +
                       " is out of range [0, " + std::to_string(rank) + ")");
    for (int64_t dim : {p.srcDim, p.tgtDim}) {
      if (seenDims[static_cast<size_t>(dim)])
        return problem("overlapping source/target dimensions in all-to-all params: " +
                       std::to_string(dim));
      seenDims[static_cast<size_t>(dim)] = true;
    }
    if (previousSrc >= p.srcDim)
      return problem("source dimensions are not sorted in ascending order: " +
                     std::to_string(p.srcDim) + " appears after " + std::to_string(previousSrc));
    previousSrc = p.srcDim;
  }
  // The axes move in a second pass, so that a misplaced dimension above is
  // reported before what moving axes there would give.
  auto dimAxes = [&](int64_t dim) {
    return static_cast<size_t>(dim) < in.dims.size() ? in.dims[static_cast<size_t>(dim)].axes
                                                     : AxisRefList{};
  };
  for (const ir::AllToAllParam& p : params->params) {
    AxisRefList src = dimAxes(p.srcDim);
    if (VerifyResult r = gatherAlongDim(src, p.axes, p.srcDim, mesh, "all-to-all")) return r;
    if (VerifyResult r = expectDim(result, static_cast<size_t>(p.srcDim), src)) return r;
    AxisRefList tgt = dimAxes(p.tgtDim);
    sliceAlongDim(tgt, p.axes, mesh);
    if (VerifyResult r = expectDim(result, static_cast<size_t>(p.tgtDim), tgt)) return r;
  }
  for (size_t dim = 0; dim < in.dims.size() && dim < result.dims.size(); ++dim)
    if (dim >= seenDims.size() || !seenDims[dim])
      if (VerifyResult r = expectDim(result, dim, in.dims[dim].axes)) return r;
  return std::nullopt;
}

VerifyResult verifyCollectivePermute(const CollectiveOperand& operand,
                                     const TensorSharding& in, const TensorSharding& result,
                                     const MeshTable& meshes) {
  const Mesh* mesh = meshes.of(result);
  const Mesh* inMesh = meshes.of(in);
  if (!mesh || !inMesh) return std::nullopt;
  if (mesh->axes != inMesh->axes)
    return VerifyProblem{"result mesh has different axes than operand mesh",
                         {{operand.loc, meshNote(*inMesh)}}};
  if (!(in.mesh == result.mesh) && verifier_support::sameMesh(*mesh, *inMesh))
    return VerifyProblem{"result mesh name is different but same device ids as operand",
                         {{operand.loc, meshNote(*inMesh)}}};
  for (size_t dim = 0; dim < in.dims.size() && dim < result.dims.size(); ++dim) {
    const AxisRefList& before = in.dims[dim].axes;
    const AxisRefList& after = result.dims[dim].axes;
    if (before == after) continue;
    const int64_t inSize = axesSize(before, *mesh), outSize = axesSize(after, *mesh);
    if (inSize != outSize)
      return problem("sharded size of result doesn't match operand on dimension " +
                     std::to_string(dim) + ": " + std::to_string(outSize) +
                     " != " + std::to_string(inSize));
  }
  return std::nullopt;
}

// sdy's equivalence of the operand and result of an all-reduce: the same
// dimension axes (open or closed aside) on the same mesh, or both with no
// dimension sharded.
bool equivalentIgnoringUnreduced(const TensorSharding& a, const TensorSharding& b) {
  auto unsharded = [](const TensorSharding& s) {
    for (const DimensionSharding& d : s.dims)
      if (!d.axes.empty()) return false;
    return true;
  };
  if (unsharded(a)) return unsharded(b);
  if (!(a.mesh == b.mesh) || a.dims.size() != b.dims.size()) return false;
  for (size_t i = 0; i < a.dims.size(); ++i)
    if (a.dims[i].axes != b.dims[i].axes) return false;
  return true;
}

VerifyResult verifyAllReduce(const ir::Op& op, const TensorSharding& in, const TensorSharding& result,
                             const Mesh& mesh) {
  if (!equivalentIgnoringUnreduced(in, result))
    return problem("operand and result shardings are not equivalent");
  const AxisRefList* axes = ir::axisListOf(op);
  const AxisRefList none;
  if (!axes) axes = &none;
  if (VerifyResult r = checkSortedAxisList(*axes, mesh, "reduction")) return r;
  for (const AxisRef& axis : *axes) {
    bool inOperand = propagation::anyOverlap(in.replicated, {axis});
    for (const DimensionSharding& d : in.dims) inOperand = inOperand || propagation::anyOverlap(d.axes, {axis});
    if (inOperand)
      return problem("reduction axis " + axis.str() +
                     " overlaps with operand dimension sharding or replicated axes");
    if (propagation::anyOverlap(result.unreduced, {axis}))
      return problem("reduction axis " + axis.str() + " overlaps with result unreduced axes");
  }
  return unreducedTransition(in, result, mesh, ir::reductionOpOf(op));
}

}  // namespace

VerifyResult verifyCollectiveCommon(const ir::Op& op, const CollectiveOperand& operand,
                                    const MeshTable& meshes, const BoundManualAxes& bound) {
  std::optional<CollectiveKind> kind = ir::collectiveKindOf(op);
  const TensorSharding* result = ir::outShardingOf(op);
  if (!kind || !result || op.numOperands() != 1 || op.numResults() != 1) return std::nullopt;
  if (!ir::allowsMissingInputSharding(*kind) && !operand.sharding)
    return problem("collective on operand without sharding");
  const Mesh* resultMesh = meshes.of(*result);
  if (VerifyResult r = verifyTensorSharding(*result, &*op.result(0)->type, resultMesh, bound)) return r;
  if (*kind != CollectiveKind::CollectivePermute && operand.sharding) {
    const Mesh* operandMesh = meshes.of(*operand.sharding);
    if (operandMesh && resultMesh && !verifier_support::sameMesh(*operandMesh, *resultMesh))
      return VerifyProblem{"result mesh does not match operand mesh",
                           {{operand.loc, meshNote(*operandMesh)}}};
  }
  if (operand.sharding && operand.sharding->rank() != result->rank())
    return problem("result sharding has rank " + std::to_string(result->rank()) +
                   " but operand sharding has rank " + std::to_string(operand.sharding->rank()));
  return std::nullopt;
}

VerifyResult verifyCollectiveKind(const ir::Op& op, const CollectiveOperand& operand,
                                  const MeshTable& meshes) {
  std::optional<CollectiveKind> kind = ir::collectiveKindOf(op);
  const TensorSharding* result = ir::outShardingOf(op);
  if (!kind || !result || op.numOperands() != 1 || op.numResults() != 1) return std::nullopt;
  const Mesh* mesh = meshes.of(*result);
  if (!mesh) return std::nullopt;
  const TensorSharding in = operandOrReplicated(op, operand, *result);
  const ir::AxisRefListsAttr* perDim = ir::axesPerDimOf(op);
  const std::vector<AxisRefList> noAxes;
  const std::vector<AxisRefList>& lists = perDim ? perDim->perDim : noAxes;
  switch (*kind) {
    case CollectiveKind::AllGather:
      return verifyAxesPerDim(in, *result, lists, *mesh, gathering("gathering"));
    case CollectiveKind::AllSlice:
      return verifyAxesPerDim(in, *result, lists, *mesh, slicing);
    case CollectiveKind::ReduceScatter:
      if (VerifyResult r = unreducedTransition(in, *result, *mesh, ir::reductionOpOf(op))) return r;
      return verifyAxesPerDim(in, *result, lists, *mesh, slicing);
    case CollectiveKind::ShardedToUnreduced:
      return verifyShardedToUnreduced(op, operand, *result, *mesh);
    case CollectiveKind::ReplicatedToUnreduced:
      return verifyReplicatedToUnreduced(op, in, *result, *mesh);
    case CollectiveKind::AllToAll:
      return verifyAllToAll(op, in, *result, *mesh);
    case CollectiveKind::CollectivePermute:
      return verifyCollectivePermute(operand, in, *result, meshes);
    case CollectiveKind::AllReduce:
      return verifyAllReduce(op, in, *result, *mesh);
  }
  return std::nullopt;
}

}  // namespace shardscope
