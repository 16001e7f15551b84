// Ring formulas (see ring_cost.h).
#include "comm/ring_cost.h"

#include <cctype>

namespace shardscope::comm {

std::optional<int64_t> elementBytes(const std::string& t) {
  if (t.rfind("complex<", 0) == 0 && t.back() == '>') {
    auto inner = elementBytes(t.substr(8, t.size() - 9));
    if (!inner) return std::nullopt;
    return 2 * *inner;
  }
  if (t == "index") return 8;
  // f32, bf16, i8, ui16, si32, f8E4M3FN, f4E2M1FN, tf32: the digits after
  // the letter prefix give the width in bits.
  size_t i = 0;
  while (i < t.size() && std::isalpha(static_cast<unsigned char>(t[i]))) ++i;
  if (i == 0 || i == t.size() || !std::isdigit(static_cast<unsigned char>(t[i]))) return std::nullopt;
  int64_t bits = 0;
  while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) bits = bits * 10 + (t[i++] - '0');
  if (bits <= 0) return std::nullopt;
  if (t.rfind("tf32", 0) == 0) bits = 32;  // stored as 32 bits
  return (bits + 7) / 8;  // i1 and sub-byte floats take a byte each
}

double bytesReceivedPerDevice(CollectiveKind kind, int64_t groupSize, double inBytes, double outBytes) {
  const double n = static_cast<double>(groupSize < 1 ? 1 : groupSize);
  switch (kind) {
    case CollectiveKind::AllGather: return (n - 1) / n * outBytes;
    case CollectiveKind::ReduceScatter: return (n - 1) / n * inBytes;
    case CollectiveKind::AllReduce: return 2 * (n - 1) / n * inBytes;
    case CollectiveKind::AllToAll: return (n - 1) / n * inBytes;
    case CollectiveKind::CollectivePermute: return outBytes;
    case CollectiveKind::AllSlice:
    case CollectiveKind::ShardedToUnreduced:
    case CollectiveKind::ReplicatedToUnreduced: return 0;  // local: no device sends
  }
  return 0;
}

int64_t ringSteps(CollectiveKind kind, int64_t groupSize) {
  const int64_t n = groupSize < 1 ? 1 : groupSize;
  switch (kind) {
    case CollectiveKind::AllGather:
    case CollectiveKind::ReduceScatter:
    case CollectiveKind::AllToAll: return n - 1;
    case CollectiveKind::AllReduce: return 2 * (n - 1);
    case CollectiveKind::CollectivePermute: return 1;
    case CollectiveKind::AllSlice:
    case CollectiveKind::ShardedToUnreduced:
    case CollectiveKind::ReplicatedToUnreduced: return 0;
  }
  return 0;
}

double estimateSeconds(CollectiveKind kind, int64_t groupSize, double bytesReceived, const ChipLink& chip) {
  double seconds = static_cast<double>(ringSteps(kind, groupSize)) * chip.stepLatencySeconds;
  if (bytesReceived > 0 && chip.oneWayBytesPerSecond() > 0) seconds += bytesReceived / chip.oneWayBytesPerSecond();
  return seconds;
}

}  // namespace shardscope::comm
