// Vocabulary-dimension mini-batching. Column ids are hashed into 64
// buckets; a binary tree over the buckets merges sibling groups while their
// combined count stays within the limit and splits them otherwise. The split
// bits are OR-ed over all SparseCores, partitions and tables, so every table
// runs the same number of mini-batches: popcount(split) + 1.
//
// Example (8 buckets, limit 7): counts {2,5,1,6,3,4,2,0} merge pairwise to
// {7,7,7,2}; then 7+7 and 7+2 exceed 7 (split), and so does the root:
// 3 split bits, 4 mini-batches.
#pragma once
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace shardscope::sc {

inline constexpr int kMinibatchingBuckets = 64;

// Bit i marks a split at tree node i (level order: the 32 pairs first,
// then the 16 quads, ..., the root last); 63 nodes for 64 buckets.
using MinibatchingSplit = uint64_t;

// Deterministic bucket of a column id. The reference hashes with
// HighwayHash; this model uses its own mixer, so bucket membership (and
// hence the exact split) can differ from the reference for the same ids.
uint32_t minibatchingBucket(uint32_t colId);

// Split for one (source SparseCore, partition) given counts per bucket
// (`perBucket.size()` must be a power of two, normally 64).
MinibatchingSplit minibatchingSplit(std::span<const int64_t> perBucket, int64_t limit);

inline int minibatchCount(MinibatchingSplit split) { return __builtin_popcountll(split) + 1; }

// The bucket merges a split implies, in tree order: every node whose bit is
// clear merges its right group into its left one, named by their first
// buckets. 8 buckets, split 0b0101101 (bits 1, 4, 6 clear): (2,3), (0,2), (0,4).
std::vector<std::pair<int, int>> mergedBucketPairs(MinibatchingSplit split, int buckets);

}  // namespace shardscope::sc
