#include "sharding/gspmd_common_mesh.h"

#include <algorithm>

namespace shardscope {

namespace {

constexpr int64_t kMaxDevices = int64_t{1} << 20;

// Row-major strides of the tile positions.
std::vector<int64_t> positionStrides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> out(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) out[i - 1] = out[i] * dims[i];
  return out;
}

}  // namespace

std::optional<TileAxes> analyzeTileAssignment(const GspmdSharding& tiled, std::string& error) {
  const int64_t n = tiled.deviceCount();
  if (n > kMaxDevices) {
    error = "more than 2^20 devices (" + std::to_string(n) + ")";
    return std::nullopt;
  }
  const std::vector<int64_t> list = tiled.deviceList(kMaxDevices);
  std::vector<char> seen(static_cast<size_t>(n), 0);
  for (int64_t d : list) {
    if (d < 0 || d >= n || seen[static_cast<size_t>(d)]) {
      error = "the device list is not a permutation of 0.." + std::to_string(n - 1);
      return std::nullopt;
    }
    seen[static_cast<size_t>(d)] = 1;
  }
  TileAxes out;
  out.devices = n;
  const std::vector<int64_t> posStride = positionStrides(tiled.tileDims);
  // Along each tile dimension (other coordinates 0), split the device ids
  // into runs of equal steps, minor first: ids k x s for k < f, then the
  // run of the next level starts every f positions.
  for (size_t d = 0; d < tiled.tileDims.size(); ++d) {
    std::vector<int64_t> along(static_cast<size_t>(tiled.tileDims[d]));
    for (int64_t k = 0; k < tiled.tileDims[d]; ++k)
      along[static_cast<size_t>(k)] = list[static_cast<size_t>(k * posStride[d])] - list[0];
    std::vector<TileAxis> minorFirst;
    int64_t step = 1;  // positions per element of `along` at this level
    int64_t remaining = tiled.tileDims[d];
    while (remaining > 1) {
      const int64_t stride = along[static_cast<size_t>(step)];
      int64_t run = 1;
      while (run < remaining && along[static_cast<size_t>(run * step)] == run * stride) ++run;
      if (run < 2 || remaining % run != 0 || stride <= 0) {
        error = "its device order is not a product of mesh axes";
        return std::nullopt;
      }
      minorFirst.push_back({run, stride});
      step *= run;
      remaining /= run;
    }
    out.perTileDim.emplace_back(minorFirst.rbegin(), minorFirst.rend());
  }
  // The axes must give every device: id = sum of digit x stride.
  std::vector<int64_t> radix, stride;
  for (const auto& axes : out.perTileDim)
    for (const TileAxis& a : axes) {
      radix.push_back(a.size);
      stride.push_back(a.stride);
    }
  if (stridedEnumeration(radix, stride) != list) {
    error = "its device order is not a product of mesh axes";
    return std::nullopt;
  }
  return out;
}

bool GspmdMeshBuilder::add(const GspmdSharding& sharding, std::string& error) {
  switch (sharding.kind) {
    case GspmdSharding::Kind::Tuple:
      for (const GspmdSharding& e : sharding.elements)
        if (!add(e, error)) return false;
      return true;
    case GspmdSharding::Kind::Maximal:
      if (std::find(maximal_.begin(), maximal_.end(), sharding.device) == maximal_.end())
        maximal_.push_back(sharding.device);
      return true;
    case GspmdSharding::Kind::Tiled: {
      std::optional<TileAxes> axes = analyzeTileAssignment(sharding, error);
      if (!axes) return false;
      if (axes->devices == 1) return true;
      if (devices_ != 0 && devices_ != axes->devices) {
        error = "its " + std::to_string(axes->devices) + " devices differ from the " +
                std::to_string(devices_) + " of another sharding";
        return false;
      }
      devices_ = axes->devices;
      for (const auto& dimAxes : axes->perTileDim)
        for (const TileAxis& a : dimAxes) {
          cuts_.push_back(a.stride);
          cuts_.push_back(a.stride * a.size);
        }
      return true;
    }
    default:
      return true;
  }
}

bool GspmdMeshBuilder::build(GspmdCommonMesh& out, std::string& error) const {
  out = GspmdCommonMesh{};
  out.maximalDevices = maximal_;
  std::sort(out.maximalDevices.begin(), out.maximalDevices.end());
  if (devices_ <= 1) return true;
  std::vector<int64_t> cuts = cuts_;
  cuts.push_back(1);
  cuts.push_back(devices_);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  for (size_t i = 1; i < cuts.size(); ++i)
    if (cuts[i] % cuts[i - 1] != 0) {
      error = "the shardings' device orders have no common mesh (axes of stride " +
              std::to_string(cuts[i - 1]) + " and " + std::to_string(cuts[i]) + " do not nest)";
      return false;
    }
  // Largest stride first: `_axis_0` is the most major.
  for (size_t i = cuts.size() - 1; i > 0; --i) {
    out.mesh.axes.push_back(
        {"_axis_" + std::to_string(out.mesh.axes.size()), cuts[i] / cuts[i - 1]});
    out.axisStrides.push_back(cuts[i - 1]);
  }
  return true;
}

std::string singleDeviceMeshName(int64_t device) {
  return "single_device_" + std::to_string(device);
}

std::optional<TensorSharding> toSdySharding(const GspmdSharding& sharding,
                                            const GspmdCommonMesh& common,
                                            const std::string& meshName, int64_t rank,
                                            bool openDims, std::string& error) {
  TensorSharding out;
  out.mesh.name = meshName;
  auto emptyDims = [&](bool closed) {
    out.dims.assign(static_cast<size_t>(rank), DimensionSharding{{}, closed, std::nullopt});
  };
  switch (sharding.kind) {
    case GspmdSharding::Kind::Tuple:
      error = "a tuple sharding for a single value";
      return std::nullopt;
    case GspmdSharding::Kind::Maximal:
      // The value lives on one device: its dimensions do not matter.
      out.mesh.name = singleDeviceMeshName(sharding.device);
      return out;
    case GspmdSharding::Kind::Replicated:
    case GspmdSharding::Kind::Manual:
      emptyDims(!openDims);
      return out;
    case GspmdSharding::Kind::Unknown:
      emptyDims(false);
      return out;
    case GspmdSharding::Kind::Tiled:
      break;
  }
  std::optional<TileAxes> axes = analyzeTileAssignment(sharding, error);
  if (!axes) return std::nullopt;
  if (static_cast<int64_t>(sharding.dataRank()) != rank) {
    error = "the sharding tiles " + std::to_string(sharding.dataRank()) +
            " dimensions but the value has rank " + std::to_string(rank);
    return std::nullopt;
  }
  // The common mesh's axes inside one run, major first.
  auto axesOf = [&](const TileAxis& run) {
    AxisRefList refs;
    for (size_t i = 0; i < common.mesh.axes.size(); ++i)
      if (common.axisStrides[i] >= run.stride && common.axisStrides[i] < run.stride * run.size)
        refs.push_back(AxisRef{common.mesh.axes[i].name, std::nullopt});
    return refs;
  };
  for (size_t d = 0; d < sharding.dataRank(); ++d) {
    DimensionSharding dim{{}, !openDims, std::nullopt};
    for (const TileAxis& run : axes->perTileDim[d])
      for (AxisRef& ref : axesOf(run)) dim.axes.push_back(std::move(ref));
    out.dims.push_back(std::move(dim));
  }
  const size_t firstSubgroup = sharding.dataRank();
  for (size_t k = 0; k < sharding.lastTileDims.size(); ++k) {
    const size_t d = firstSubgroup + k;
    AxisRefList& into = sharding.lastTileDims[k] == GspmdSharding::Subgroup::Replicated
                            ? out.replicated
                            : out.unreduced;
    if (sharding.lastTileDims[k] == GspmdSharding::Subgroup::Manual) continue;
    for (const TileAxis& run : axes->perTileDim[d])
      for (AxisRef& ref : axesOf(run)) into.push_back(std::move(ref));
  }
  return out;
}

}  // namespace shardscope
