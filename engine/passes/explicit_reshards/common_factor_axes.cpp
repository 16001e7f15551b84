// The factor sharding an op is computed in (see common_factor_axes.h).
#include "passes/explicit_reshards/common_factor_axes.h"

#include <algorithm>
#include <tuple>

#include "passes/explicit_reshards/factor_axes_candidate.h"
#include "propagation/axis_algebra.h"

namespace shardscope::passes::explicit_reshards {

namespace prop = shardscope::propagation;

namespace {

const TensorFactorMapping& mappingOf(const OpShardingRule& rule, size_t tensor) {
  return tensor < rule.operands.size() ? rule.operands[tensor] : rule.results[tensor - rule.operands.size()];
}

size_t numTensors(const OpShardingRule& rule) { return rule.operands.size() + rule.results.size(); }

bool contains(const std::vector<int64_t>& list, int64_t x) {
  return std::find(list.begin(), list.end(), x) != list.end();
}

bool hasShardedPermutationFactor(const prop::TensorFactorShardings& row, const OpShardingRule& rule) {
  for (const auto& [factor, fs] : row.factors)
    if (contains(rule.permutationFactors, factor) && !fs.axes.empty()) return true;
  return false;
}

int64_t rowShardCount(const prop::TensorFactorShardings& row, const Mesh& mesh) {
  int64_t n = 1;
  for (const auto& [factor, fs] : row.factors) n *= prop::totalSize(fs.axes, mesh) * prop::totalSize(fs.overflowAxes, mesh);
  return n;
}

AxesPerFactor chooseForUnaryOp(const prop::ShardingProjection& projection, const OpShardingRule& rule,
                               const std::vector<int64_t>& tensorSizes, const Mesh& mesh) {
  std::vector<int64_t> tensors = nonScalarTensorIndices(rule);
  auto preference = [&](int64_t t) {
    const prop::TensorFactorShardings& row = projection.tensor(t);
    return std::make_tuple(!hasShardedPermutationFactor(row, rule), tensorSizes[t], rowShardCount(row, mesh));
  };
  int64_t kept = tensors[0], other = tensors[1];
  if (!(preference(kept) >= preference(other))) std::swap(kept, other);

  AxesPerFactor axes(rule.numFactors());
  AxisRefList keptAxes;
  const prop::TensorFactorShardings& keptRow = projection.tensor(kept);
  for (const auto& [factor, fs] : keptRow.factors) {
    axes[factor] = fs.axes;
    keptAxes.insert(keptAxes.end(), fs.axes.begin(), fs.axes.end());
  }
  for (const auto& [factor, fs] : projection.tensor(other).factors) {
    if (keptRow.mapsFactor(factor)) continue;
    axes[factor] = fs.axes;
    cutAtOverlap(axes[factor], keptAxes);
  }
  return axes;
}

// Hand `axes` (taken from a need-replication factor) to the batching
// factors in order, each taking whole axes while they divide what is left
// of it.
void giveAxesToBatchingFactors(AxisRefList axes, const OpShardingRule& rule, const Mesh& mesh,
                               AxesPerFactor& chosen) {
  size_t next = 0;
  for (int64_t factor = 0; factor < rule.numFactors() && next < axes.size(); ++factor) {
    if (!isBatchingFactor(rule, factor)) continue;
    int64_t size = rule.factorSizes[factor];
    if (size == 0) continue;
    int64_t sharded = prop::totalSize(chosen[factor], mesh);
    if (size % sharded != 0) continue;
    int64_t room = size / sharded;
    while (next < axes.size()) {
      int64_t axisSize = prop::axisSize(axes[next], mesh);
      if (room % axisSize != 0) break;
      prop::appendOrMerge(chosen[factor], axes[next], mesh);
      room /= axisSize;
      ++next;
    }
  }
}

}  // namespace

bool isFactorInAllNonScalarTensors(const OpShardingRule& rule, int64_t factor) {
  for (size_t t = 0; t < numTensors(rule); ++t) {
    const TensorFactorMapping& m = mappingOf(rule, t);
    if (!m.dims.empty() && !m.mapsFactor(factor)) return false;
  }
  return true;
}

bool isBatchingFactor(const OpShardingRule& rule, int64_t factor) {
  return rule.factorType(factor) == FactorType::Passthrough && isFactorInAllNonScalarTensors(rule, factor);
}

std::vector<int64_t> nonScalarTensorIndices(const OpShardingRule& rule) {
  std::vector<int64_t> out;
  for (size_t t = 0; t < numTensors(rule); ++t)
    if (!mappingOf(rule, t).dims.empty()) out.push_back(static_cast<int64_t>(t));
  return out;
}

bool hasDimensionWithSeveralFactors(const OpShardingRule& rule) {
  for (size_t t = 0; t < numTensors(rule); ++t)
    for (const std::vector<int64_t>& dim : mappingOf(rule, t).dims)
      if (dim.size() > 1) return true;
  return false;
}

std::optional<AxisRefList> agreedFactorAxes(const prop::ShardingProjection& projection, int64_t factor) {
  std::optional<AxisRefList> agreed;
  for (size_t t = 0; t < projection.numTensors(); ++t) {
    const prop::FactorSharding* fs = projection.tensor(t).find(factor);
    if (!fs) continue;
    if (!agreed) {
      agreed = fs->axes;
    } else if (!(*agreed == fs->axes)) {
      return std::nullopt;
    }
  }
  return agreed ? agreed : AxisRefList{};
}

AxesPerFactor compatibleFactorAxes(const prop::ShardingProjection& projection, const OpShardingRule& rule) {
  AxesPerFactor axes(rule.numFactors());
  AxisRefList seen;
  for (int64_t factor = 0; factor < rule.numFactors(); ++factor) {
    std::optional<AxisRefList> agreed = agreedFactorAxes(projection, factor);
    if (!agreed) return {};
    if (rule.factorType(factor) == FactorType::NeedReplication) {
      if (!agreed->empty()) return {};
      continue;
    }
    if (prop::anyOverlap(*agreed, seen)) return {};
    seen.insert(seen.end(), agreed->begin(), agreed->end());
    axes[factor] = std::move(*agreed);
  }
  return axes;
}

AxesPerFactor chooseCommonFactorAxes(const prop::ShardingProjection& projection, const OpShardingRule& rule,
                                     const std::vector<int64_t>& tensorSizes, const Mesh& mesh) {
  if (AxesPerFactor axes = compatibleFactorAxes(projection, rule); !axes.empty()) return axes;

  if (nonScalarTensorIndices(rule).size() == 2 && rule.needReplicationFactors.empty() &&
      !hasDimensionWithSeveralFactors(rule))
    return chooseForUnaryOp(projection, rule, tensorSizes, mesh);

  AxesPerFactor chosen = chooseFactorAxesGreedily(projection, rule, tensorSizes, mesh);
  for (int64_t factor : rule.needReplicationFactors) {
    AxisRefList moved = std::move(chosen[factor]);
    chosen[factor].clear();
    if (!moved.empty() && isFactorInAllNonScalarTensors(rule, factor))
      giveAxesToBatchingFactors(std::move(moved), rule, mesh, chosen);
  }
  return chosen;
}

}  // namespace shardscope::passes::explicit_reshards
