// Table stacking: tables whose widths round up to the same multiple of 8
// floats (and share an optimizer) are laid end to end in one stacked table.
// Each member keeps its padded vocabulary in every shard (row offset) and is
// rotated by k x rotation shards so hot low ids of different tables land on
// different SparseCores.
//
// Example, 4 SparseCores, rotation 4, tables a (vocab 10) and b (vocab 40):
// padded vocabs 32 and 64, so b starts at row 8 of each shard, col_offset
// 8 x 4 = 32; b's rotation is 4 mod 4 = 0.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sparsecore/job.h"

namespace shardscope::sc {

// One table inside a stack.
struct StackMember {
  int tableIndex = 0;       // into Job::tables
  int64_t paddedVocab = 0;  // multiple of 8 x N
  int paddedWidth = 0;      // multiple of 8
  int64_t rowOffsetInShard = 0;
  int shardRotation = 0;  // col_shift
  int64_t colOffset = 0;  // rowOffsetInShard x N
  bool operator==(const StackMember&) const = default;
};

// One feature looking up a stack: which member, and where its samples go.
struct StackFeature {
  int featureIndex = 0;  // into Job::features
  int memberIndex = 0;   // into StackPlan::members
  bool operator==(const StackFeature&) const = default;
};

struct StackPlan {
  std::string name;  // member names joined by "_"
  std::vector<StackMember> members;
  std::vector<StackFeature> features;
  int paddedWidth = 0;     // widest member
  int64_t stackVocab = 0;  // sum of padded vocabularies
  int maxIdsPerPartition = 0;
  int maxUniqueIdsPerPartition = 0;
  std::vector<std::string> warnings;
  bool operator==(const StackPlan&) const = default;
};

inline int64_t roundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

// Width padded to 32 bytes (8 floats); vocabulary padded to 8 x N rows.
int paddedWidth(int width);
int64_t paddedVocab(int64_t vocab, int totalSparseCores);

// Groups the job's tables into stacks (one stack per table when stacking is
// off or a table has no feature). Stacks are ordered by their first table.
std::vector<StackPlan> planStacks(const Job& job);

// Column id of `id` for a member: ((id + shift) mod N) + (id - id mod N) +
// col_offset, with N a power of two (mask = N - 1).
inline uint32_t stackedColumn(uint32_t id, uint32_t shift, uint32_t colOffset, uint32_t mask) {
  return ((id + shift) & mask) + (id & ~mask) + colOffset;
}

}  // namespace shardscope::sc
