// How much memory this machine has, for limits that must say "too large for
// this machine" before an allocation aborts (a 2^31-sample table, 2^30 ids).
//
//   if (ids > physicalMemoryBytes() / kBytesPerId) fail("... this machine's 16 GiB ...");
#pragma once
#include <cstdint>

namespace shardscope::io {

// Physical memory in bytes (8 GiB when the system does not say).
uint64_t physicalMemoryBytes();

}  // namespace shardscope::io
