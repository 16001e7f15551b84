// One call from a job to everything the CLI and the GUI show: statistics
// per stacked table, limits suggested from the data, dropped ids or the
// mini-batch count, SPMEM and HBM figures, warnings, and the error (if any)
// that would stop the real run.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "sparsecore/job.h"
#include "sparsecore/limits.h"
#include "sparsecore/memory.h"
#include "sparsecore/preprocessing.h"

namespace shardscope::sc {

// One stacked table (one table when stacking is off or it stands alone).
struct TableReport {
  StackPlan plan;  // members' places and features' id transformations
  StackStats stats;
  StackMemory memory;
  std::vector<TableMemory> memberMemory;  // HBM of each member table
  SuggestedLimits suggested;
  int minibatches = 1;  // shared by all tables
  int paddedWidth = 0;
  std::vector<std::string> warnings;
  bool operator==(const TableReport&) const = default;
};

struct AnalysisReport {
  std::string chip;
  int devices = 0;
  int sparseCoresPerDevice = 0;
  int totalSparseCores = 0;
  bool allowIdDropping = false;
  bool enableMinibatching = false;
  bool minibatchingRequired = false;
  int minibatches = 1;
  std::vector<TableReport> tables;
  MemoryReport memory;
  int64_t maxIdsPerSample = 0;
  std::vector<std::string> warnings;
  // First fatal problem: a limit exceeded without dropping, or an SPMEM
  // allocation that would not compile. The CLI exits 1 when set.
  std::optional<std::string> error;
  bool operator==(const AnalysisReport&) const = default;
};

AnalysisReport analyze(const Job& job, const PreprocessOptions& options = {});

// The same report from preprocessing already done (e.g. streamed from CSV).
AnalysisReport analyzePreprocessed(const Job& job, const PreprocessResult& pre);

}  // namespace shardscope::sc
