// The leaf group of every op of a grouped function: op -> group id, for a
// million ops.
//
//   OpGroupTable t;
//   t.reserve(3);
//   t.emplace(a, 0); t.emplace(b, 0); t.emplace(c, 4);
//   t.find(c) == 4;  t.find(d) == -1;  t.size() == 3
//
// A node-based hash map spends a heap block per op (a million of them to
// build and free on every regrouping) and a cache miss per node on every
// lookup; this is one flat array of {op, group} slots, found by open
// addressing (linear probing from a multiplicative hash of the address):
// the build is a pass of stores, a lookup usually one cache line. Ops are
// never removed; an op emplaced twice keeps its first group (as
// std::unordered_map::emplace).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace shardscope::ir {
class Op;
}

namespace shardscope::widgets {

class OpGroupTable {
 public:
  // Room for `count` ops without growing.
  void reserve(size_t count);
  // Adds `op` in `group` unless it is already there.
  void emplace(const ir::Op* op, int group);
  // The group of `op`, or -1.
  int find(const ir::Op* op) const;
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  struct Slot {
    const ir::Op* op = nullptr;
    int group = -1;
  };
  size_t home(const ir::Op* op) const;
  void grow(size_t capacity);
  std::vector<Slot> slots_;  // a power of two long, at most half full
  size_t size_ = 0;
  int shift_ = 64;
};

}  // namespace shardscope::widgets
