// Canonicalization patterns of the sdy collectives (see canonicalize.h).
//
// - A collective that moves no axes is its operand: `sdy.all_gather [{}, {}]`,
//   `sdy.all_slice [{}, {}]`, `sdy.reduce_scatter [{}, {}]`,
//   `sdy.all_reduce {}`, and a `sdy.collective_permute` to an equivalent
//   sharding.
// - Slicing what was just gathered along the same axes gives the gathered
//   tensor back; reducing what was just made unreduced from replicated axes
//   gives it back too, and reducing what was made unreduced from sharded
//   axes is an all-gather of them.
// - An all-reduce whose users all slice along a prefix of its reduction axes
//   becomes a reduce-scatter (plus an all-slice of the rest):
//     %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {}]>
//     %1 = sdy.all_slice [{}, {"x"}] %0 out_sharding=<@mesh, [{"y"}, {"x"}]>
//   becomes
//     %0 = sdy.reduce_scatter [{}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]>
// - Two all-to-alls in a row on distinct dimensions are one; an unused
//   all-to-all goes.
#include <algorithm>

#include "ir/collective_ops.h"
#include "passes/canonicalize.h"
#include "passes/pass_utils.h"
#include "propagation/axis_algebra.h"

namespace shardscope::passes::canonical {

namespace {

ir::Op* producerNamed(const ir::Op& op, std::string_view name) {
  ir::Op* def = op.numOperands() ? op.operand(0)->definingOp : nullptr;
  return def && def->is(name) ? def : nullptr;
}

bool replaceWithOperand(ir::Op& op, Rewriter& rewriter) {
  rewriter.replaceOp(&op, op.operand(0));
  return true;
}

bool movesNoAxesPerDim(ir::Op& op, Rewriter& rewriter) {
  const ir::AxisRefListsAttr* axes = ir::axesPerDimOf(op);
  if (!axes || op.numOperands() != 1) return false;
  for (const AxisRefList& dim : axes->perDim)
    if (!dim.empty()) return false;
  return replaceWithOperand(op, rewriter);
}

bool allReduceOfNoAxes(ir::Op& op, Rewriter& rewriter) {
  const AxisRefList* axes = ir::axisListOf(op);
  if (!axes || !axes->empty() || op.numOperands() != 1) return false;
  return replaceWithOperand(op, rewriter);
}

bool permuteToEquivalentSharding(ir::Op& op, Rewriter& rewriter) {
  const TensorSharding* out = ir::outShardingOf(op);
  if (!out || op.numOperands() != 1) return false;
  if (!util::isEquivalent(util::getSharding(op.operand(0)), *out)) return false;
  return replaceWithOperand(op, rewriter);
}

bool allSliceOfAllGather(ir::Op& op, Rewriter& rewriter) {
  ir::Op* gather = producerNamed(op, "sdy.all_gather");
  if (!gather) return false;
  const ir::AxisRefListsAttr* sliced = ir::axesPerDimOf(op);
  const ir::AxisRefListsAttr* gathered = ir::axesPerDimOf(*gather);
  if (!sliced || !gathered || !(*sliced == *gathered)) return false;
  rewriter.replaceOp(&op, gather->operand(0));
  return true;
}

bool allReduceOfReplicatedToUnreduced(ir::Op& op, Rewriter& rewriter) {
  ir::Op* r2u = producerNamed(op, "sdy.replicated_to_unreduced");
  if (!r2u) return false;
  const AxisRefList* reduced = ir::axisListOf(op);
  const AxisRefList* made = ir::axisListOf(*r2u);
  if (!reduced || !made || *reduced != *made) return false;
  rewriter.replaceOp(&op, r2u->operand(0));
  return true;
}

bool allReduceOfShardedToUnreduced(ir::Op& op, Rewriter& rewriter) {
  ir::Op* s2u = producerNamed(op, "sdy.sharded_to_unreduced");
  if (!s2u) return false;
  const ir::AxisRefListsAttr* perDim = ir::axesPerDimOf(*s2u);
  const AxisRefList* reduced = ir::axisListOf(op);
  const TensorSharding* s2uOut = ir::outShardingOf(*s2u);
  const TensorSharding* out = ir::outShardingOf(op);
  const Mesh* mesh = s2uOut ? rewriter.meshOf(*s2uOut) : nullptr;
  if (!perDim || !reduced || !out || !mesh) return false;
  AxisRefList flat;
  for (const AxisRefList& dim : perDim->perDim) flat.insert(flat.end(), dim.begin(), dim.end());
  if (canonicalAxisSet(std::move(flat), *mesh) != *reduced) return false;
  ir::Op* gather = rewriter.insertBefore(
      &op, ir::makeAllGather(s2u->operand(0), perDim->perDim, *out, op.loc()));
  rewriter.replaceOp(&op, gather->result(0));
  return true;
}

// Splits each dimension's slicing axes into the longest prefix found among
// `reduction` (each reduction axis used once) and the rest. False when some
// reduction axis is in no prefix.
bool splitForReduceScatter(const std::vector<AxisRefList>& slicing, const AxisRefList& reduction,
                           std::vector<AxisRefList>& scattered, std::vector<AxisRefList>& residual) {
  AxisRefList remaining = reduction;
  for (const AxisRefList& dim : slicing) {
    AxisRefList prefix, rest;
    size_t i = 0;
    for (; i < dim.size(); ++i) {
      auto it = std::find(remaining.begin(), remaining.end(), dim[i]);
      if (it == remaining.end()) break;
      remaining.erase(it);
      prefix.push_back(dim[i]);
    }
    rest.assign(dim.begin() + static_cast<std::ptrdiff_t>(i), dim.end());
    scattered.push_back(std::move(prefix));
    residual.push_back(std::move(rest));
  }
  return remaining.empty();
}

// On the first of the all-reduce's users, which must all be this same
// all-slice.
bool reduceScatterFusion(ir::Op& op, Rewriter& rewriter) {
  ir::Op* allReduce = producerNamed(op, "sdy.all_reduce");
  if (!allReduce) return false;
  const ir::AxisRefListsAttr* slicing = ir::axesPerDimOf(op);
  if (!slicing) return false;
  std::vector<ir::Op*> slices;
  for (const ir::Use& use : allReduce->result(0)->uses()) {
    ir::Op* user = use.user;
    const ir::AxisRefListsAttr* userAxes = user->is("sdy.all_slice") ? ir::axesPerDimOf(*user) : nullptr;
    if (!userAxes || !(*userAxes == *slicing)) return false;
    if (util::isBeforeInBlock(user, &op)) return false;
    slices.push_back(user);
  }
  const AxisRefList* reduction = ir::axisListOf(*allReduce);
  const TensorSharding* reduceOut = ir::outShardingOf(*allReduce);
  const TensorSharding* sliceOut = ir::outShardingOf(op);
  const Mesh* mesh = reduceOut ? rewriter.meshOf(*reduceOut) : nullptr;
  if (!reduction || !reduceOut || !sliceOut || !mesh) return false;
  std::vector<AxisRefList> scattered, residual;
  if (!splitForReduceScatter(slicing->perDim, *reduction, scattered, residual)) return false;

  // The reduce-scatter's result: the all-reduce's operand (closed where it
  // has no sharding) with the scattered axes added, and the all-slice's
  // replicated and unreduced axes.
  ir::Value* input = allReduce->operand(0);
  TensorSharding in = util::getSharding(input).value_or(
      TensorSharding::replicatedOf(reduceOut->mesh, util::rankOf(input), true));
  TensorSharding scatteredOut;
  scatteredOut.mesh = reduceOut->mesh;
  for (size_t dim = 0; dim < scattered.size(); ++dim) {
    DimensionSharding d;
    if (dim < in.dims.size()) d.axes = in.dims[dim].axes;
    for (const AxisRef& axis : scattered[dim]) propagation::appendOrMerge(d.axes, axis, *mesh);
    scatteredOut.dims.push_back(std::move(d));
  }
  scatteredOut.replicated = sliceOut->replicated;
  scatteredOut.unreduced = sliceOut->unreduced;
  scatteredOut.unreducedReduction = sliceOut->unreducedReduction;

  ir::Op* reduceScatter = rewriter.insertBefore(
      &op, ir::makeReduceScatter(input, scattered, scatteredOut, allReduce->loc(),
                                 ir::reductionOpOf(*allReduce)));
  ir::Value* result = reduceScatter->result(0);
  bool anyResidual = std::any_of(residual.begin(), residual.end(),
                                 [](const AxisRefList& r) { return !r.empty(); });
  if (anyResidual)
    result = rewriter.insertBefore(&op, ir::makeAllSlice(result, residual, *sliceOut, op.loc()))
                 ->result(0);
  for (ir::Op* slice : slices) rewriter.replaceOp(slice, result);
  rewriter.eraseOp(allReduce);
  return true;
}

bool paramsShareADim(const ir::AllToAllParamsAttr& a, const ir::AllToAllParamsAttr& b) {
  std::vector<int64_t> dims;
  for (const auto* list : {&a, &b})
    for (const ir::AllToAllParam& p : list->params)
      for (int64_t dim : {p.srcDim, p.tgtDim}) {
        if (std::find(dims.begin(), dims.end(), dim) != dims.end()) return true;
        dims.push_back(dim);
      }
  return false;
}

bool allToAllFusion(ir::Op& op, Rewriter& rewriter) {
  ir::Op* inner = producerNamed(op, "sdy.all_to_all");
  if (!inner || !inner->result(0)->hasOneUse()) return false;
  const ir::AllToAllParamsAttr* innerParams = ir::allToAllParamsOf(*inner);
  const ir::AllToAllParamsAttr* outerParams = ir::allToAllParamsOf(op);
  const TensorSharding* out = ir::outShardingOf(op);
  if (!innerParams || !outerParams || !out || paramsShareADim(*innerParams, *outerParams))
    return false;
  std::vector<ir::AllToAllParam> combined = innerParams->params;
  combined.insert(combined.end(), outerParams->params.begin(), outerParams->params.end());
  std::stable_sort(combined.begin(), combined.end(),
                   [](const ir::AllToAllParam& a, const ir::AllToAllParam& b) {
                     return a.srcDim < b.srcDim;
                   });
  ir::Op* fused =
      rewriter.insertBefore(&op, ir::makeAllToAll(inner->operand(0), combined, *out, op.loc()));
  rewriter.replaceOp(&op, fused->result(0));
  return true;
}

bool unusedAllToAll(ir::Op& op, Rewriter& rewriter) {
  if (op.numResults() != 1 || !op.result(0)->useEmpty()) return false;
  rewriter.eraseOp(&op);
  return true;
}

}  // namespace

void addCollectivePatterns(std::vector<Pattern>& out) {
  out.push_back({"sdy.all_gather", movesNoAxesPerDim, kCollectiveLabel});
  out.push_back({"sdy.all_slice", allSliceOfAllGather, kCollectiveLabel});
  out.push_back({"sdy.all_slice", movesNoAxesPerDim, kCollectiveLabel});
  out.push_back({"sdy.all_slice", reduceScatterFusion, kCollectiveLabel});
  out.push_back({"sdy.reduce_scatter", movesNoAxesPerDim, kCollectiveLabel});
  out.push_back({"sdy.all_reduce", allReduceOfNoAxes, kCollectiveLabel});
  out.push_back({"sdy.all_reduce", allReduceOfReplicatedToUnreduced, kCollectiveLabel});
  out.push_back({"sdy.all_reduce", allReduceOfShardedToUnreduced, kCollectiveLabel});
  out.push_back({"sdy.collective_permute", permuteToEquivalentSharding, kCollectiveLabel});
  out.push_back({"sdy.all_to_all", allToAllFusion, kCollectiveLabel});
  out.push_back({"sdy.all_to_all", unusedAllToAll, kCollectiveLabel});
}

}  // namespace shardscope::passes::canonical
