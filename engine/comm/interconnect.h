// Per-chip interconnect figures the cost model divides bytes by.
//
// Each entry holds the chip's bidirectional chip-to-chip bandwidth as its
// vendor publishes it, and the one-way figure the model uses (half of it: a
// device receives over half its links' capacity while it sends over the
// other half). Example: TPU v5p publishes 1200 GB/s bidirectional ICI per
// chip, so an all-gather receiving 192 bytes per device takes
// 192 / 600e9 s = 0.32 ns (plus the per-step latency, 0 unless configured).
//
// The table can be replaced or extended from JSON:
//   {"chips": [{"name": "my-tpu", "bidirectional_gbps": 900,
//               "step_latency_us": 1.5, "source": "lab measurement"}]}
// (`bidirectional_gbps` in gigabytes per second; entries with a built-in
// name replace it, others are added).
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace shardscope::comm {

struct ChipLink {
  std::string name;         // "tpu-v5p"
  std::string description;  // "Cloud TPU v5p (ICI, 3D torus)"
  double bidirectionalBytesPerSecond = 0;
  // Fixed cost per step of a ring collective (n-1 steps for a ring of n).
  double stepLatencySeconds = 0;
  std::string source;  // where the figure comes from
  double oneWayBytesPerSecond() const { return bidirectionalBytesPerSecond / 2; }
};

// TPU v4, v5e, v5p, v6e (Trillium) and NVIDIA H100 SXM (NVLink 4).
const std::vector<ChipLink>& builtinChips();
// The chip named `name` in `chips`, or nullopt.
std::optional<ChipLink> findChip(const std::vector<ChipLink>& chips, const std::string& name);
// The chip the report uses when none is asked for.
inline constexpr const char* kDefaultChip = "tpu-v5p";

// Reads `{"chips": [...]}` from `path` and merges it into `chips`. Returns
// false with `error` set ("FILE: chips[1].bidirectional_gbps: must be a
// positive number") on unreadable or malformed input.
bool loadChipTable(const std::string& path, std::vector<ChipLink>& chips, std::string& error);
// The same on JSON text; `source` names it in errors.
bool parseChipTable(const std::string& text, const std::string& source, std::vector<ChipLink>& chips,
                    std::string& error);

}  // namespace shardscope::comm
