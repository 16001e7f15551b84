// The interconnect table (see interconnect.h).
#include "comm/interconnect.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace shardscope::comm {

namespace {
constexpr double kGB = 1e9;
}

const std::vector<ChipLink>& builtinChips() {
  // Bidirectional chip-to-chip bandwidth per chip, as published. Step
  // latencies are not published per collective; they default to 0 (set them
  // from a measured table with --comm-chips=FILE.json).
  static const std::vector<ChipLink> chips = {
      // Cloud TPU v4 docs, "System architecture": interchip interconnect
      // 2400 Gbps per direction (= 300 GB/s), i.e. 600 GB/s both ways; the
      // same figure as the TPU v4 paper (Jouppi et al., ISCA 2023: six
      // 50 GB/s links per chip, each direction).
      {"tpu-v4", "Cloud TPU v4 (ICI, 3D torus)", 600 * kGB, 0,
       "cloud.google.com/tpu/docs/v4: 2400 Gbps interchip interconnect per direction"},
      // Cloud TPU v5e docs, key specifications: "Bidirectional inter-chip
      // interconnect (ICI) bandwidth (per chip): 400 GBps".
      {"tpu-v5e", "Cloud TPU v5e (ICI, 2D torus)", 400 * kGB, 0,
       "cloud.google.com/tpu/docs/v5e: bidirectional ICI bandwidth per chip 400 GBps"},
      // Cloud TPU v5p docs: "Bidirectional inter-chip interconnect (ICI)
      // bandwidth per chip (GBps): 1200".
      {"tpu-v5p", "Cloud TPU v5p (ICI, 3D torus)", 1200 * kGB, 0,
       "cloud.google.com/tpu/docs/v5p: bidirectional ICI bandwidth per chip 1200 GBps"},
      // Cloud TPU v6e (Trillium) docs: "Bidirectional inter-chip
      // interconnect (ICI) bandwidth (per chip): 800 GBps".
      {"tpu-v6e", "Cloud TPU v6e / Trillium (ICI, 2D torus)", 800 * kGB, 0,
       "cloud.google.com/tpu/docs/v6e: bidirectional ICI bandwidth per chip 800 GBps"},
      // NVIDIA H100 SXM5 datasheet: fourth-generation NVLink, 900 GB/s
      // bidirectional per GPU (18 links of 50 GB/s).
      {"gpu-h100-nvlink", "NVIDIA H100 SXM (NVLink 4 through NVSwitch)", 900 * kGB, 0,
       "NVIDIA H100 Tensor Core GPU datasheet: NVLink 900 GB/s per GPU"},
  };
  return chips;
}

std::optional<ChipLink> findChip(const std::vector<ChipLink>& chips, const std::string& name) {
  for (const ChipLink& c : chips)
    if (c.name == name) return c;
  return std::nullopt;
}

bool parseChipTable(const std::string& text, const std::string& source, std::vector<ChipLink>& chips,
                    std::string& error) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    error = source + ": not valid JSON";
    return false;
  }
  if (!j.is_object() || !j.contains("chips") || !j["chips"].is_array()) {
    error = source + ": expected an object with a \"chips\" array";
    return false;
  }
  std::vector<ChipLink> merged = chips;
  const nlohmann::json& list = j["chips"];
  for (size_t i = 0; i < list.size(); ++i) {
    const nlohmann::json& e = list[i];
    const std::string where = source + ": chips[" + std::to_string(i) + "]";
    if (!e.is_object()) {
      error = where + ": must be an object";
      return false;
    }
    if (!e.contains("name") || !e["name"].is_string() || e["name"].get<std::string>().empty()) {
      error = where + ".name: must be a non-empty string";
      return false;
    }
    ChipLink chip;
    chip.name = e["name"].get<std::string>();
    if (auto existing = findChip(merged, chip.name)) chip = *existing;
    if (e.contains("bidirectional_gbps")) {
      const nlohmann::json& b = e["bidirectional_gbps"];
      if (!b.is_number() || b.get<double>() <= 0) {
        error = where + ".bidirectional_gbps: must be a positive number (GB/s)";
        return false;
      }
      chip.bidirectionalBytesPerSecond = b.get<double>() * kGB;
    } else if (chip.bidirectionalBytesPerSecond <= 0) {
      error = where + ".bidirectional_gbps: missing for a new chip";
      return false;
    }
    if (e.contains("step_latency_us")) {
      const nlohmann::json& l = e["step_latency_us"];
      if (!l.is_number() || l.get<double>() < 0) {
        error = where + ".step_latency_us: must be a number >= 0 (microseconds)";
        return false;
      }
      chip.stepLatencySeconds = l.get<double>() * 1e-6;
    }
    for (const char* key : {"description", "source"}) {
      if (!e.contains(key)) continue;
      if (!e[key].is_string()) {
        error = where + "." + key + ": must be a string";
        return false;
      }
      (std::string(key) == "source" ? chip.source : chip.description) = e[key].get<std::string>();
    }
    bool replaced = false;
    for (ChipLink& c : merged)
      if (c.name == chip.name) {
        c = chip;
        replaced = true;
      }
    if (!replaced) merged.push_back(chip);
  }
  chips = std::move(merged);
  return true;
}

bool loadChipTable(const std::string& path, std::vector<ChipLink>& chips, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot be read";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return parseChipTable(ss.str(), path, chips, error);
}

}  // namespace shardscope::comm
