// Reading and writing job files (JSON). Field names follow the reference
// (snake_case); see job.h for the meaning of each field.
//
//   {"chip": "v5p" | {"name": "v5p", "tile_spmem_bytes": 262144, ...},
//    "devices": 1, "sparse_cores_per_device": 4, "table_stacking": true,
//    "allow_id_dropping": false, "enable_minibatching": false,
//    "batch_size": 0, "max_ids_per_chip_per_sample": 64, "stack_rotation": 4,
//    "stacked_limits": {"max_ids_per_partition": 256, "max_unique_ids_per_partition": 256},
//    "logical_replica_count": 0, "maximum_parallel_iterations": 1,
//    "spmem_model": {"coo_entry_bytes": 12, "buffering": 2},
//    "csv": "ids.csv",
//    "tables": [{"name", "vocab_size", "width", "max_ids_per_partition",
//                "max_unique_ids_per_partition", "optimizer",
//                "setting_in_stack": {"stack_name", "padded_vocab_size",
//                  "padded_embedding_dim", "row_offset_in_shard", "shard_rotation"}}],
//    "features": [{"name", "table", "samples": [[ids...], ...], "weights": [[...]],
//                  "id_transformation": {"row_offset", "col_offset", "col_shift"}}
//               | {"name", "table", "generator": {"distribution": "zipf",
//                  "exponent": 1.2, "ids_per_sample": 4, "ids_per_sample_max": 0,
//                  "seed": 1, "hot_ids": 0, "hot_fraction": 0, "batch_size": 0}}]}
//
// Errors are InputError "<file>: <field>: <cause>" or, for broken JSON,
// "<file>:<line>:<column>: JSON parse error: <cause>".
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sparsecore/job.h"

namespace shardscope::sc {

// Parses a job from JSON text. `baseDir` resolves a relative "csv" path;
// ids from generators and CSV are filled in, then validateJob runs.
// Unknown keys are reported in `warnings` (they are usually typos).
// `csvOverride`, when not empty, replaces the job's "csv" file. With
// `deferredCsv`, the CSV is not read: its path is stored there (empty when
// the job has none) for a caller that streams it (csv_stream.h).
Job parseJob(std::string_view text, const std::string& source, const std::string& baseDir,
             std::vector<std::string>* warnings = nullptr, const std::string& csvOverride = "",
             std::string* deferredCsv = nullptr);

// Reads and parses a job file.
Job loadJobFile(const std::string& path, std::vector<std::string>* warnings = nullptr,
                const std::string& csvOverride = "", std::string* deferredCsv = nullptr);

// Parses a JSON document, turning parse errors into InputError with
// "<source>:<line>:<column>: JSON parse error: <cause>".
nlohmann::json parseJsonText(std::string_view text, const std::string& source);

// Reads a whole file of at most io::kDefaultMaxInputBytes; InputError
// naming the file when it is missing, a directory, a device or too large.
std::string readTextFile(const std::string& path);

// The job without its ids (the GUI saves a job, the ids live elsewhere).
nlohmann::json jobToJson(const Job& job, bool withSamples);

}  // namespace shardscope::sc
