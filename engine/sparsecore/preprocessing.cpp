#include "sparsecore/preprocessing.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "sparsecore/errors.h"
#include "sparsecore/limits.h"
#include "sparsecore/source_counts.h"

namespace shardscope::sc {

int64_t StackStats::observedMaxIds() const {
  return maxIdsPerPartition.empty()
             ? 0
             : *std::max_element(maxIdsPerPartition.begin(), maxIdsPerPartition.end());
}
int64_t StackStats::observedMaxUniqueIds() const {
  return maxUniqueIdsPerPartition.empty()
             ? 0
             : *std::max_element(maxUniqueIdsPerPartition.begin(), maxUniqueIdsPerPartition.end());
}

int64_t samplesPerSparseCore(int64_t samples, const Job& job) {
  const int64_t n = job.totalSparseCores();
  const int64_t batch = std::max(samples, job.batchSize);
  return (batch + n - 1) / n;
}

namespace {

constexpr int kBuckets = kMinibatchingBuckets;


struct Task {
  int stack = 0;
  int source = 0;  // global SparseCore index d x cores + c
};

// Per-thread scratch: a bitmap over the stack's column ids marks the
// columns already seen on this SparseCore (1 bit per row keeps a
// 100M-row stack at 12.5 MB); `touched` lists the words to clear.
struct Scratch {
  std::vector<uint64_t> seen;
  std::vector<uint32_t> touched;
  std::vector<uint32_t> sample;
};

void sortSmall(uint32_t* b, size_t n) {
  if (n > 16) {
    std::sort(b, b + n);
    return;
  }
  for (size_t i = 1; i < n; ++i) {
    uint32_t v = b[i];
    size_t j = i;
    while (j > 0 && b[j - 1] > v) {
      b[j] = b[j - 1];
      --j;
    }
    b[j] = v;
  }
}

// The rows of `feature` that source SparseCore `source` owns.
std::pair<size_t, size_t> sliceOf(const IdBatch& ids, int source, const Job& job) {
  const int64_t per = samplesPerSparseCore(static_cast<int64_t>(ids.sampleCount()), job);
  const size_t begin = std::min<size_t>(ids.sampleCount(), static_cast<size_t>(per * source));
  const size_t end = std::min<size_t>(ids.sampleCount(), static_cast<size_t>(per * (source + 1)));
  return {begin, end};
}

// Calls visit(col, memberIndex, sampleKey) for every distinct column of every
// sample of the slice (after the in-sample merge), and raw(count) per sample.
template <class Visit>
void walkSlice(const Job& job, const StackPlan& plan, int source, Scratch& scratch,
               SourceCounts* counts, Visit&& visit) {
  const uint32_t mask = static_cast<uint32_t>(job.totalSparseCores() - 1);
  for (const StackFeature& sf : plan.features) {
    const IdBatch& batch = job.features[sf.featureIndex].ids;
    const uint32_t shift = static_cast<uint32_t>(sf.colShift);
    const uint32_t offset = static_cast<uint32_t>(sf.colOffset);
    auto [begin, end] = sliceOf(batch, source, job);
    const uint32_t* ids = batch.ids.data();
    for (size_t r = begin; r < end; ++r) {
      const uint64_t a = batch.rowStarts[r], b = batch.rowStarts[r + 1];
      const size_t len = b - a;
      // Sample identity across features of a stack: (feature, row).
      const uint64_t sampleKey = (uint64_t(sf.featureIndex) << 40) | r;
      if (counts) counts->inputIds += static_cast<int64_t>(len);
      if (len == 0) continue;
      if (len == 1) {
        visit(stackedColumn(ids[a], shift, offset, mask), sf.memberIndex, sampleKey, 1);
        if (counts) counts->maxUniquePerSample = std::max(counts->maxUniquePerSample, 1);
        continue;
      }
      uint32_t small[8];
      uint32_t* buf = small;
      if (len > 8) {
        scratch.sample.resize(len);
        buf = scratch.sample.data();
      }
      for (size_t k = 0; k < len; ++k) buf[k] = stackedColumn(ids[a + k], shift, offset, mask);
      int distinct = 0;
      if (len <= 8) {
        // Short samples: pairwise checks beat sorting. The first occurrence
        // of a column carries the count of its repeats.
        for (size_t k = 0; k < len; ++k) {
          bool earlier = false;
          for (size_t j = 0; j < k; ++j) earlier |= buf[j] == buf[k];
          if (earlier) continue;
          int64_t repeats = 1;
          for (size_t j = k + 1; j < len; ++j) repeats += buf[j] == buf[k];
          visit(buf[k], sf.memberIndex, sampleKey, repeats);
          ++distinct;
        }
      } else {
        sortSmall(buf, len);
        for (size_t k = 0; k < len;) {
          size_t e = k + 1;
          while (e < len && buf[e] == buf[k]) ++e;
          visit(buf[k], sf.memberIndex, sampleKey, static_cast<int64_t>(e - k));
          ++distinct;
          k = e;
        }
      }
      if (counts) counts->maxUniquePerSample = std::max(counts->maxUniquePerSample, distinct);
    }
  }
}

// The per-id flags are template parameters so the hot loop has no
// loop-invariant branches.
template <bool kWithBuckets, bool kPerMember>
void countInto(const Job& job, const StackPlan& plan, int source, Scratch& scratch, SourceCounts& c) {
  const int n = job.totalSparseCores();
  const uint32_t mask = static_cast<uint32_t>(n - 1);
  uint64_t* seen = scratch.seen.data();
  int64_t* ids = c.ids.data();
  int64_t* unique = c.unique.data();
  int64_t* member = c.memberIds.data();
  int64_t* bucketIds = c.bucketIds.data();
  int64_t* bucketUnique = c.bucketUnique.data();
  walkSlice(job, plan, source, scratch, &c, [&](uint32_t col, int m, uint64_t, int64_t) {
    const uint32_t p = col & mask;
    ++ids[p];
    if constexpr (kPerMember) ++member[size_t(m) * n + p];
    uint64_t& word = seen[col >> 6];
    const uint64_t bit = uint64_t{1} << (col & 63);
    const bool fresh = !(word & bit);
    if (fresh) {
      if (!word) scratch.touched.push_back(col >> 6);
      word |= bit;
      ++unique[p];
    }
    if constexpr (kWithBuckets) {
      const size_t cell = size_t(p) * kBuckets + minibatchingBucket(col);
      ++bucketIds[cell];
      if (fresh) ++bucketUnique[cell];
    }
  });
}

SourceCounts countTask(const Job& job, const StackPlan& plan, int source, Scratch& scratch) {
  const int n = job.totalSparseCores();
  const bool buckets = job.enableMinibatching;
  const bool perMember = plan.members.size() > 1;
  SourceCounts c;
  c.reset(n, plan.members.size(), buckets);
  const size_t words = static_cast<size_t>(plan.columnSpace / 64 + 1);
  if (scratch.seen.size() < words) scratch.seen.assign(words, 0);
  scratch.touched.clear();
  if (buckets) {
    if (perMember)
      countInto<true, true>(job, plan, source, scratch, c);
    else
      countInto<true, false>(job, plan, source, scratch, c);
  } else {
    if (perMember)
      countInto<false, true>(job, plan, source, scratch, c);
    else
      countInto<false, false>(job, plan, source, scratch, c);
  }
  for (uint32_t w : scratch.touched) scratch.seen[w] = 0;
  if (!perMember) std::copy(c.ids.begin(), c.ids.end(), c.memberIds.begin());
  return c;
}

// Open-addressing map from a 64-bit key to a dense index (keys never ~0).
class KeyIndex {
 public:
  explicit KeyIndex(size_t expected) { rehash(std::max<size_t>(64, expected * 2)); }
  // Index of `key`, inserting it with the next free index when absent.
  uint32_t find(uint64_t key, bool insert, bool* inserted = nullptr) {
    size_t i = hash(key) & mask_;
    for (;;) {
      if (keys_[i] == key) return slots_[i];
      if (keys_[i] == kEmpty) {
        if (!insert) return kMissing;
        if (inserted) *inserted = true;
        keys_[i] = key;
        slots_[i] = size_++;
        if (size_ * 2 > keys_.size()) rehash(keys_.size() * 2);
        return size_ - 1;
      }
      i = (i + 1) & mask_;
    }
  }
  static constexpr uint32_t kMissing = ~uint32_t{0};

 private:
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  static size_t hash(uint64_t k) {
    k ^= k >> 33;
    k *= 0xFF51AFD7ED558CCDull;
    k ^= k >> 33;
    return static_cast<size_t>(k);
  }
  void rehash(size_t capacity) {
    std::vector<uint64_t> oldKeys = std::move(keys_);
    std::vector<uint32_t> oldSlots = std::move(slots_);
    keys_.assign(capacity, kEmpty);
    slots_.assign(capacity, 0);
    mask_ = capacity - 1;
    for (size_t i = 0; i < oldKeys.size(); ++i) {
      if (oldKeys[i] == kEmpty) continue;
      size_t j = hash(oldKeys[i]) & mask_;
      while (keys_[j] != kEmpty) j = (j + 1) & mask_;
      keys_[j] = oldKeys[i];
      slots_[j] = oldSlots[i];
    }
  }
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> slots_;
  size_t mask_ = 0;
  uint32_t size_ = 0;
};

// LSD radix sort of 64-bit keys, one pass per byte that varies.
void radixSort(std::vector<uint64_t>& keys, std::vector<uint64_t>& tmp) {
  if (keys.size() < 2) return;
  uint64_t orBits = 0, andBits = ~uint64_t{0};
  for (uint64_t k : keys) {
    orBits |= k;
    andBits &= k;
  }
  const uint64_t varying = orBits ^ andBits;
  tmp.resize(keys.size());
  for (int shift = 0; shift < 64; shift += 8) {
    if (((varying >> shift) & 0xFF) == 0) continue;
    size_t count[257] = {0};
    for (uint64_t k : keys) ++count[((k >> shift) & 0xFF) + 1];
    for (int b = 0; b < 256; ++b) count[b + 1] += count[b];
    for (uint64_t k : keys) tmp[count[(k >> shift) & 0xFF]++] = k;
    keys.swap(tmp);
  }
}

// Dropped ids of one source SparseCore, for its flagged partitions. The
// reference sorts entries by (bucket, column, sample) and drops every entry
// past the ids limit and every entry of a column past the unique limit;
// both counters advance over dropped entries too, so what survives is a
// prefix. Hence per column only its merged and raw counts matter (one
// radix-sorted key per merged entry gives them), except for the one column
// per (partition, bucket) that straddles the ids limit, whose entries are
// ordered by sample in a second walk. A dropped entry counts all its
// in-sample repeats (the reference drops each repeat).
int64_t dropTask(const Job& job, const StackPlan& plan, int source,
                 const std::vector<char>& flagged, bool buckets, Scratch& scratch) {
  const uint32_t mask = static_cast<uint32_t>(job.totalSparseCores() - 1);
  // Sort key: partition, bucket, column; key >> 32 is the (partition,
  // bucket) group.
  auto keyOf = [&](uint32_t col) -> uint64_t {
    const uint64_t p = col & mask;
    const uint64_t bucket = buckets ? minibatchingBucket(col) : 0;
    return (p << 38) | (bucket << 32) | col;
  };
  std::vector<uint64_t> keys;
  std::vector<std::pair<uint64_t, int64_t>> extraRepeats;  // key, repeats - 1
  walkSlice(job, plan, source, scratch, nullptr, [&](uint32_t col, int, uint64_t, int64_t repeats) {
    if (!flagged[col & mask]) return;
    const uint64_t key = keyOf(col);
    keys.push_back(key);
    if (repeats > 1) extraRepeats.push_back({key, repeats - 1});
  });
  std::vector<uint64_t> tmp;
  radixSort(keys, tmp);
  std::sort(extraRepeats.begin(), extraRepeats.end());

  int64_t dropped = 0;
  std::vector<std::pair<uint64_t, int64_t>> straddling;  // key, entries kept
  uint64_t group = ~uint64_t{0};
  int64_t before = 0, rank = 0;
  size_t extra = 0;
  for (size_t i = 0; i < keys.size();) {
    const uint64_t key = keys[i];
    size_t e = i + 1;
    while (e < keys.size() && keys[e] == key) ++e;
    const int64_t merged = static_cast<int64_t>(e - i);
    int64_t raw = merged;
    while (extra < extraRepeats.size() && extraRepeats[extra].first < key) ++extra;
    while (extra < extraRepeats.size() && extraRepeats[extra].first == key)
      raw += extraRepeats[extra++].second;
    if ((key >> 32) != group) {
      group = key >> 32;
      before = rank = 0;
    }
    ++rank;
    if (rank > plan.maxUniqueIdsPerPartition || before >= plan.maxIdsPerPartition)
      dropped += raw;
    else if (before + merged > plan.maxIdsPerPartition)
      straddling.push_back({key, plan.maxIdsPerPartition - before});
    before += merged;
    i = e;
  }
  if (straddling.empty()) return dropped;

  // Few straddling columns: a small hash map stays in cache.
  KeyIndex straddle(straddling.size());
  for (const auto& st : straddling) straddle.find(st.first, true);
  std::vector<std::vector<std::pair<uint64_t, int64_t>>> entries(
      straddling.size());  // sample, repeats
  walkSlice(job, plan, source, scratch, nullptr,
            [&](uint32_t col, int, uint64_t sample, int64_t repeats) {
              if (!flagged[col & mask]) return;
              const uint32_t i = straddle.find(keyOf(col), false);
              if (i != KeyIndex::kMissing) entries[i].push_back({sample, repeats});
            });
  for (size_t i = 0; i < straddling.size(); ++i) {
    std::sort(entries[i].begin(), entries[i].end());
    for (size_t k = static_cast<size_t>(straddling[i].second); k < entries[i].size(); ++k)
      dropped += entries[i][k].second;
  }
  return dropped;
}

template <class Fn>
void runParallel(size_t count, int threads, Fn&& fn) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = static_cast<int>(std::min<size_t>(threads, count));
  std::atomic<size_t> next{0};
  auto worker = [&] {
    Scratch scratch;
    for (size_t i = next++; i < count; i = next++) fn(i, scratch);
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
}

}  // namespace

PreprocessResult preprocess(const Job& job, const PreprocessOptions& options) {
  PreprocessResult result;
  result.stacks = planStacks(job);
  const int n = job.totalSparseCores();
  checkColumnSpace(result.stacks);
  std::vector<int64_t> samplesOfFeature;
  for (const FeatureSpec& f : job.features)
    samplesOfFeature.push_back(static_cast<int64_t>(f.ids.sampleCount()));
  warnAboutPadding(job, samplesOfFeature, result);

  // Phase 1: counts for every (stack, source SparseCore).
  std::vector<Task> tasks;
  for (size_t s = 0; s < result.stacks.size(); ++s)
    for (int g = 0; g < n; ++g) tasks.push_back({static_cast<int>(s), g});
  StackSourceCounts counts(tasks.size());
  runParallel(tasks.size(), options.threads, [&](size_t i, Scratch& scratch) {
    counts[i] = countTask(job, result.stacks[tasks[i].stack], tasks[i].source, scratch);
  });
  summarizeCounts(job, samplesOfFeature, counts, result);

  // Phase 2: drop where allowed. With mini-batching the unit is one
  // bucket; otherwise one (source, partition).
  const bool perBucket = result.minibatchingRequired;
  const std::vector<OverLimitSource> over = checkLimits(job, counts, result);
  std::vector<int64_t> dropped(over.size(), 0);
  runParallel(over.size(), options.threads, [&](size_t i, Scratch& scratch) {
    const Task& t = tasks[over[i].task];
    dropped[i] =
        dropTask(job, result.stacks[t.stack], t.source, over[i].partitions, perBucket, scratch);
  });
  for (size_t i = 0; i < over.size(); ++i)
    result.stats[tasks[over[i].task].stack].droppedIds += dropped[i];

  // max_ids_per_chip_per_sample: a sample's ids over all features.
  size_t batch = 0;
  bool sameBatch = true;
  for (const FeatureSpec& f : job.features) {
    if (batch == 0) batch = f.ids.sampleCount();
    sameBatch &= f.ids.sampleCount() == batch;
  }
  if (sameBatch) {
    std::vector<int64_t> perSample(batch, 0);
    for (const FeatureSpec& f : job.features)
      for (size_t i = 0; i < batch; ++i)
        perSample[i] += static_cast<int64_t>(f.ids.rowStarts[i + 1] - f.ids.rowStarts[i]);
    for (int64_t v : perSample) {
      result.maxIdsPerSample = std::max(result.maxIdsPerSample, v);
      if (v > job.maxIdsPerChipPerSample) ++result.samplesOverChipLimit;
    }
    warnAboutChipLimit(job, result);
  }
  return result;
}

}  // namespace shardscope::sc
