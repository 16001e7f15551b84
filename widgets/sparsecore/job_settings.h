// What the SparseCore workspace lets the user edit, as one value: chip
// preset, devices, SparseCores per device, the host switches, the batch
// size, the stacked and per-table limits and widths, and the pipeline stage
// times. Applying settings to the job loaded from the file gives the job
// that is analysed (generated ids are regenerated when the batch changes).
// Example: settingsFromJob(zipf_dropping) has allowIdDropping = true; set
// it to false and applySettings(...) analyses to the reference's error.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sparsecore/job.h"
#include "sparsecore/pipeline.h"

namespace shardscope::scw {

struct TableSettings {
  std::string name;
  int64_t vocabSize = 0;  // shown, not edited
  int width = 0;
  int maxIdsPerPartition = sc::kDefaultMaxIdsPerPartition;
  int maxUniqueIdsPerPartition = sc::kDefaultMaxUniqueIdsPerPartition;
  std::string optimizer = "sgd";  // shown, not edited
  bool operator==(const TableSettings&) const = default;
};

struct JobSettings {
  std::string chip = "v5p";  // a preset name, or the job's own chip name
  int devices = 1;
  int sparseCoresPerDevice = 4;
  bool allowIdDropping = false;
  bool tableStacking = true;
  bool enableMinibatching = false;
  int64_t batchSize = 0;  // 0: as many samples as the input has
  int stackedMaxIdsPerPartition = sc::kDefaultMaxIdsPerPartition;
  int stackedMaxUniqueIdsPerPartition = sc::kDefaultMaxUniqueIdsPerPartition;
  std::vector<TableSettings> tables;
  // Pipeline timeline: stage times (any unit) and the number of batches.
  sc::StageTimes stages{1, 2, 2, 1};
  int batches = 10;
  bool operator==(const JobSettings&) const = default;
};

// The settings a job file describes (stage times stay the defaults).
JobSettings settingsFromJob(const sc::Job& job);

// `base` with `settings` applied, validated (sc::validateJob with `source`).
// A chip name equal to the base chip's keeps its overrides; another name
// takes that preset. Throws sc::InputError for invalid settings.
sc::Job applySettings(const sc::Job& base, const JobSettings& settings, const std::string& source);

}  // namespace shardscope::scw
