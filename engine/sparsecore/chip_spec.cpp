#include "sparsecore/chip_spec.h"

#include <algorithm>
#include <cctype>

namespace shardscope::sc {

const std::vector<ChipSpec>& knownChipSpecs() {
  // TPU v4 TileSpmem is not published; 512 KiB is the documented stand-in.
  static const std::vector<ChipSpec> specs = {
      {"v4", 4, 16, 8, 8, 512 * 1024, int64_t{32} << 30},
      {"v5p", 4, 16, 8, 8, 512 * 1024, int64_t{95} << 30},
      // Trillium's 32 GB is decimal in the spec sheet.
      {"v6e", 2, 16, 8, 16, 256 * 1024, int64_t{32} * 1000 * 1000 * 1000},
      {"tpu7x", 4, 16, 16, 32, 512 * 1024, int64_t{192} << 30},
  };
  return specs;
}

static std::string normalized(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == ' ' || c == '-' || c == '_') continue;
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  if (out.rfind("tpu", 0) == 0 && out != "tpu7x") out = out.substr(3);
  return out;
}

std::optional<ChipSpec> chipSpecByName(std::string_view name) {
  std::string n = normalized(name);
  if (n == "trillium") n = "v6e";
  if (n == "7x" || n == "v7x" || n == "ironwood" || n == "v7") n = "tpu7x";
  for (const ChipSpec& spec : knownChipSpecs())
    if (spec.name == n) return spec;
  return std::nullopt;
}

std::string knownChipNames() {
  std::string out;
  for (const ChipSpec& spec : knownChipSpecs()) {
    if (!out.empty()) out += ", ";
    out += spec.name;
  }
  return out;
}

}  // namespace shardscope::sc
