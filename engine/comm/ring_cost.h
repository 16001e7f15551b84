// The ring formulas: bytes a device receives in one collective, and the
// time that takes on a chip.
//
// n is the size of the collective's device group (the product of the sizes
// of its mesh axes), B_in / B_out the bytes of a device's shard before and
// after (see README.md for the derivations and a worked example):
//
//   all-gather          (n-1)/n * B_out      each device already holds 1/n
//   reduce-scatter      (n-1)/n * B_in       n-1 partial chunks of B_in/n
//   all-reduce          2(n-1)/n * B         a reduce-scatter then an all-gather
//   all-to-all          (n-1)/n * B          keeps one of n chunks, gets n-1
//   collective-permute  B                    the whole shard from one peer
//   all-slice           0                    each device keeps part of what it has
//   sharded/replicated-to-unreduced  0       local rewrites of the shard
//
// Example: all-gather of tensor<8x8xf32> from [{"x"}, {}] to [{}, {}] on
// "x"=4: B_out = 256 bytes, n = 4, received = 3/4 * 256 = 192 bytes.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "comm/interconnect.h"
#include "passes/reshard_to_collectives.h"

namespace shardscope::comm {

using passes::CollectiveKind;

// Bytes of one element of `elementType` ("f32" -> 4, "bf16" -> 2, "i1" -> 1,
// "complex<f32>" -> 8), or nullopt for types of unknown width.
std::optional<int64_t> elementBytes(const std::string& elementType);

// Bytes one device receives (see the table above).
double bytesReceivedPerDevice(CollectiveKind kind, int64_t groupSize, double inBytesPerDevice,
                              double outBytesPerDevice);

// Ring steps: n-1 for gathers, scatters and all-to-alls, 2(n-1) for an
// all-reduce, 1 for a permute, 0 for a slice.
int64_t ringSteps(CollectiveKind kind, int64_t groupSize);

// bytes / one-way bandwidth + steps * step latency.
double estimateSeconds(CollectiveKind kind, int64_t groupSize, double bytesReceived, const ChipLink& chip);

}  // namespace shardscope::comm
