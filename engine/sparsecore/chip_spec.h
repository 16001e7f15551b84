// Hardware description of a TPU chip as far as SparseCore sizing needs it.
// Defaults follow docs/sparsecore.md; every number can be overridden in the
// job file ("chip": {"name": "v5p", "tile_spmem_bytes": 262144}).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::sc {

struct ChipSpec {
  std::string name = "v5p";
  int sparseCoresPerChip = 4;
  int tilesPerSparseCore = 16;
  int simdLanesF32 = 8;
  int simdLanesBf16 = 8;
  // TileSpmem per tile; SPMEM buffers sized from the limits must fit here.
  int64_t tileSpmemBytes = 512 * 1024;
  int64_t hbmBytes = int64_t{95} << 30;

  bool operator==(const ChipSpec&) const = default;
};

// TPU v4, v5p, v6e (Trillium) and TPU7x, in that order.
const std::vector<ChipSpec>& knownChipSpecs();

// Looks a chip up by name, case-insensitively: "v4", "tpu v4", "v5p",
// "v6e", "trillium", "tpu7x", "v7x", "ironwood". nullopt when unknown.
std::optional<ChipSpec> chipSpecByName(std::string_view name);

// "v4, v5p, v6e, tpu7x" for error messages.
std::string knownChipNames();

}  // namespace shardscope::sc
