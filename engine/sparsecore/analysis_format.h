// Text and JSON renderings of an AnalysisReport for `shardscope-sc analyze`.
// JSON keys are the reference's names:
//   {"tables": [{"name": "t", "max_ids_per_partition": [...],
//     "max_unique_ids_per_partition": [...],
//     "required_buffer_per_sparse_core": [...], "dropped_ids": 0,
//     "minibatches": 1, "suggested_limits": {...}, "spmem": {...},
//     "hbm": {...}, "warnings": [...]}], ...}
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "sparsecore/analysis.h"

namespace shardscope::sc {

nlohmann::json analysisToJson(const AnalysisReport& report);
std::string analysisToText(const AnalysisReport& report);

// "1.5 KiB", "32.0 GiB".
std::string formatBytes(int64_t bytes);

}  // namespace shardscope::sc
