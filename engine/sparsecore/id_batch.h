// The ids of one feature for one global batch, stored as a ragged array
// (CSR): sample i looks up ids[rowStarts[i] .. rowStarts[i+1]). Kept flat
// so 100 million ids cost 400 MB, not a vector per sample.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace shardscope::sc {

struct IdBatch {
  std::vector<uint64_t> rowStarts{0};
  std::vector<uint32_t> ids;
  // Empty when the input gave no weights (every gain is 1).
  std::vector<float> weights;

  size_t sampleCount() const { return rowStarts.size() - 1; }
  size_t idCount() const { return ids.size(); }
  std::span<const uint32_t> sample(size_t i) const {
    return {ids.data() + rowStarts[i], ids.data() + rowStarts[i + 1]};
  }
  void addSample(std::span<const uint32_t> sampleIds) {
    ids.insert(ids.end(), sampleIds.begin(), sampleIds.end());
    rowStarts.push_back(ids.size());
  }
  // Appends empty samples until there are `count` samples.
  void padTo(size_t count) {
    while (sampleCount() < count) rowStarts.push_back(ids.size());
  }
  bool operator==(const IdBatch&) const = default;
};

}  // namespace shardscope::sc
