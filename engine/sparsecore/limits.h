// Compiled limits versus observed statistics: the reference's messages when
// a limit is exceeded, and limits suggested from the data.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace shardscope::sc {

// "Observed max ids per partition: X for table: T is greater than the set
// max ids per partition: Y. Use `allow_id_dropping` or ..." (fatal in the
// reference when allow_id_dropping is false).
std::string maxIdsExceededMessage(int64_t observed, const std::string& table, int64_t limit);
std::string maxUniqueIdsExceededMessage(int64_t observed, const std::string& table, int64_t limit);

// "Allowing ID dropping for table: T observed max ids per partition: X is
// greater than the set max ids per partition: Y" (a warning).
std::string idDroppingWarning(int64_t observed, const std::string& table, int64_t limit,
                              bool unique);

struct SuggestedLimits {
  int64_t maxIdsPerPartition = 0;
  int64_t maxUniqueIdsPerPartition = 0;
  bool operator==(const SuggestedLimits&) const = default;
};

// The smallest limits that process the observed batch without dropping or
// mini-batching: the maxima over partitions, rounded up to the 8-entry
// alignment the SPMEM buffers use anyway (and at least 8).
SuggestedLimits suggestLimits(const std::vector<int64_t>& maxIdsPerPartition,
                              const std::vector<int64_t>& maxUniqueIdsPerPartition);

}  // namespace shardscope::sc
