// Table stacking: tables whose widths round up to the same multiple of 8
// floats (and share an optimizer) are laid end to end in one stacked table.
// Each member keeps its padded vocabulary in every shard (row offset) and is
// rotated by k x rotation shards so hot low ids of different tables land on
// different SparseCores.
//
// Example, 4 SparseCores, rotation 4, tables a (vocab 10) and b (vocab 40):
// padded vocabs 32 and 64, so b starts at row 8 of each shard, col_offset
// 8 x 4 = 32; b's rotation is 4 mod 4 = 0.
//
// A job may instead give each table's `setting_in_stack` and each feature's
// `id_transformation` (the reference's names); planStacks then takes them
// as given, groups tables by stack name, and only derives what is missing.
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

// One feature looking up a stack: which member, and how its ids become
// columns (the member's offset and rotation unless the feature gives its
// own id_transformation).
struct StackFeature {
  int featureIndex = 0;  // into Job::features
  int memberIndex = 0;   // into StackPlan::members
  std::string name;      // the feature's
  int64_t rowOffset = 0;  // first sample in the stacked batch
  int64_t colOffset = 0;
  int colShift = 0;  // in [0, N)
  bool explicitTransformation = false;
  bool operator==(const StackFeature&) const = default;
};

struct StackPlan {
  std::string name;  // member names joined by "_"
  std::vector<StackMember> members;
  std::vector<StackFeature> features;
  int paddedWidth = 0;     // widest member
  int64_t stackVocab = 0;  // rows over all shards (sum of padded vocabularies)
  // One past the largest column id any feature can produce (>= stackVocab
  // when an explicit id_transformation points past the stack).
  int64_t columnSpace = 0;
  bool explicitSetting = false;  // members placed by setting_in_stack
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
// With explicit settings the stacks are the tables' stack names and members
// keep their given rows; validateJob has checked them.
std::vector<StackPlan> planStacks(const Job& job);

// Column id of `id` for a member: ((id + shift) mod N) + (id - id mod N) +
// col_offset, with N a power of two (mask = N - 1).
inline uint32_t stackedColumn(uint32_t id, uint32_t shift, uint32_t colOffset, uint32_t mask) {
  return ((id + shift) & mask) + (id & ~mask) + colOffset;
}

}  // namespace shardscope::sc
