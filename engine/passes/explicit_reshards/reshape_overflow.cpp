// Reshapes with overflow axes (see reshape_overflow.h).
#include "passes/explicit_reshards/reshape_overflow.h"

#include <numeric>

#include "passes/explicit_reshards/insert_point.h"
#include "passes/pass_utils.h"
#include "propagation/axis_algebra.h"

namespace shardscope::passes::explicit_reshards {

namespace prop = shardscope::propagation;

namespace {

int64_t shardCount(const prop::TensorFactorShardings& row, const Mesh& mesh) {
  int64_t n = 1;
  for (const auto& [factor, fs] : row.factors)
    n *= prop::totalSize(fs.axes, mesh) * prop::totalSize(fs.overflowAxes, mesh);
  return n;
}

// What is left of the axis being handed out.
struct AxisPiece {
  std::string name;
  int64_t preSize = 1;
  int64_t size = 1;
  bool split = false;  // a sub-axis (else the full axis)
  AxisRef ref() const { return split ? AxisRef{name, SubAxisInfo{preSize, size}} : AxisRef{name, std::nullopt}; }
};

std::optional<AxisPiece> pieceAt(const AxisRefList& axes, size_t i, const Mesh& mesh) {
  if (i >= axes.size()) return std::nullopt;
  const AxisRef& a = axes[i];
  return AxisPiece{a.name, a.preSize(), prop::axisSize(a, mesh), a.isSubAxis()};
}

// Hand `axes` out to `shardings` (factor sizes `sizes`), axis by axis: each
// axis goes to the first factors that can take a part of it.
void handOutAxes(std::vector<prop::FactorSharding*>& shardings, std::vector<int64_t> sizes, const AxisRefList& axes,
                 const Mesh& mesh) {
  if (shardings.empty()) return;
  size_t index = 0;
  std::optional<AxisPiece> piece = pieceAt(axes, index, mesh);
  while (piece) {
    bool used = false;
    for (size_t i = 0; i < shardings.size(); ++i) {
      if (sizes[i] <= 1) continue;
      int64_t g = std::gcd(sizes[i], piece->size);
      if (g == 1 && piece->size != 1) continue;
      used = true;
      if (piece->size > g) {
        prop::appendOrMerge(shardings[i]->axes, AxisRef{piece->name, SubAxisInfo{piece->preSize, g}}, mesh);
        piece->preSize *= g;
        piece->size /= g;
        piece->split = true;
        sizes[i] /= g;
      } else {
        prop::appendOrMerge(shardings[i]->axes, piece->ref(), mesh);
        sizes[i] /= piece->size;
        piece = pieceAt(axes, ++index, mesh);
        break;
      }
    }
    if (!used) {
      AxisRefList& overflow = shardings.back()->overflowAxes;
      prop::appendOrMerge(overflow, piece->ref(), mesh);
      for (size_t i = index + 1; i < axes.size(); ++i) overflow.push_back(axes[i]);
      break;
    }
  }
}

void redistribute(prop::TensorFactorShardings& row, const TensorFactorMapping& mapping,
                  const std::vector<int64_t>& factorSizes, const AxisRefList& axes, const Mesh& mesh) {
  std::vector<prop::FactorSharding*> shardings;
  std::vector<int64_t> sizes;
  for (const std::vector<int64_t>& dim : mapping.dims) {
    for (int64_t factor : dim) {
      auto it = row.factors.find(factor);
      if (it == row.factors.end()) continue;
      it->second.axes.clear();
      it->second.overflowAxes.clear();
      shardings.push_back(&it->second);
      sizes.push_back(factorSizes[factor]);
    }
  }
  handOutAxes(shardings, sizes, axes, mesh);
}

}  // namespace

bool hasOverflowAxes(const prop::ShardingProjection& projection) {
  for (size_t t = 0; t < projection.numTensors(); ++t)
    for (const auto& [factor, fs] : projection.tensor(t).factors)
      if (!fs.overflowAxes.empty()) return true;
  return false;
}

AxesPerFactor reshardReshapeWithOverflow(ir::Op* op, const OpShardingRule& rule, const OpMesh& mesh,
                                         const OptionalShardings& operands, const OptionalShardings& results,
                                         prop::ShardingProjection& projection, const ReshardContext& ctx) {
  const Mesh& m = *mesh.mesh;
  prop::ShardingProjection original = projection;
  bool fromOperand = shardCount(projection.operands[0], m) >= shardCount(projection.results[0], m);
  const prop::TensorFactorShardings& source = fromOperand ? projection.operands[0] : projection.results[0];
  AxisRefList axes;
  for (int64_t factor = 0; factor < rule.numFactors(); ++factor) {
    if (const prop::FactorSharding* fs = source.find(factor)) {
      axes.insert(axes.end(), fs->axes.begin(), fs->axes.end());
      axes.insert(axes.end(), fs->overflowAxes.begin(), fs->overflowAxes.end());
    }
  }
  redistribute(projection.operands[0], rule.operands[0], rule.factorSizes, axes, m);
  redistribute(projection.results[0], rule.results[0], rule.factorSizes, axes, m);

  // What both sides can be sharded as, projected again so that each side's
  // axes split over the factors as the projection splits them.
  TensorSharding in = prop::unprojectTensor(projection.operands[0], rule.operands[0], rule.factorSizes, mesh.ref(), m);
  TensorSharding out = prop::unprojectTensor(projection.results[0], rule.results[0], rule.factorSizes, mesh.ref(), m);
  prop::ShardingProjection legal = prop::ShardingProjection::build({in}, {out}, rule, m);
  AxesPerFactor common(rule.numFactors());
  std::vector<bool> seen(rule.numFactors(), false);
  for (size_t t = 0; t < legal.numTensors(); ++t) {
    for (const auto& [factor, fs] : legal.tensor(t).factors) {
      if (!seen[factor]) {
        common[factor] = fs.axes;
        seen[factor] = true;
      } else {
        common[factor] = commonListPrefix(common[factor], fs.axes);
      }
    }
  }
  for (int64_t factor = 0; factor < rule.numFactors(); ++factor) {
    for (size_t t = 0; t < projection.numTensors(); ++t) {
      auto it = projection.tensor(t).factors.find(factor);
      if (it == projection.tensor(t).factors.end()) continue;
      it->second.axes = common[factor];
      it->second.overflowAxes.clear();
    }
  }

  prop::UpdateTensorShardings changed(1, 1);
  TensorSharding newIn =
      prop::unprojectTensor(projection.operands[0], rule.operands[0], rule.factorSizes, mesh.ref(), m);
  TensorSharding newOut =
      prop::unprojectTensor(projection.results[0], rule.results[0], rule.factorSizes, mesh.ref(), m);
  changed.operands[0] = !equivalentShardings(shardingOf(op->operand(0)), newIn);
  changed.results[0] = !equivalentShardings(newOut, results.empty() ? std::nullopt : results[0]);
  reshardToProjection(op, rule, mesh, operands, results, original, projection, changed, ctx);
  return common;
}

}  // namespace shardscope::passes::explicit_reshards
