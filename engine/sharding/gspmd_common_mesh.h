// One mesh for a module's GSPMD shardings, as XLA's sharding import builds
// it: each tiled sharding's device order is read as mesh axes (a size and a
// stride in device ids, per tile dimension), the axes of all shardings are
// cut at every stride any of them uses, and the pieces, from the largest
// stride down, are the common mesh's `_axis_0`, `_axis_1`, ...
//
// Example: {devices=[4,8]<=[8,4]T(1,0)} has tile dim 0 = 4 devices of
// stride 1 and tile dim 1 = 8 of stride 4; {devices=[1,2,16]<=[32]
// last_tile_dim_replicate} cuts at stride 16. Together: strides 16, 4, 1,
// so the mesh is ["_axis_0"=2, "_axis_1"=4, "_axis_2"=4] and the first
// sharding reads [{"_axis_2"}, {"_axis_0", "_axis_1"}].
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sharding/gspmd_sharding.h"
#include "sharding/mesh.h"
#include "sharding/tensor_sharding.h"

namespace shardscope {

// One run of devices along a tile dimension: `size` positions whose device
// ids step by `stride`.
struct TileAxis {
  int64_t size = 1;
  int64_t stride = 1;
  bool operator==(const TileAxis&) const = default;
};

// Per tile dimension, its axes from major to minor.
struct TileAxes {
  std::vector<std::vector<TileAxis>> perTileDim;
  int64_t devices = 1;
};

// Reads a tiled sharding's device order as mesh axes; nullopt with `error`
// when it cannot be (device ids that are not strides of mesh axes, such as
// {devices=[2,3]0,3,1,4,2,5}... that are not a permutation, or more than
// 2^20 devices).
std::optional<TileAxes> analyzeTileAssignment(const GspmdSharding& tiled, std::string& error);

struct GspmdCommonMesh {
  Mesh mesh;                         // `_axis_N` axes, major first
  std::vector<int64_t> axisStrides;  // device-id stride of each axis
  std::vector<int64_t> maximalDevices;  // sorted, unique
  bool empty() const { return mesh.axes.empty() && maximalDevices.empty(); }
};

// Accumulates shardings (tuples by element) and builds the common mesh.
class GspmdMeshBuilder {
 public:
  // False with `error` for a sharding that cannot join the mesh.
  bool add(const GspmdSharding& sharding, std::string& error);
  // False with `error` when the shardings' axes do not nest.
  bool build(GspmdCommonMesh& out, std::string& error) const;
  // Whether any tiled or maximal sharding was added.
  bool any() const { return devices_ > 0 || !maximal_.empty(); }

 private:
  int64_t devices_ = 0;  // of the tiled shardings (0: none yet)
  std::vector<int64_t> cuts_;
  std::vector<int64_t> maximal_;
};

// The name of the mesh of a `{maximal device=N}` sharding.
std::string singleDeviceMeshName(int64_t device);

// The sdy sharding of `sharding` (not a tuple) for a value of rank `rank`,
// on the common mesh `meshName`; nullopt with `error` when it does not fit
// (a tile assignment of another rank). `openDims` opens every dimension.
std::optional<TensorSharding> toSdySharding(const GspmdSharding& sharding,
                                            const GspmdCommonMesh& common,
                                            const std::string& meshName, int64_t rank,
                                            bool openDims, std::string& error);

}  // namespace shardscope
