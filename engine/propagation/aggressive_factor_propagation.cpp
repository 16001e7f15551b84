// Aggressive factor propagation (see aggressive_factor_propagation.h).
#include "propagation/aggressive_factor_propagation.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <tuple>

#include "propagation/axis_algebra.h"
#include "propagation/basic_factor_propagation.h"

namespace shardscope::propagation {

namespace {

struct Source {
  int64_t index = -1;
  int64_t size = -1;
};

std::vector<Source> sourcesOf(const ShardingProjection& projection,
                              const std::vector<int64_t>& factorSizes,
                              const std::vector<AxisRefList>& candidates) {
  std::vector<Source> sources(factorSizes.size());
  for (size_t t = 0; t < projection.numTensors(); ++t) {
    const TensorFactorShardings& row = projection.tensor(t);
    int64_t tensorSize = 1;
    for (const auto& [factor, fs] : row.factors) tensorSize *= factorSizes[factor];
    for (const auto& [factor, fs] : row.factors) {
      const AxisRefList& cand = candidates[factor];
      bool isSource = !cand.empty() && listPrefixStatus(cand, fs.axes) != PrefixStatus::NotAPrefix;
      if (isSource && tensorSize > sources[factor].size)
        sources[factor] = {static_cast<int64_t>(t), tensorSize};
    }
  }
  return sources;
}

// The new axes of `factor` on `row`, or empty when nothing is to be done.
AxisRefList propagatedAxes(int64_t factor, const TensorFactorShardings& row,
                           const std::vector<AxisRefList>& candidates,
                           const FactorPropagationContext& ctx) {
  const FactorSharding* fs = row.find(factor);
  if (!fs) return {};
  // Truncation only shortens the candidate (or narrows its last axis to a
  // prefix of it), so a row that is no strict prefix of the whole candidate
  // is none of the truncated one either: decided without copying it.
  if (!isStrictPrefix(fs->axes, candidates[factor])) return {};
  AxisRefList axes = candidates[factor];
  // The cuts go in by std::ref: a std::function made from a lambda holding
  // more than two references puts it on the heap, twice per call here.
  auto withinFactor = [&](const AxisRef& axis, int64_t prev) {
    return basic::prefixNoConflictsWithinFactor(axis, row.replicated, row.unreduced, *fs, prev,
                                                ctx.factorSizes[factor], ctx.mesh);
  };
  basic::truncateByConflicts(axes, std::ref(withinFactor), ctx.mesh, ctx.conservative);
  if (!isStrictPrefix(fs->axes, axes)) return {};
  auto acrossFactors = [&](const AxisRef& axis, int64_t) {
    return basic::prefixNoConflictsAcrossFactors(axis, row, factor);
  };
  basic::truncateByConflicts(axes, std::ref(acrossFactors), ctx.mesh, ctx.conservative);
  return axes;
}

}  // namespace

UpdateTensorShardings AggressiveFactorPropagation::propagate(ShardingProjection& projection,
                                                             const FactorPropagationContext& ctx) const {
  UpdateTensorShardings result(projection.numOperands(), projection.numResults());
  size_t numFactors = ctx.factorSizes.size();
  std::vector<AxisRefList> candidates(numFactors);
  bool allEmpty = true;
  for (size_t f = 0; f < numFactors; ++f) {
    PropagationDirection dir =
        ctx.direction ? ctx.direction(static_cast<int64_t>(f)) : PropagationDirection::Both;
    candidates[f] = basic::compatibleMajorAxes(projection, static_cast<int64_t>(f), dir);
    if (!candidates[f].empty()) allEmpty = false;
  }
  if (allEmpty) return result;

  std::vector<Source> sources = sourcesOf(projection, ctx.factorSizes, candidates);
  std::vector<int64_t> order(numFactors);
  std::iota(order.begin(), order.end(), 0);
  auto key = [&](int64_t f) {
    int64_t candSize = ctx.elementwise ? totalSize(candidates[f], ctx.mesh) : 0;
    return std::make_tuple(-sources[f].size, -candSize, sources[f].index, f);
  };
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return key(a) < key(b); });

  auto updateRows = [&](std::vector<TensorFactorShardings>& rows, std::vector<bool>& updated,
                        bool operands) {
    for (size_t t = 0; t < rows.size(); ++t) {
      bool changed = false;
      for (int64_t f : order) {
        AxisRefList axes = propagatedAxes(f, rows[t], candidates, ctx);
        if (axes.empty()) continue;
        if (operands && ctx.elementwise) {
          for (const TensorFactorShardings& res : projection.results) {
            const FactorSharding* rfs = res.find(f);
            if (rfs && isStrictPrefix(rfs->axes, axes)) axes = rfs->axes;
          }
        }
        changed = rows[t].expandAxes(f, axes) || changed;
      }
      updated[t] = changed;
    }
  };
  updateRows(projection.results, result.results, false);
  updateRows(projection.operands, result.operands, true);
  return result;
}

}  // namespace shardscope::propagation
