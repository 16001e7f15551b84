#include "sparsecore/csv_ids.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <string_view>
#include <vector>

#include "io/input_file.h"
#include "io/machine_memory.h"
#include "sparsecore/csv_rows.h"
#include "sparsecore/errors.h"

namespace shardscope::sc {

namespace {

// Ids of one feature under construction.
struct Builder {
  int feature = -1;
  bool used = false;
  bool weighted = false;
  bool sorted = true;
  int64_t openSample = -1;  // sample currently receiving ids (sorted path)
  IdBatch batch;
  // Unsorted fallback: (sample, id, weight) triples.
  std::vector<uint64_t> samples;
  std::vector<uint32_t> ids;
  std::vector<float> weights;

  void add(uint64_t sample, uint32_t id, float weight, bool hasWeight) {
    if (hasWeight && !weighted) {
      weighted = true;
      batch.weights.assign(batch.ids.size(), 1.0f);
      weights.assign(ids.size(), 1.0f);
    }
    if (sorted && static_cast<int64_t>(sample) < openSample) toUnsorted();
    if (sorted) {
      while (batch.sampleCount() < sample) batch.rowStarts.push_back(batch.ids.size());
      openSample = static_cast<int64_t>(sample);
      batch.ids.push_back(id);
      if (weighted) batch.weights.push_back(weight);
    } else {
      samples.push_back(sample);
      ids.push_back(id);
      if (weighted) weights.push_back(weight);
    }
  }

  void toUnsorted() {
    sorted = false;
    finishSorted();
    for (size_t s = 0; s < batch.sampleCount(); ++s)
      for (uint64_t k = batch.rowStarts[s]; k < batch.rowStarts[s + 1]; ++k) {
        samples.push_back(s);
        ids.push_back(batch.ids[k]);
        if (weighted) weights.push_back(batch.weights[k]);
      }
    batch = IdBatch{};
  }

  void finishSorted() {
    if (openSample >= 0 && batch.sampleCount() == static_cast<size_t>(openSample))
      batch.rowStarts.push_back(batch.ids.size());
  }

  IdBatch finish() {
    if (sorted) {
      finishSorted();
      return std::move(batch);
    }
    // Counting sort by sample keeps the file order inside a sample.
    uint64_t count = 0;
    for (uint64_t s : samples) count = std::max(count, s + 1);
    IdBatch out;
    out.rowStarts.assign(count + 1, 0);
    for (uint64_t s : samples) ++out.rowStarts[s + 1];
    for (uint64_t i = 0; i < count; ++i) out.rowStarts[i + 1] += out.rowStarts[i];
    out.ids.resize(ids.size());
    if (weighted) out.weights.resize(ids.size());
    std::vector<uint64_t> fill(out.rowStarts.begin(), out.rowStarts.end() - 1);
    for (size_t k = 0; k < ids.size(); ++k) {
      const uint64_t at = fill[samples[k]]++;
      out.ids[at] = ids[k];
      if (weighted) out.weights[at] = weights[k];
    }
    return out;
  }
};

// Bytes the sample table needs per sample while a feature is built (row
// starts, their counts and fill cursors: three 8-byte entries).
constexpr uint64_t kBytesPerSample = 24;

// The largest sample index this machine can hold the sample tables of: half
// its physical memory (at most 2^40 samples).
uint64_t sampleIndexLimit() {
  return std::min<uint64_t>(uint64_t{1} << 40, io::physicalMemoryBytes() / 2 / kBytesPerSample);
}

}  // namespace

void loadIdsCsv(Job& job, std::istream& in, const std::string& source) {
  std::vector<Builder> builders(job.features.size());
  for (size_t f = 0; f < builders.size(); ++f) builders[f].feature = static_cast<int>(f);
  std::string_view lastName;
  std::string lastNameStorage;
  int lastFeature = -1;
  uint64_t lineNo = 0;
  bool first = true;

  auto fail = [&](const std::string& cause) {
    throw InputError(source + ":" + std::to_string(lineNo) + ": " + cause);
  };
  const uint64_t sampleLimit = sampleIndexLimit();
  int64_t vocabSize = 0;  // of the current feature's table (0: unknown, checked later)

  CsvIdRow row;
  auto handleLine = [&](std::string_view line) {
    ++lineNo;
    try {
      const CsvLineKind kind = parseCsvIdLine(line, first, row);
      if (kind == CsvLineKind::Header) first = false;
      if (kind != CsvLineKind::Row) return;
    } catch (const CsvRowError& e) {
      fail(e.cause);
    }
    first = false;
    const uint64_t sample = row.sample;
    // Checked before the sample table grows to it: index 2^31 would take 48 GiB.
    if (job.batchSize > 0 && sample >= static_cast<uint64_t>(job.batchSize))
      fail("sample index " + std::to_string(sample) + " is not below the job's batch_size " +
           std::to_string(job.batchSize));
    if (sample >= sampleLimit)
      fail("sample index " + std::to_string(sample) + " is too large: its sample table would " +
           "need more than half of this machine's memory (at most " +
           std::to_string(sampleLimit) + " samples)");
    if (row.feature != lastName || lastFeature < 0) {
      lastFeature = -1;
      for (size_t f = 0; f < job.features.size(); ++f)
        if (job.features[f].name == row.feature) lastFeature = static_cast<int>(f);
      if (lastFeature < 0)
        fail("unknown feature '" + std::string(row.feature) + "' (not in the job's \"features\")");
      lastNameStorage = std::string(row.feature);
      lastName = lastNameStorage;
      const TableSpec* table = job.table(job.features[lastFeature].table);
      vocabSize = table ? table->vocabSize : 0;
      Builder& b = builders[lastFeature];
      if (!b.used && job.features[lastFeature].ids.sampleCount() > 0)
        fail("feature '" + lastNameStorage + "' already has samples in the job file");
      b.used = true;
    }
    if (vocabSize > 0 && row.id >= static_cast<uint64_t>(vocabSize))
      fail("id " + std::to_string(row.id) + " is outside the vocabulary of table '" +
           job.features[lastFeature].table + "' (vocab_size " + std::to_string(vocabSize) + ")");
    builders[lastFeature].add(sample, static_cast<uint32_t>(row.id), row.weight, row.hasWeight);
  };
  forEachCsvLine(in, size_t{1} << 20, handleLine);

  for (Builder& b : builders)
    if (b.used) job.features[b.feature].ids = b.finish();
}

void loadIdsCsvFile(Job& job, const std::string& path) {
  if (std::string error; !io::checkInputPath(path, error)) throw InputError(error);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open file");
  loadIdsCsv(job, in, path);
}

void writeIdsCsv(const Job& job, std::ostream& out) {
  out << "sample,feature,id\n";
  size_t samples = 0;
  for (const FeatureSpec& f : job.features) samples = std::max(samples, f.ids.sampleCount());
  std::string line;
  for (size_t s = 0; s < samples && out; ++s)
    for (const FeatureSpec& f : job.features) {
      if (s >= f.ids.sampleCount()) continue;
      for (uint32_t id : f.ids.sample(s)) {
        line.clear();
        line += std::to_string(s);
        line += ',';
        line += f.name;
        line += ',';
        line += std::to_string(id);
        line += '\n';
        out << line;
      }
    }
}

}  // namespace shardscope::sc
