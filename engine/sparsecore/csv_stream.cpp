#include "sparsecore/csv_stream.h"

#include <algorithm>
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
  CsvStreamer(const Job& job, std::string source, int64_t batch, PreprocessResult& result)
      : job_(job), source_(std::move(source)), result_(result) {
    n_ = job.totalSparseCores();
    mask_ = static_cast<uint32_t>(n_ - 1);
    buckets_ = job.enableMinibatching;
    perSource_ = samplesPerSparseCore(batch, job);
    batch_ = batch;
    routes_.resize(job.features.size());
    for (size_t s = 0; s < result.stacks.size(); ++s)
      for (const StackFeature& sf : result.stacks[s].features) {
        Route& r = routes_[sf.featureIndex];
        r.stack = static_cast<int>(s);
        r.member = sf.memberIndex;
        r.shift = static_cast<uint32_t>(sf.colShift);
        r.offset = static_cast<uint32_t>(sf.colOffset);
        r.vocab = job.table(job.features[sf.featureIndex].table)->vocabSize;
      }
    for (size_t f = 0; f < job.features.size(); ++f) featureIndex_.emplace(job.features[f].name, f);
    counts_.resize(result.stacks.size() * n_);
    streams_.resize(result.stacks.size());
    for (size_t s = 0; s < result.stacks.size(); ++s) {
      const size_t members = result.stacks[s].members.size();
      for (int g = 0; g < n_; ++g) counts_[s * n_ + g].reset(n_, members, buckets_);
      StackStream& st = streams_[s];
      st.perMember = members > 1;
      st.counts.reset(n_, members, buckets_);
      st.seen.assign(static_cast<size_t>(result.stacks[s].columnSpace / 64 + 1), 0);
    }
    pending_.resize(job.features.size());
    lastSample_.assign(job.features.size(), -1);
  }

  void line(std::string_view text) {
    ++lineNo_;
    try {
      if (parseCsvIdLine(text, first_, row_) == CsvLineKind::Skip) {
        if (first_ && isHeaderOrRow(text)) first_ = false;
        return;
      }
    } catch (const CsvRowError& e) {
      fail(e.cause);
    }
    first_ = false;
    const int64_t sample = static_cast<int64_t>(std::min<uint64_t>(row_.sample, INT64_MAX));
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
    if (row_.feature != lastName_ || lastFeature_ < 0) {
      auto it = featureIndex_.find(std::string(row_.feature));
      if (it == featureIndex_.end())
        fail("unknown feature '" + std::string(row_.feature) + "' (not in the job's \"features\")");
      lastFeature_ = static_cast<int>(it->second);
      lastName_ = it->first;
    }
    const Route& r = routes_[lastFeature_];
    if (row_.id >= static_cast<uint64_t>(r.vocab))
      fail("id " + std::to_string(row_.id) + " is outside the vocabulary of table '" +
           job_.features[lastFeature_].table + "' (vocab_size " + std::to_string(r.vocab) + ")");
    std::vector<uint32_t>& ids = pending_[lastFeature_];
    if (ids.empty()) open_.push_back(lastFeature_);
    ids.push_back(static_cast<uint32_t>(row_.id));
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

  static bool isHeaderOrRow(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    return !text.empty() && text.front() != '#' && text.front() != '\r';
  }

  // Ends source SparseCore `st.source` of stack s: its counts are final.
  void closeSource(size_t s) {
    StackStream& st = streams_[s];
    for (uint32_t w : st.touched) st.seen[w] = 0;
    st.touched.clear();
    if (!st.perMember) std::copy(st.counts.ids.begin(), st.counts.ids.end(), st.counts.memberIds.begin());
    std::swap(counts_[s * n_ + st.source], st.counts);
    st.counts.reset(n_, result_.stacks[s].members.size(), buckets_);
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
      chipIds += static_cast<int64_t>(ids.size());
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
      c.inputIds += static_cast<int64_t>(ids.size());
      for (uint32_t& id : ids) id = stackedColumn(id, r.shift, r.offset, mask_);
      std::sort(ids.begin(), ids.end());
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
  PreprocessResult& result_;
  int n_ = 1;
  uint32_t mask_ = 0;
  bool buckets_ = false;
  int64_t perSource_ = 1;
  int64_t batch_ = 0;
  std::vector<Route> routes_;
  std::unordered_map<std::string, size_t> featureIndex_;
  std::vector<StackStream> streams_;
  std::vector<std::vector<uint32_t>> pending_;  // ids of the open sample, per feature
  std::vector<int> open_;                       // features with ids in the open sample
  int64_t openSample_ = -1;
  CsvIdRow row_;
  std::string_view lastName_;
  int lastFeature_ = -1;
  uint64_t lineNo_ = 0;
  bool first_ = true;
};

}  // namespace

PreprocessResult preprocessCsvStream(const Job& job, std::istream& in, const std::string& source,
                                     int64_t batch) {
  for (const FeatureSpec& f : job.features)
    if (f.ids.sampleCount() > 0)
      throw InputError(source + ": feature '" + f.name +
                       "' already has samples in the job file; streaming reads every feature "
                       "from the CSV");
  if (batch < 1) throw InputError(source + ": no rows to analyze");
  PreprocessResult result;
  result.stacks = planStacks(job);
  checkColumnSpace(result.stacks);
  std::vector<int64_t> samplesOfFeature(job.features.size(), batch);
  warnAboutPadding(job, samplesOfFeature, result);

  CsvStreamer streamer(job, source, batch, result);
  forEachCsvLine(in, size_t{4} << 20, [&](std::string_view line) { streamer.line(line); });
  if (in.bad()) throw InputError(source + ": read error");
  streamer.finish();

  summarizeCounts(job, samplesOfFeature, streamer.counts_, result);
  // Dropping keeps a prefix of each over-limit partition's sorted entries;
  // without the entries, count what must go at least: the ids past the
  // limit, and one id per column past the unique limit.
  const std::vector<OverLimitSource> over = checkLimits(job, streamer.counts_, result);
  for (const OverLimitSource& o : over) {
    const SourceCounts& c = streamer.counts_[o.task];
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
    if (streamer.lastSample_[f] < 0)
      result.warnings.push_back("feature '" + job.features[f].name + "' has no rows in " + source);
  result.maxIdsPerSample = streamer.maxIdsPerSample;
  result.samplesOverChipLimit = streamer.samplesOverChipLimit;
  if (result.samplesOverChipLimit > 0)
    result.warnings.push_back(
        std::to_string(result.samplesOverChipLimit) +
        " samples look up more ids over all features than max_ids_per_chip_per_sample (" +
        std::to_string(job.maxIdsPerChipPerSample) + "); the largest has " +
        std::to_string(result.maxIdsPerSample));
  return result;
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

PreprocessResult preprocessCsvFile(const Job& job, const std::string& path) {
  int64_t batch = job.batchSize;
  if (batch <= 0) batch = lastCsvSample(path) + 1;
  if (std::string error; !io::checkInputPath(path, error)) throw InputError(error);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open file");
  return preprocessCsvStream(job, in, path, batch);
}

}  // namespace shardscope::sc
