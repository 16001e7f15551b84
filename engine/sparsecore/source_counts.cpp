#include "sparsecore/source_counts.h"

#include <algorithm>
#include <span>

#include "sparsecore/errors.h"
#include "sparsecore/limits.h"
#include "sparsecore/minibatching.h"

namespace shardscope::sc {

namespace {
constexpr int kBuckets = kMinibatchingBuckets;
}

void SourceCounts::reset(int n, size_t members, bool buckets) {
  ids.assign(n, 0);
  unique.assign(n, 0);
  memberIds.assign(members * n, 0);
  bucketIds.assign(buckets ? size_t(n) * kBuckets : 0, 0);
  bucketUnique.assign(buckets ? size_t(n) * kBuckets : 0, 0);
  inputIds = 0;
  maxUniquePerSample = 0;
}

void checkColumnSpace(const std::vector<StackPlan>& stacks) {
  for (const StackPlan& plan : stacks)
    if (plan.columnSpace > (int64_t{1} << 31) - 1)
      throw InputError("stack '" + plan.name + "': padded stacked vocabulary " +
                       std::to_string(plan.columnSpace) +
                       " does not fit 32-bit column ids; disable table_stacking or shrink tables");
}

void warnAboutPadding(const Job& job, const std::vector<int64_t>& samplesOfFeature,
                      PreprocessResult& result) {
  const int n = job.totalSparseCores();
  for (size_t f = 0; f < job.features.size(); ++f) {
    const int64_t samples = samplesOfFeature[f];
    const int64_t padded = samplesPerSparseCore(samples, job) * n;
    if (padded != samples)
      result.warnings.push_back("feature '" + job.features[f].name + "': batch of " +
                                std::to_string(samples) + " samples padded with empty samples to " +
                                std::to_string(padded) + " (a multiple of " + std::to_string(n) +
                                " SparseCores)");
  }
}

void warnAboutChipLimit(const Job& job, PreprocessResult& result) {
  if (result.samplesOverChipLimit > 0)
    result.warnings.push_back(
        std::to_string(result.samplesOverChipLimit) +
        " samples look up more ids over all features than max_ids_per_chip_per_sample (" +
        std::to_string(job.maxIdsPerChipPerSample) + "); the largest has " +
        std::to_string(result.maxIdsPerSample));
}

void summarizeCounts(const Job& job, const std::vector<int64_t>& samplesOfFeature,
                     const StackSourceCounts& counts, PreprocessResult& result) {
  const int n = job.totalSparseCores();
  const int cores = job.sparseCoresPerDevice;
  for (size_t s = 0; s < result.stacks.size(); ++s) {
    const StackPlan& plan = result.stacks[s];
    StackStats st;
    st.name = plan.name;
    for (const StackMember& m : plan.members) st.tables.push_back(job.tables[m.tableIndex].name);
    st.partitions = n;
    st.sparseCoresPerDevice = cores;
    st.maxIdsLimit = plan.maxIdsPerPartition;
    st.maxUniqueIdsLimit = plan.maxUniqueIdsPerPartition;
    st.idsPerSourcePartition.assign(size_t(n) * n, 0);
    st.uniqueIdsPerSourcePartition.assign(size_t(n) * n, 0);
    st.maxIdsPerPartition.assign(n, 0);
    st.maxUniqueIdsPerPartition.assign(n, 0);
    st.requiredBufferPerSparseCore.assign(cores, 0);
    st.memberIdsPerPartition.assign(plan.members.size(), std::vector<int64_t>(n, 0));
    st.warnings = plan.warnings;
    for (const StackFeature& sf : plan.features)
      st.samplesPerSparseCore += samplesPerSparseCore(samplesOfFeature[sf.featureIndex], job);
    for (int g = 0; g < n; ++g) {
      const SourceCounts& c = counts[s * n + g];
      int64_t buffer = 0;
      for (int p = 0; p < n; ++p) {
        st.idsPerSourcePartition[size_t(g) * n + p] = c.ids[p];
        st.uniqueIdsPerSourcePartition[size_t(g) * n + p] = c.unique[p];
        st.maxIdsPerPartition[p] = std::max(st.maxIdsPerPartition[p], c.ids[p]);
        st.maxUniqueIdsPerPartition[p] = std::max(st.maxUniqueIdsPerPartition[p], c.unique[p]);
        buffer += roundUp(c.ids[p], 8);
        st.idsAfterMerge += c.ids[p];
        for (size_t m = 0; m < plan.members.size(); ++m)
          st.memberIdsPerPartition[m][p] += c.memberIds[m * n + p];
      }
      st.requiredBufferPerSparseCore[g % cores] =
          std::max(st.requiredBufferPerSparseCore[g % cores], buffer);
      st.inputIds += c.inputIds;
      st.maxUniqueIdsPerSample = std::max(st.maxUniqueIdsPerSample, c.maxUniquePerSample);
      if (job.enableMinibatching) {
        for (int64_t v : c.bucketIds) st.maxIdsPerBucket = std::max(st.maxIdsPerBucket, v);
        for (int64_t v : c.bucketUnique)
          st.maxUniqueIdsPerBucket = std::max(st.maxUniqueIdsPerBucket, v);
      }
    }
    result.stats.push_back(std::move(st));
  }

  // Mini-batching is needed when any partition of any stack is over a limit;
  // the split is then shared by all stacks.
  auto overLimit = [&](const StackStats& st) {
    return st.observedMaxIds() > st.maxIdsLimit || st.observedMaxUniqueIds() > st.maxUniqueIdsLimit;
  };
  if (!job.enableMinibatching) return;
  for (const StackStats& st : result.stats) result.minibatchingRequired |= overLimit(st);
  if (!result.minibatchingRequired) return;
  for (size_t s = 0; s < result.stats.size(); ++s) {
    StackStats& st = result.stats[s];
    for (int g = 0; g < n; ++g) {
      const SourceCounts& c = counts[s * n + g];
      for (int p = 0; p < n; ++p) {
        std::span<const int64_t> ids(c.bucketIds.data() + size_t(p) * kBuckets, kBuckets);
        std::span<const int64_t> uniq(c.bucketUnique.data() + size_t(p) * kBuckets, kBuckets);
        st.split |= minibatchingSplit(ids, st.maxIdsLimit);
        st.split |= minibatchingSplit(uniq, st.maxUniqueIdsLimit);
      }
    }
    result.split |= st.split;
  }
  result.minibatches = minibatchCount(result.split);
}

std::vector<OverLimitSource> checkLimits(const Job& job, const StackSourceCounts& counts,
                                         PreprocessResult& result) {
  const int n = job.totalSparseCores();
  const bool perBucket = result.minibatchingRequired;
  std::vector<OverLimitSource> over;
  for (size_t s = 0; s < result.stats.size(); ++s) {
    StackStats& st = result.stats[s];
    const int64_t obsIds = perBucket ? st.maxIdsPerBucket : st.observedMaxIds();
    const int64_t obsUnique = perBucket ? st.maxUniqueIdsPerBucket : st.observedMaxUniqueIds();
    const bool idsOver = obsIds > st.maxIdsLimit;
    const bool uniqueOver = obsUnique > st.maxUniqueIdsLimit;
    if (!idsOver && !uniqueOver) continue;
    if (!job.allowIdDropping) {
      if (!result.limitError)
        result.limitError =
            idsOver ? maxIdsExceededMessage(obsIds, st.name, st.maxIdsLimit)
                    : maxUniqueIdsExceededMessage(obsUnique, st.name, st.maxUniqueIdsLimit);
      continue;
    }
    if (idsOver) st.warnings.push_back(idDroppingWarning(obsIds, st.name, st.maxIdsLimit, false));
    if (uniqueOver)
      st.warnings.push_back(idDroppingWarning(obsUnique, st.name, st.maxUniqueIdsLimit, true));
    for (int g = 0; g < n; ++g) {
      const size_t t = s * n + g;
      const SourceCounts& c = counts[t];
      std::vector<char> flags(n, 0);
      bool any = false;
      for (int p = 0; p < n; ++p) {
        bool isOver = false;
        if (perBucket) {
          for (int b = 0; b < kBuckets; ++b)
            isOver |= c.bucketIds[size_t(p) * kBuckets + b] > st.maxIdsLimit ||
                      c.bucketUnique[size_t(p) * kBuckets + b] > st.maxUniqueIdsLimit;
        } else {
          isOver = c.ids[p] > st.maxIdsLimit || c.unique[p] > st.maxUniqueIdsLimit;
        }
        flags[p] = isOver;
        any |= isOver;
      }
      if (any) over.push_back({t, std::move(flags)});
    }
  }
  return over;
}

}  // namespace shardscope::sc
