// GSPMD shardings as XLA writes them in `mhlo.sharding` string attributes
// (HloSharding's text form), parsed into a value the import can map onto
// mesh axes (gspmd_common_mesh.h).
//
// Forms:
//   {replicated}  {manual}  {unknown}  {maximal device=3}
//   {devices=[2,1,4]0,1,2,3,4,5,6,7 last_tile_dim_replicate}   (explicit)
//   {devices=[4,8]<=[8,4]T(1,0)}                               (iota, transposed)
//   {devices=[2,2,2]<=[8] last_tile_dims={manual, replicated}}
//   {{replicated}, {devices=[2]0,1}}                           (tuple)
// `metadata={...}` is skipped. Example: "{devices=[4,8]<=[8,4]T(1,0)}" is
// tiled, tile dims [4, 8], devices iota [8, 4] transposed by (1, 0).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope {

struct GspmdSharding {
  enum class Kind { Replicated, Manual, Unknown, Maximal, Tiled, Tuple };
  // What a trailing tile dimension stands for (the subgroup types).
  enum class Subgroup { Replicated, Manual, Unreduced };

  Kind kind = Kind::Replicated;
  int64_t device = 0;  // Maximal
  // Tiled: the tile assignment's shape; the device list is either explicit
  // or an iota reshaped to `iotaReshape` and transposed by `iotaPerm`.
  std::vector<int64_t> tileDims;
  std::vector<int64_t> devices;  // explicit list, empty for iota
  std::vector<int64_t> iotaReshape;
  std::vector<int64_t> iotaPerm;
  bool lastTileDimReplicate = false;
  std::vector<Subgroup> lastTileDims;  // `last_tile_dims={...}`
  std::vector<GspmdSharding> elements;  // Tuple

  // Tile dims that map to tensor dims (the trailing subgroup dims excluded).
  size_t dataRank() const;
  // Product of the tile dims (the devices the sharding spans).
  int64_t deviceCount() const;
  // The device at each tile position, row-major over `tileDims` (expands an
  // iota form); empty when the count exceeds `limit`.
  std::vector<int64_t> deviceList(int64_t limit) const;
};

// The values sum(index[i] x strides[i]) over every index of `shape`,
// row-major: the device ids of a transposed iota, or of mesh axes given by
// their sizes and strides. Example: shape [2, 3], strides [1, 2] gives
// 0, 2, 4, 1, 3, 5.
std::vector<int64_t> stridedEnumeration(const std::vector<int64_t>& shape,
                                        const std::vector<int64_t>& strides);

// Parses `text`; on failure returns nullopt and sets `error` to the cause
// with the byte offset in `text` where it was found (`errorOffset`).
std::optional<GspmdSharding> parseGspmdSharding(std::string_view text, std::string& error,
                                                size_t* errorOffset = nullptr);

}  // namespace shardscope
