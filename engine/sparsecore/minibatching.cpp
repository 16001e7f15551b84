#include "sparsecore/minibatching.h"

#include <algorithm>
#include <vector>

namespace shardscope::sc {

uint32_t minibatchingBucket(uint32_t colId) {
  // 32-bit avalanche mixer: neighbouring ids land in unrelated buckets.
  uint32_t h = colId * 0x9E3779B1u;
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h & (kMinibatchingBuckets - 1);
}

MinibatchingSplit minibatchingSplit(std::span<const int64_t> perBucket, int64_t limit) {
  std::vector<int64_t> level(perBucket.begin(), perBucket.end());
  const size_t n = level.size();
  MinibatchingSplit split = 0;
  int node = 0;
  for (size_t width = 2; width <= n; width *= 2) {
    for (size_t left = 0; left < n; left += width, ++node) {
      const int64_t l = level[left];
      const int64_t r = level[left + width / 2];
      if (l + r > limit) {
        // Split: the two halves run in different mini-batches; the larger
        // one is what a parent merge would have to fit.
        split |= MinibatchingSplit{1} << node;
        level[left] = std::max(l, r);
      } else {
        level[left] = l + r;
      }
    }
  }
  return split;
}

std::vector<std::pair<int, int>> mergedBucketPairs(MinibatchingSplit split, int buckets) {
  std::vector<std::pair<int, int>> out;
  int node = 0;
  for (int width = 2; width <= buckets; width *= 2)
    for (int left = 0; left < buckets; left += width, ++node)
      if (!((split >> node) & 1)) out.emplace_back(left, left + width / 2);
  return out;
}

}  // namespace shardscope::sc
