#include "sparsecore/csv_stream.h"

#include <algorithm>
#include <exception>
#include <memory>
#include <thread>
#include <fstream>
#include <unordered_map>
#include <vector>

#include "io/input_file.h"
#include "sparsecore/csv_rows.h"
#include "sparsecore/errors.h"
#include "sparsecore/limits.h"
#include "sparsecore/minibatching.h"
#include "sparsecore/source_counts.h"

namespace shardscope::sc {

namespace {

// Samples hold a few ids: insertion sort beats std::sort there.
void sortIds(std::vector<uint32_t>& ids) {
  if (ids.size() > 16) {
    std::sort(ids.begin(), ids.end());
    return;
  }
  for (size_t i = 1; i < ids.size(); ++i) {
    const uint32_t v = ids[i];
    size_t j = i;
    for (; j > 0 && ids[j - 1] > v; --j) ids[j] = ids[j - 1];
    ids[j] = v;
  }
}

// Where a feature's ids go: its stack and member, and its column transform.
struct Route {
  int stack = -1;
  int member = 0;
  uint32_t shift = 0, offset = 0;
  int64_t vocab = 0;
};

// The running counts of one stack for the source SparseCore being read.
struct StackStream {
  int source = 0;
  bool perMember = false;
  SourceCounts counts;
  std::vector<uint64_t> seen;  // one bit per column of the stack
  std::vector<uint32_t> touched;
};

class CsvStreamer {
 public:
  CsvStreamer(const Job& job, std::string source, int64_t batch,
              const std::vector<StackPlan>& stacks, bool atFileStart)
      : job_(job), source_(std::move(source)), stacks_(stacks), first_(atFileStart) {
    n_ = job.totalSparseCores();
    mask_ = static_cast<uint32_t>(n_ - 1);
    buckets_ = job.enableMinibatching;
    perSource_ = samplesPerSparseCore(batch, job);
    batch_ = batch;
    routes_.resize(job.features.size());
    for (size_t s = 0; s < stacks.size(); ++s)
      for (const StackFeature& sf : stacks[s].features) {
        Route& r = routes_[sf.featureIndex];
        r.stack = static_cast<int>(s);
        r.member = sf.memberIndex;
        r.shift = static_cast<uint32_t>(sf.colShift);
        r.offset = static_cast<uint32_t>(sf.colOffset);
        r.vocab = job.table(job.features[sf.featureIndex].table)->vocabSize;
      }
    for (size_t f = 0; f < job.features.size(); ++f) featureIndex_.emplace(job.features[f].name, f);
    counts_.resize(stacks.size() * n_);
    streams_.resize(stacks.size());
    for (size_t s = 0; s < stacks.size(); ++s) {
      const size_t members = stacks[s].members.size();
      for (int g = 0; g < n_; ++g) counts_[s * n_ + g].reset(n_, members, buckets_);
      StackStream& st = streams_[s];
      st.perMember = members > 1;
      st.counts.reset(n_, members, buckets_);
      st.seen.assign(static_cast<size_t>(stacks[s].columnSpace / 64 + 1), 0);
    }
    pending_.resize(job.features.size());
    rawIds_.assign(job.features.size(), 0);
    lastSample_.assign(job.features.size(), -1);
  }

  void line(std::string_view text) {
    ++lineNo_;
    try {
      const CsvLineKind kind = parseCsvIdLine(text, first_, row_);
      if (kind == CsvLineKind::Header) first_ = false;
      if (kind != CsvLineKind::Row) return;
    } catch (const CsvRowError& e) {
      fail(e.cause);
    }
    first_ = false;
    const int64_t sample = static_cast<int64_t>(std::min<uint64_t>(row_.sample, INT64_MAX));
    if (firstSample < 0) firstSample = sample;
    if (sample != openSample_) {
      if (sample < openSample_)
        fail("sample " + std::to_string(sample) + " after sample " + std::to_string(openSample_) +
             ": streaming needs the rows sorted by sample (analyze without --stream to load "
             "unsorted files whole)");
      if (sample >= batch_)
        fail("sample index " + std::to_string(sample) + " is not below the batch of " +
             std::to_string(batch_) + " samples");
      flushSample();
      openSample_ = sample;
    }
    if (lastFeature_ < 0 || !sameName(row_.feature, lastName_)) lookUpFeature();
    const Route& r = routes_[lastFeature_];
    if (row_.id >= static_cast<uint64_t>(r.vocab))
      fail("id " + std::to_string(row_.id) + " is outside the vocabulary of table '" +
           job_.features[lastFeature_].table + "' (vocab_size " + std::to_string(r.vocab) + ")");
    std::vector<uint32_t>& cols = pending_[lastFeature_];
    if (rawIds_[lastFeature_]++ == 0) open_.push_back(lastFeature_);
    if (r.stack >= 0) {
      // The column's bitmap word is needed when the sample is flushed:
      // fetch it now, so the parse of the next lines hides the miss.
      const uint32_t col = stackedColumn(static_cast<uint32_t>(row_.id), r.shift, r.offset, mask_);
      __builtin_prefetch(streams_[r.stack].seen.data() + (col >> 6), 1);
      cols.push_back(col);
    }
    lastSample_[lastFeature_] = sample;
  }

  void finish() {
    flushSample();
    for (size_t s = 0; s < streams_.size(); ++s) closeSource(s);
  }

  int64_t maxIdsPerSample = 0;
  int64_t samplesOverChipLimit = 0;
  StackSourceCounts counts_;
  std::vector<int64_t> lastSample_;  // per feature, -1 when it has no row

 private:
  [[noreturn]] void fail(const std::string& cause) const {
    throw InputError(source_ + ":" + std::to_string(lineNo_) + ": " + cause);
  }

  // Rows cycle through a few features: a scan of the names beats hashing
  // them; a job with many features uses the map.
  void lookUpFeature() {
    lastFeature_ = -1;
    if (job_.features.size() <= 32) {
      for (size_t f = 0; f < job_.features.size(); ++f)
        if (sameName(row_.feature, job_.features[f].name)) lastFeature_ = static_cast<int>(f);
    } else if (auto it = featureIndex_.find(row_.feature); it != featureIndex_.end()) {
      lastFeature_ = static_cast<int>(it->second);
    }
    if (lastFeature_ < 0)
      fail("unknown feature '" + std::string(row_.feature) + "' (not in the job's \"features\")");
    lastName_ = job_.features[lastFeature_].name;
  }

  // Feature names are short: compare the length, then the bytes inline.
  static bool sameName(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i] != b[i]) return false;
    return true;
  }

  // Ends source SparseCore `st.source` of stack s: its counts are final.
  void closeSource(size_t s) {
    StackStream& st = streams_[s];
    for (uint32_t w : st.touched) st.seen[w] = 0;
    st.touched.clear();
    if (!st.perMember) std::copy(st.counts.ids.begin(), st.counts.ids.end(), st.counts.memberIds.begin());
    std::swap(counts_[s * n_ + st.source], st.counts);
    st.counts.reset(n_, stacks_[s].members.size(), buckets_);
  }

  // Counts the open sample: per feature, its ids become columns, repeats
  // inside the sample merge, and each distinct column is counted once for
  // its partition (and once more as unique when the source has not seen it).
  void flushSample() {
    if (openSample_ < 0 || open_.empty()) {
      open_.clear();
      return;
    }
    const int source = static_cast<int>(openSample_ / perSource_);
    int64_t chipIds = 0;
    for (int f : open_) {
      std::vector<uint32_t>& ids = pending_[f];
      const Route& r = routes_[f];
      const int64_t raw = rawIds_[f];
      rawIds_[f] = 0;
      chipIds += raw;
      if (r.stack < 0) {
        ids.clear();
        continue;
      }
      StackStream& st = streams_[r.stack];
      if (st.source != source) {
        closeSource(static_cast<size_t>(r.stack));
        st.source = source;
      }
      SourceCounts& c = st.counts;
      c.inputIds += raw;
      sortIds(ids);
      int distinct = 0;
      for (size_t k = 0; k < ids.size(); ++k) {
        if (k > 0 && ids[k] == ids[k - 1]) continue;
        ++distinct;
        const uint32_t col = ids[k];
        const uint32_t p = col & mask_;
        ++c.ids[p];
        if (st.perMember) ++c.memberIds[size_t(r.member) * n_ + p];
        uint64_t& word = st.seen[col >> 6];
        const uint64_t bit = uint64_t{1} << (col & 63);
        const bool fresh = !(word & bit);
        if (fresh) {
          if (!word) st.touched.push_back(col >> 6);
          word |= bit;
          ++c.unique[p];
        }
        if (buckets_) {
          const size_t cell = size_t(p) * kMinibatchingBuckets + minibatchingBucket(col);
          ++c.bucketIds[cell];
          if (fresh) ++c.bucketUnique[cell];
        }
      }
      c.maxUniquePerSample = std::max(c.maxUniquePerSample, distinct);
      ids.clear();
    }
    open_.clear();
    maxIdsPerSample = std::max(maxIdsPerSample, chipIds);
    if (chipIds > job_.maxIdsPerChipPerSample) ++samplesOverChipLimit;
  }

  const Job& job_;
  std::string source_;
  const std::vector<StackPlan>& stacks_;
  int n_ = 1;
  uint32_t mask_ = 0;
  bool buckets_ = false;
  int64_t perSource_ = 1;
  int64_t batch_ = 0;
  std::vector<Route> routes_;
  std::unordered_map<std::string_view, size_t> featureIndex_;  // views of the job's names
  std::vector<StackStream> streams_;
  std::vector<std::vector<uint32_t>> pending_;  // ids of the open sample, per feature
  std::vector<int> open_;                       // features with ids in the open sample
  std::vector<int64_t> rawIds_;                 // ids of the open sample, per feature
  int64_t openSample_ = -1;
  CsvIdRow row_;
  std::string_view lastName_;
  int lastFeature_ = -1;
  uint64_t lineNo_ = 0;
  bool first_ = true;

 public:
  int64_t firstSample = -1;  // of this streamer's rows, for the order between ranges
  int64_t lastRowSample() const { return openSample_; }
};

}  // namespace

namespace {

void checkStreamable(const Job& job, const std::string& source, int64_t batch) {
  for (const FeatureSpec& f : job.features)
    if (f.ids.sampleCount() > 0)
      throw InputError(source + ": feature '" + f.name +
                       "' already has samples in the job file; streaming reads every feature "
                       "from the CSV");
  if (batch < 1) throw InputError(source + ": no rows to analyze");
}

// What the streamers of a file's ranges found, added up (their sources are
// disjoint, so adding the counts is exact).
struct StreamTotals {
  StackSourceCounts counts;
  std::vector<int64_t> lastSample;
  int64_t maxIdsPerSample = 0;
  int64_t samplesOverChipLimit = 0;

  void add(CsvStreamer& s) {
    if (counts.empty()) {
      counts = std::move(s.counts_);
      lastSample = s.lastSample_;
    } else {
      for (size_t t = 0; t < counts.size(); ++t) {
        SourceCounts& a = counts[t];
        const SourceCounts& b = s.counts_[t];
        auto addInto = [](std::vector<int64_t>& x, const std::vector<int64_t>& y) {
          for (size_t i = 0; i < x.size(); ++i) x[i] += y[i];
        };
        addInto(a.ids, b.ids);
        addInto(a.unique, b.unique);
        addInto(a.bucketIds, b.bucketIds);
        addInto(a.bucketUnique, b.bucketUnique);
        addInto(a.memberIds, b.memberIds);
        a.inputIds += b.inputIds;
        a.maxUniquePerSample = std::max(a.maxUniquePerSample, b.maxUniquePerSample);
      }
      for (size_t f = 0; f < lastSample.size(); ++f)
        lastSample[f] = std::max(lastSample[f], s.lastSample_[f]);
    }
    maxIdsPerSample = std::max(maxIdsPerSample, s.maxIdsPerSample);
    samplesOverChipLimit += s.samplesOverChipLimit;
  }
};

PreprocessResult finishStream(const Job& job, const std::string& source, int64_t batch,
                              std::vector<StackPlan> stacks, StreamTotals& totals) {
  PreprocessResult result;
  result.stacks = std::move(stacks);
  std::vector<int64_t> samplesOfFeature(job.features.size(), batch);
  warnAboutPadding(job, samplesOfFeature, result);
  summarizeCounts(job, samplesOfFeature, totals.counts, result);
  // Dropping keeps a prefix of each over-limit partition's sorted entries;
  // without the entries, count what must go at least: the ids past the
  // limit, and one id per column past the unique limit.
  const std::vector<OverLimitSource> over = checkLimits(job, totals.counts, result);
  for (const OverLimitSource& o : over) {
    const SourceCounts& c = totals.counts[o.task];
    StackStats& st = result.stats[o.task / static_cast<size_t>(job.totalSparseCores())];
    for (size_t p = 0; p < o.partitions.size(); ++p)
      if (o.partitions[p])
        st.droppedIds += std::max<int64_t>(
            {0, c.ids[p] - st.maxIdsLimit, c.unique[p] - st.maxUniqueIdsLimit});
  }
  for (StackStats& st : result.stats)
    if (st.droppedIds > 0)
      st.warnings.push_back("streaming counts dropped ids as a lower bound (" +
                            std::to_string(st.droppedIds) +
                            "); analyze without --stream for the exact count");
  for (size_t f = 0; f < job.features.size(); ++f)
    if (totals.lastSample[f] < 0)
      result.warnings.push_back("feature '" + job.features[f].name + "' has no rows in " + source);
  result.maxIdsPerSample = totals.maxIdsPerSample;
  result.samplesOverChipLimit = totals.samplesOverChipLimit;
  warnAboutChipLimit(job, result);
  return result;
}

std::vector<StackPlan> plannedStacks(const Job& job) {
  std::vector<StackPlan> stacks = planStacks(job);
  checkColumnSpace(stacks);
  return stacks;
}

}  // namespace

PreprocessResult preprocessCsvStream(const Job& job, std::istream& in, const std::string& source,
                                     int64_t batch) {
  checkStreamable(job, source, batch);
  std::vector<StackPlan> stacks = plannedStacks(job);
  CsvStreamer streamer(job, source, batch, stacks, true);
  forEachCsvLine(in, size_t{4} << 20, [&](std::string_view line) { streamer.line(line); });
  if (in.bad()) throw InputError(source + ": read error");
  streamer.finish();
  StreamTotals totals;
  totals.add(streamer);
  return finishStream(job, source, batch, std::move(stacks), totals);
}

int64_t lastCsvSample(const std::string& path) {
  if (std::string error; !io::checkInputPath(path, error)) throw InputError(error);
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw InputError(path + ": cannot open file");
  const std::streamoff size = in.tellg();
  // Walk back in 64 KiB steps until a row parses.
  std::string tail;
  for (std::streamoff back = 65536;; back *= 2) {
    const std::streamoff from = std::max<std::streamoff>(0, size - back);
    in.seekg(from);
    tail.assign(static_cast<size_t>(size - from), '\0');
    in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
    std::string_view text(tail);
    // Lines from the end; the first line of a partial tail may be cut.
    while (!text.empty()) {
      size_t end = text.size();
      while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r')) --end;
      text = text.substr(0, end);
      const size_t nl = text.rfind('\n');
      if (nl == std::string_view::npos && from > 0) break;  // may be cut: read more
      std::string_view line = nl == std::string_view::npos ? text : text.substr(nl + 1);
      CsvIdRow row;
      try {
        if (parseCsvIdLine(line, nl == std::string_view::npos, row) == CsvLineKind::Row)
          return static_cast<int64_t>(std::min<uint64_t>(row.sample, INT64_MAX));
      } catch (const CsvRowError&) {
        // Skipped here: the full pass reports it with its line number.
      }
      text = nl == std::string_view::npos ? std::string_view() : text.substr(0, nl);
    }
    if (from == 0) return -1;
  }
}

namespace {

// Byte offset of the first line whose sample is at least `target` in a
// file sorted by sample, or -1 when it cannot be told (no such line, or
// lines too long to search). Binary search on line starts, then a scan of
// the last 64 KiB.
int64_t lineStartOfSample(std::ifstream& in, uint64_t size, int64_t target) {
  uint64_t lo = 0, hi = size;  // lo is a line start; the answer is in [lo, hi]
  std::string buf;
  auto readAt = [&](uint64_t at, size_t n) {
    in.clear();
    in.seekg(static_cast<std::streamoff>(at));
    buf.resize(n);
    in.read(buf.data(), static_cast<std::streamsize>(n));
    buf.resize(static_cast<size_t>(in.gcount()));
  };
  auto sampleOf = [](std::string_view line, int64_t& sample) {
    CsvIdRow row;
    try {
      if (parseCsvIdLine(line, false, row) != CsvLineKind::Row) return false;
    } catch (const CsvRowError&) {
      return false;
    }
    sample = static_cast<int64_t>(std::min<uint64_t>(row.sample, INT64_MAX));
    return true;
  };
  while (hi - lo > 65536) {
    const uint64_t mid = lo + (hi - lo) / 2;
    readAt(mid, 4096);
    const size_t nl = buf.find('\n');
    const size_t end = nl == std::string::npos ? std::string::npos : buf.find('\n', nl + 1);
    if (end == std::string::npos) return -1;
    const uint64_t start = mid + nl + 1;
    int64_t sample = 0;
    if (!sampleOf(std::string_view(buf).substr(nl + 1, end - nl - 1), sample) || sample < target)
      lo = start;
    else
      hi = start;
  }
  in.clear();
  in.seekg(static_cast<std::streamoff>(lo));
  int64_t found = -1;
  uint64_t pos = lo;
  forEachCsvLine(
      in, size_t{1} << 16,
      [&](std::string_view line) {
        int64_t sample = 0;
        if (found < 0 && sampleOf(line, sample) && sample >= target) found = static_cast<int64_t>(pos);
        pos += line.size() + 1;
      },
      hi - lo + 4096);
  return found;
}

}  // namespace

PreprocessResult preprocessCsvFile(const Job& job, const std::string& path,
                                   uint64_t threadsAbove) {
  int64_t batch = job.batchSize;
  if (batch <= 0) batch = lastCsvSample(path) + 1;
  if (std::string error; !io::checkInputPath(path, error)) throw InputError(error);
  checkStreamable(job, path, batch);
  std::ifstream probe(path, std::ios::binary | std::ios::ate);
  if (!probe) throw InputError(path + ": cannot open file");
  const uint64_t size = static_cast<uint64_t>(probe.tellg());

  // Ranges of whole source SparseCores, one per thread: each range's
  // counters are its own and the sums are exact. Small files take one.
  const int n = job.totalSparseCores();
  const int64_t perSource = samplesPerSparseCore(batch, job);
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = std::min({threads, n, 16});
  if (size < threadsAbove) threads = 1;
  std::vector<uint64_t> bounds = {0};
  for (int k = 1; k < threads; ++k) {
    const int64_t at = lineStartOfSample(probe, size, int64_t{k} * n / threads * perSource);
    if (at < 0 || static_cast<uint64_t>(at) < bounds.back()) break;
    bounds.push_back(static_cast<uint64_t>(at));
  }
  bounds.push_back(size);

  std::vector<StackPlan> stacks = plannedStacks(job);
  const size_t ranges = bounds.size() - 1;
  std::vector<std::unique_ptr<CsvStreamer>> streamers(ranges);
  std::vector<std::exception_ptr> errors(ranges);
  auto run = [&](size_t k) {
    try {
      std::ifstream in(path, std::ios::binary);
      if (!in) throw InputError(path + ": cannot open file");
      in.seekg(static_cast<std::streamoff>(bounds[k]));
      streamers[k] = std::make_unique<CsvStreamer>(job, path, batch, stacks, k == 0);
      CsvStreamer& s = *streamers[k];
      forEachCsvLine(in, size_t{4} << 20, [&](std::string_view line) { s.line(line); },
                     bounds[k + 1] - bounds[k]);
      if (in.bad()) throw InputError(path + ": read error");
      s.finish();
    } catch (...) {
      errors[k] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (size_t k = 1; k < ranges; ++k) pool.emplace_back(run, k);
  run(0);
  for (std::thread& t : pool) t.join();

  // An error, or ranges out of order (an unsorted file): one pass from the
  // start says what and where, with the line number.
  bool ordered = true;
  for (size_t k = 1; k < ranges; ++k)
    ordered = ordered && (!streamers[k] || !streamers[k - 1] || streamers[k]->firstSample < 0 ||
                          streamers[k]->firstSample >= streamers[k - 1]->lastRowSample());
  bool failed = false;
  for (const std::exception_ptr& e : errors) failed = failed || e;
  if (failed || !ordered) {
    if (ranges == 1 && errors[0]) std::rethrow_exception(errors[0]);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path + ": cannot open file");
    return preprocessCsvStream(job, in, path, batch);
  }
  StreamTotals totals;
  for (auto& s : streamers) totals.add(*s);
  return finishStream(job, path, batch, std::move(stacks), totals);
}

}  // namespace shardscope::sc
