// Greedy choice of factor axes (see factor_axes_candidate.h).
#include "passes/explicit_reshards/factor_axes_candidate.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <utility>

#include "propagation/axis_algebra.h"

namespace shardscope::passes::explicit_reshards {

namespace prop = shardscope::propagation;

namespace {

int64_t kindPrecedence(FactorType type) {
  switch (type) {
    case FactorType::Passthrough:
      return 3;
    case FactorType::Reduction:
      return 2;
    case FactorType::Permutation:
      return 1;
    case FactorType::NeedReplication:
      return 0;
  }
  return 0;
}

// For each factor, the factors that come right before it in some dimension
// and are not fully sharded yet. A factor may only be sharded once that set
// is empty: sharding `j` in `[ij]` while `i` is only partly sharded would
// need a strided view of the dimension.
class FactorDependencies {
 public:
  explicit FactorDependencies(const OpShardingRule& rule) : before_(rule.numFactors()) {
    auto addTensor = [&](const TensorFactorMapping& mapping) {
      for (const std::vector<int64_t>& dim : mapping.dims)
        for (size_t k = 1; k < dim.size(); ++k) before_[dim[k]].insert(dim[k - 1]);
    };
    for (const TensorFactorMapping& m : rule.operands) addTensor(m);
    for (const TensorFactorMapping& m : rule.results) addTensor(m);
  }
  bool ready(int64_t factor) const { return before_[factor].empty(); }
  void factorIsFull(int64_t factor) {
    for (std::set<int64_t>& deps : before_) deps.erase(factor);
  }

 private:
  std::vector<std::set<int64_t>> before_;
};

}  // namespace

bool worseCandidate(const FactorAxesCandidate& a, const FactorAxesCandidate& b) {
  auto key = [](const FactorAxesCandidate& c) {
    return std::make_tuple(c.sourceTensorSize, c.kindPrecedence, c.furtherShards, c.factor);
  };
  if (key(a) != key(b)) return key(a) < key(b);
  return axisListLess(a.axes, b.axes);
}

AxesPerFactor chooseFactorAxesGreedily(const prop::ShardingProjection& projection, const OpShardingRule& rule,
                                       const std::vector<int64_t>& tensorSizes, const Mesh& mesh) {
  AxesPerFactor chosen(rule.numFactors());

  // Every (factor, axes) pair some tensor holds, with all its prefixes that
  // drop whole axes from the end.
  std::set<std::pair<int64_t, AxisRefList>, bool (*)(const std::pair<int64_t, AxisRefList>&,
                                                     const std::pair<int64_t, AxisRefList>&)>
      pairs([](const std::pair<int64_t, AxisRefList>& a, const std::pair<int64_t, AxisRefList>& b) {
        if (a.first != b.first) return a.first < b.first;
        return axisListLess(a.second, b.second);
      });
  for (size_t t = 0; t < projection.numTensors(); ++t) {
    for (const auto& [factor, fs] : projection.tensor(t).factors) {
      AxisRefList axes = fs.axes;
      while (!axes.empty()) {
        pairs.insert({factor, axes});
        axes.pop_back();
      }
    }
  }
  std::vector<FactorAxesCandidate> candidates;
  candidates.reserve(pairs.size());
  for (const auto& [factor, axes] : pairs) {
    FactorAxesCandidate c;
    c.factor = factor;
    c.axes = axes;
    c.kindPrecedence = kindPrecedence(rule.factorType(factor));
    c.furtherShards = prop::totalSize(axes, mesh);
    candidates.push_back(std::move(c));
  }
  for (size_t t = 0; t < projection.numTensors(); ++t) {
    int64_t size = t < tensorSizes.size() ? tensorSizes[t] : 0;
    for (const auto& [factor, fs] : projection.tensor(t).factors)
      for (FactorAxesCandidate& c : candidates)
        if (c.factor == factor && (c.axes == fs.axes || isStrictListPrefix(c.axes, fs.axes)))
          c.sourceTensorSize += size;
  }

  FactorDependencies deps(rule);
  while (!candidates.empty()) {
    FactorAxesCandidate best;
    for (const FactorAxesCandidate& c : candidates)
      if (deps.ready(c.factor) && (best.empty() || worseCandidate(best, c))) best = c;
    if (best.empty()) break;  // only candidates waiting on a factor that never filled up

    chosen[best.factor] = best.axes;
    if (prop::totalSize(best.axes, mesh) == rule.factorSizes[best.factor]) deps.factorIsFull(best.factor);

    for (size_t i = 0; i < candidates.size();) {
      FactorAxesCandidate& c = candidates[i];
      bool keep = true;
      if (c.factor == best.factor) {
        // Only candidates that extend what the factor has now stay.
        keep = isStrictListPrefix(best.axes, c.axes);
        if (keep) c.furtherShards = prop::totalSize(c.axes, mesh) / prop::totalSize(best.axes, mesh);
      } else if (cutAtOverlap(c.axes, best.axes)) {
        const AxisRefList& current = chosen[c.factor];
        keep = !(c.axes == current);
        if (keep) c.furtherShards = prop::totalSize(c.axes, mesh) / prop::totalSize(current, mesh);
      } else {
        c.furtherShards = prop::totalSize(c.axes, mesh);
      }
      if (keep) {
        ++i;
      } else {
        if (i + 1 != candidates.size()) c = std::move(candidates.back());
        candidates.pop_back();
      }
    }
  }
  return chosen;
}

}  // namespace shardscope::passes::explicit_reshards
