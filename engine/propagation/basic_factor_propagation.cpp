// Basic factor propagation (see basic_factor_propagation.h).
#include "propagation/basic_factor_propagation.h"

#include <functional>
#include <numeric>

#include "propagation/axis_algebra.h"
#include "sharding/checked_size.h"

namespace shardscope::propagation {
namespace basic {

namespace {

// Fold `newAxes` into the running candidate `acc`. Returns whether later
// tensors may still lengthen the candidate.
bool foldCompatible(AxisRefList& acc, const AxisRefList& newAxes, bool canExpand) {
  AxisRefList out;
  size_t i = 0;
  for (; i < acc.size() && i < newAxes.size(); ++i) {
    const AxisRef& oldAxis = acc[i];
    const AxisRef& newAxis = newAxes[i];
    bool oldLast = i + 1 == acc.size();
    bool newLast = i + 1 == newAxes.size();
    if (oldAxis.name != newAxis.name) {
      acc = std::move(out);
      return false;
    }
    if (oldAxis.subAxis == newAxis.subAxis) {
      out.push_back(newAxis);
      continue;
    }
    if (prefixOf(newAxis, oldAxis)) {
      // The new tensor holds less of this axis: keep the shorter one, and it
      // ends the list unless it is the new tensor's last axis.
      if (!newLast) {
        out.push_back(newAxis);
        acc = std::move(out);
        return false;
      }
      out.push_back(oldAxis);
    } else if (prefixOf(oldAxis, newAxis)) {
      if (!canExpand || !oldLast) {
        out.push_back(oldAxis);
        acc = std::move(out);
        return false;
      }
      out.push_back(newAxis);
    } else {
      acc = std::move(out);
      return false;
    }
  }
  for (size_t j = i; j < acc.size(); ++j) out.push_back(acc[j]);
  if (canExpand)
    for (size_t j = i; j < newAxes.size(); ++j) out.push_back(newAxes[j]);
  acc = std::move(out);
  return canExpand;
}

}  // namespace

AxisRefList compatibleMajorAxes(const ShardingProjection& projection, int64_t factor,
                                PropagationDirection direction) {
  if (direction == PropagationDirection::None) return {};
  bool backward = direction == PropagationDirection::Backward;
  const auto& first = backward ? projection.results : projection.operands;
  const auto& second = backward ? projection.operands : projection.results;
  AxisRefList acc;
  bool canExpand = true;
  for (const TensorFactorShardings& row : first)
    if (const FactorSharding* fs = row.find(factor)) canExpand = foldCompatible(acc, fs->axes, canExpand);
  if (direction != PropagationDirection::Both) canExpand = false;
  for (const TensorFactorShardings& row : second)
    if (const FactorSharding* fs = row.find(factor)) canExpand = foldCompatible(acc, fs->axes, canExpand);
  return acc;
}

std::optional<AxisRef> prefixNoConflictsAcrossFactors(const AxisRef& axis,
                                                      const TensorFactorShardings& row,
                                                      int64_t factor) {
  std::optional<AxisRef> result = axis;
  for (const auto& [other, fs] : row.factors) {
    if (other == factor) continue;
    result = prefixWithoutOverlap(*result, fs.overflowAxes);
    if (!result) return std::nullopt;
    result = prefixWithoutOverlap(*result, fs.axes);
    if (!result) return std::nullopt;
  }
  return result;
}

std::optional<AxisRef> prefixNoConflictsWithinFactor(const AxisRef& axis,
                                                     const AxisRefList& replicated,
                                                     const AxisRefList& unreduced,
                                                     const FactorSharding& fs,
                                                     int64_t prevShardedSize, int64_t factorSize,
                                                     const Mesh& mesh) {
  std::optional<AxisRef> result = prefixWithoutOverlap(axis, replicated);
  if (!result) return std::nullopt;
  result = prefixWithoutOverlap(*result, unreduced);
  if (!result) return std::nullopt;
  for (const AxisRef& have : fs.axes)
    if (contains(have, *result)) return result;  // already there
  if (!fs.closed && fs.overflowAxes.empty()) {
    if (fs.minorMost) return result;
    if (prevShardedSize > 0 && factorSize % prevShardedSize == 0) {
      int64_t size = axisSize(*result, mesh);
      int64_t g = std::gcd(factorSize / prevShardedSize, size);
      if (g == size) return result;
      if (g != 1) return AxisRef{result->name, SubAxisInfo{result->preSize(), g}};
    }
  }
  // The factor cannot grow, but it may already hold a prefix of this axis.
  if (!fs.axes.empty() && prefixOf(fs.axes.back(), *result)) return fs.axes.back();
  return std::nullopt;
}

void truncateByConflicts(
    AxisRefList& axes,
    const std::function<std::optional<AxisRef>(const AxisRef&, int64_t prevShardedSize)>& cut,
    const Mesh& mesh, bool conservative) {
  int64_t prev = 1;
  for (size_t i = 0; i < axes.size(); ++i) {
    std::optional<AxisRef> next = cut(axes[i], prev);
    if (!next || (conservative && next->subAxis)) {
      axes.resize(i);
      return;
    }
    if (!(*next == axes[i])) {
      axes[i] = *next;
      axes.resize(i + 1);
      return;
    }
    prev = saturatingMul(prev, axisSize(*next, mesh));
  }
}

AxisRefList compatibleMajorShardingAxes(const ShardingProjection& projection, int64_t factor,
                                        PropagationDirection direction, int64_t factorSize,
                                        const Mesh& mesh, bool conservative) {
  AxisRefList axes = compatibleMajorAxes(projection, factor, direction);
  auto cut = [&](const AxisRef& axis, int64_t prev) -> std::optional<AxisRef> {
    std::optional<AxisRef> result = axis;
    for (size_t t = 0; t < projection.numTensors(); ++t) {
      const TensorFactorShardings& row = projection.tensor(t);
      result = prefixNoConflictsAcrossFactors(*result, row, factor);
      if (!result) return std::nullopt;
      if (const FactorSharding* fs = row.find(factor)) {
        result = prefixNoConflictsWithinFactor(*result, row.replicated, row.unreduced, *fs, prev,
                                               factorSize, mesh);
        if (!result) return std::nullopt;
      }
    }
    return result;
  };
  // By std::ref: a std::function holding the lambda itself (five
  // references) would put it on the heap on every call.
  truncateByConflicts(axes, std::ref(cut), mesh, conservative);
  return axes;
}

}  // namespace basic

UpdateTensorShardings BasicFactorPropagation::propagate(ShardingProjection& projection,
                                                        const FactorPropagationContext& ctx) const {
  UpdateTensorShardings result(projection.numOperands(), projection.numResults());
  for (size_t factor = 0; factor < ctx.factorSizes.size(); ++factor) {
    PropagationDirection dir = ctx.direction ? ctx.direction(static_cast<int64_t>(factor))
                                             : PropagationDirection::Both;
    AxisRefList axes = basic::compatibleMajorShardingAxes(
        projection, static_cast<int64_t>(factor), dir, ctx.factorSizes[factor], ctx.mesh,
        ctx.conservative);
    UpdateTensorShardings u = projection.expandSharding(static_cast<int64_t>(factor), axes);
    for (size_t i = 0; i < u.operands.size(); ++i) result.operands[i] = result.operands[i] || u.operands[i];
    for (size_t i = 0; i < u.results.size(); ++i) result.results[i] = result.results[i] || u.results[i];
  }
  return result;
}

}  // namespace shardscope::propagation
