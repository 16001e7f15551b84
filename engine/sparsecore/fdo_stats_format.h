// Text and JSON reports of FDO statistics files (`shardscope-sc stats`).
//
// Text, one block per stacked table:
//   table user_item: 6 batches x 8 partitions
//     max ids per partition         40  (batch 1, partition 5)   per batch: 15 40 15 14 14 15
//     ...
//     set, as update_preprocessing_parameters does:
//       max_ids_per_partition=40 max_unique_ids_per_partition=37 suggested_coo_buffer_size_per_device=240
//     or:  max_ids_per_partition=15 (p50): >= 25 ids over it, in 1 of 6 batches
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "sparsecore/fdo_stats.h"

namespace shardscope::sc {

struct FdoStatsReport {
  std::vector<std::string> files;        // what was read, in order
  std::vector<TableStats> history;       // mergeHistories of the files
  std::vector<LimitSuggestion> suggestions;
  int64_t scPerDevice = 0;               // 0: from the recorded buffer sizes
};

// Reads `inputs` (files, or folders holding the reference's file names,
// whose newest file per process is taken) and suggests limits.
FdoStatsReport loadFdoStatsReport(const std::vector<std::string>& inputs, int64_t scPerDevice);

std::string fdoStatsToText(const FdoStatsReport& report);
nlohmann::json fdoStatsToJson(const FdoStatsReport& report);

}  // namespace shardscope::sc
