#include "sparsecore/analysis.h"

namespace shardscope::sc {

AnalysisReport analyze(const Job& job, const PreprocessOptions& options) {
  return analyzePreprocessed(job, preprocess(job, options));
}

AnalysisReport analyzePreprocessed(const Job& job, const PreprocessResult& pre) {
  MemoryReport mem = estimateMemory(job, pre);

  AnalysisReport r;
  r.chip = job.chip.name;
  r.devices = job.devices;
  r.sparseCoresPerDevice = job.sparseCoresPerDevice;
  r.totalSparseCores = job.totalSparseCores();
  r.allowIdDropping = job.allowIdDropping;
  r.enableMinibatching = job.enableMinibatching;
  r.minibatchingRequired = pre.minibatchingRequired;
  r.minibatches = pre.minibatches;
  r.maxIdsPerSample = pre.maxIdsPerSample;
  r.warnings = pre.warnings;
  r.error = pre.limitError;
  for (size_t s = 0; s < pre.stats.size(); ++s) {
    TableReport t;
    t.plan = pre.stacks[s];
    t.stats = pre.stats[s];
    t.memory = mem.stacks[s];
    t.paddedWidth = pre.stacks[s].paddedWidth;
    for (const StackMember& m : pre.stacks[s].members)
      t.memberMemory.push_back(mem.tables[m.tableIndex]);
    t.suggested = suggestLimits(t.stats.maxIdsPerPartition, t.stats.maxUniqueIdsPerPartition);
    t.minibatches = pre.minibatches;
    t.warnings = t.stats.warnings;
    if (t.memory.spmem.error) {
      t.warnings.push_back(*t.memory.spmem.error);
      if (!r.error) r.error = t.memory.spmem.error;
    }
    if (t.suggested.maxIdsPerPartition < t.stats.maxIdsLimit / 4 &&
        t.suggested.maxUniqueIdsPerPartition < t.stats.maxUniqueIdsLimit / 4)
      t.warnings.push_back(
          "limits are over 4x the observed maxima; lower limits shrink SPMEM buffers and the HBM "
          "stack");
    r.tables.push_back(std::move(t));
  }
  for (const std::string& w : mem.warnings) r.warnings.push_back(w);
  r.memory = std::move(mem);
  return r;
}

}  // namespace shardscope::sc
