// Folding several hashes into one, for the hash tables that share equal
// rules and shardings between ops (op_sharding_rule_cache, value_shardings).
#pragma once
#include <cstddef>

namespace shardscope::propagation {

// Mixes `value` into `seed` (the golden-ratio scheme: order matters, and
// small inputs spread over all bits).
inline void hashCombine(size_t& seed, size_t value) {
  seed ^= value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

}  // namespace shardscope::propagation
