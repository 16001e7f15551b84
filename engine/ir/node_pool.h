// Fixed-size pools for the IR's many small nodes: ops, the list nodes that
// hold them in blocks, values, regions and blocks, attribute values, and the
// small lists hanging off them (operands, results, uses, attributes,
// regions, blocks).
//
// Why: passes walk every op of a module dozens of times. From the general
// heap, an op, its list node and its values sit between its attributes,
// types and strings, so on a 100k-op module each step of a walk lands on a
// different page and misses the caches (time grew 15-20x from 10k to 100k
// ops for 10x the instructions). From these pools, ops made one after
// another (the reader's order, which is the walks' order) lie next to each
// other, and a walk streams through memory.
//
// Memory given back goes to a free list of its size and is reused, never
// returned to the system. Under AddressSanitizer the pools step aside so
// that use-after-free of ops stays detectable.
#pragma once
#include <cstddef>

namespace shardscope::ir::detail {

// Storage for one object of `size` bytes (aligned for any node type here);
// sizes beyond the pools' range come from operator new.
void* poolAllocate(std::size_t size);
// Gives back storage from poolAllocate of the same size.
void poolDeallocate(void* p, std::size_t size) noexcept;

// A standard allocator over the pools (for the blocks' op lists).
template <typename T>
struct PoolAllocator {
  using value_type = T;
  PoolAllocator() = default;
  template <typename U>
  PoolAllocator(const PoolAllocator<U>&) {}  // NOLINT: rebinding, as std::allocator
  T* allocate(std::size_t n) { return static_cast<T*>(poolAllocate(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { poolDeallocate(p, n * sizeof(T)); }
  template <typename U>
  bool operator==(const PoolAllocator<U>&) const {
    return true;
  }
};

}  // namespace shardscope::ir::detail
