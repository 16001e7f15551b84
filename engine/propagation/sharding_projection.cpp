// Sharding projection (see sharding_projection.h).
#include "propagation/sharding_projection.h"

#include <algorithm>
#include <numeric>

#include "propagation/axis_algebra.h"
#include "sharding/checked_size.h"

namespace shardscope::propagation {

bool UpdateTensorShardings::any() const {
  for (bool b : operands)
    if (b) return true;
  for (bool b : results)
    if (b) return true;
  return false;
}

namespace {

// A cursor over a dimension's axes that can hand out the major part of the
// current axis and keep the rest.
struct AxisCursor {
  const AxisRefList& axes;
  const Mesh& mesh;
  size_t index = 0;
  int64_t size = 0;     // size of what is left of axes[index]
  int64_t preSize = 1;  // pre-size of what is left
  bool split = false;   // whether what is left is a proper part

  AxisCursor(const AxisRefList& a, const Mesh& m) : axes(a), mesh(m) { load(); }
  bool done() const { return index >= axes.size(); }
  void load() {
    if (done()) return;
    const AxisRef& a = axes[index];
    size = axisSize(a, mesh);
    preSize = a.subAxis ? a.subAxis->preSize : 1;
    split = a.subAxis.has_value();
  }
  AxisRef current() const {
    if (!split) return AxisRef{axes[index].name, std::nullopt};
    return makeSubAxis(axes[index].name, preSize, size, mesh);
  }
  // Take the major `part` of the current axis.
  AxisRef take(int64_t part) {
    AxisRef out = part == size ? current() : makeSubAxis(axes[index].name, preSize, part, mesh);
    if (part == size) {
      ++index;
      load();
    } else {
      preSize = saturatingMul(preSize, part);
      size /= part;
      split = true;
    }
    return out;
  }
  // Everything that remains, in order.
  void takeRest(AxisRefList& out) {
    // Whole axes are handed out as they are and never merge with a
    // neighbour (only consecutive sub-axes do), so when no part of an axis
    // is left over and only whole axes follow, they are copied in one go:
    // nearly every dimension of a real module, projected on every op visit.
    if (!done() && !split &&
        std::none_of(axes.begin() + static_cast<std::ptrdiff_t>(index), axes.end(),
                     [](const AxisRef& a) { return a.isSubAxis(); })) {
      out.insert(out.end(), axes.begin() + static_cast<std::ptrdiff_t>(index), axes.end());
      index = axes.size();
      return;
    }
    while (!done()) appendOrMerge(out, take(size), mesh);
  }
};

}  // namespace

TensorFactorShardings projectTensor(const TensorFactorMapping& mapping,
                                    const std::optional<TensorSharding>& sharding,
                                    const std::vector<int64_t>& factorSizes, const Mesh& mesh,
                                    bool closedIfMissing) {
  return projectTensor(mapping, sharding ? &*sharding : nullptr, factorSizes, mesh, closedIfMissing);
}

TensorFactorShardings projectTensor(const TensorFactorMapping& mapping, const TensorSharding* sharding,
                                    const std::vector<int64_t>& factorSizes, const Mesh& mesh,
                                    bool closedIfMissing) {
  static const AxisRefList kNoAxes;
  TensorFactorShardings row;
  // One block for the row's factors instead of a growing one (rows are
  // built on every op step that may change something).
  size_t mapped = 0;
  for (const std::vector<int64_t>& dimFactors : mapping.dims) mapped += dimFactors.size();
  row.factors.reserve(mapped);
  for (size_t dim = 0; dim < mapping.dims.size(); ++dim) {
    const std::vector<int64_t>& dimFactors = mapping.dims[dim];
    bool hasDim = sharding && dim < sharding->dims.size();
    const AxisRefList& axes = hasDim ? sharding->dims[dim].axes : kNoAxes;
    bool dimClosed = hasDim ? sharding->dims[dim].closed : closedIfMissing;
    AxisCursor cursor(axes, mesh);
    bool overflowed = false;
    for (size_t k = 0; k < dimFactors.size(); ++k) {
      int64_t factor = dimFactors[k];
      FactorSharding& fs = row.factors[factor];
      fs.minorMost = k + 1 == dimFactors.size();
      if (overflowed) {
        fs.closed = true;
        continue;
      }
      fs.closed = dimClosed;
      if (fs.minorMost) {
        cursor.takeRest(fs.axes);
        break;
      }
      int64_t remaining = factorSizes[factor];
      while (!cursor.done()) {
        int64_t g = cursor.size == 1 ? 1 : std::gcd(remaining, cursor.size);
        if (cursor.size != 1 && g <= 1) break;
        int64_t part = cursor.size == 1 ? 1 : g;
        remaining /= part;
        fs.axes.push_back(cursor.take(part));
      }
      if (remaining > 1 && !cursor.done()) {
        overflowed = true;
        cursor.takeRest(fs.overflowAxes);
      }
    }
  }
  if (sharding) {
    row.replicated = sharding->replicated;
    row.unreduced = sharding->unreduced;
    row.unreducedReduction = sharding->unreducedReduction;
  }
  return row;
}

TensorSharding unprojectTensor(const TensorFactorShardings& row, const TensorFactorMapping& mapping,
                               const std::vector<int64_t>& factorSizes, const MeshRef& meshRef,
                               const Mesh& mesh) {
  TensorSharding out;
  out.mesh = meshRef;
  for (const std::vector<int64_t>& dimFactors : mapping.dims) {
    DimensionSharding dim;
    dim.closed = false;
    for (int64_t factor : dimFactors) {
      const FactorSharding* fs = row.find(factor);
      if (!fs) break;
      dim.closed = dim.closed || fs->closed;
      int64_t sharded = 1;
      for (size_t i = 0; i < fs->axes.size(); ++i) {
        sharded = saturatingMul(sharded, axisSize(fs->axes[i], mesh));
        if (i == 0)
          appendOrMerge(dim.axes, fs->axes[i], mesh);
        else
          dim.axes.push_back(fs->axes[i]);
      }
      if (!fs->overflowAxes.empty()) {
        for (size_t i = 0; i < fs->overflowAxes.size(); ++i) {
          if (i == 0)
            appendOrMerge(dim.axes, fs->overflowAxes[i], mesh);
          else
            dim.axes.push_back(fs->overflowAxes[i]);
        }
        break;
      }
      if (sharded < factorSizes[factor]) break;
    }
    out.dims.push_back(std::move(dim));
  }
  out.replicated = row.replicated;
  out.unreduced = row.unreduced;
  out.unreducedReduction = row.unreducedReduction;
  return out;
}

ShardingProjection ShardingProjection::build(
    const std::vector<std::optional<TensorSharding>>& operandShardings,
    const std::vector<std::optional<TensorSharding>>& resultShardings, const OpShardingRule& rule,
    const Mesh& mesh, bool closedIfMissing) {
  ShardingProjection p;
  for (size_t i = 0; i < rule.operands.size(); ++i)
    p.operands.push_back(projectTensor(
        rule.operands[i], i < operandShardings.size() ? operandShardings[i] : std::nullopt,
        rule.factorSizes, mesh, closedIfMissing));
  for (size_t i = 0; i < rule.results.size(); ++i)
    p.results.push_back(projectTensor(
        rule.results[i], i < resultShardings.size() ? resultShardings[i] : std::nullopt,
        rule.factorSizes, mesh, closedIfMissing));
  return p;
}

UpdateTensorShardings ShardingProjection::expandSharding(int64_t factor, const AxisRefList& newAxes) {
  UpdateTensorShardings u(operands.size(), results.size());
  for (size_t i = 0; i < operands.size(); ++i) u.operands[i] = operands[i].expandAxes(factor, newAxes);
  for (size_t i = 0; i < results.size(); ++i) u.results[i] = results[i].expandAxes(factor, newAxes);
  return u;
}

}  // namespace shardscope::propagation
