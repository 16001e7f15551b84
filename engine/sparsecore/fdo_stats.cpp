#include "sparsecore/fdo_stats.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include "io/input_file.h"
#include "sparsecore/errors.h"
#include "sparsecore/npz_file.h"

namespace shardscope::sc {

namespace fs = std::filesystem;

const char* statSuffix(StatKind kind) {
  switch (kind) {
    case StatKind::MaxIds: return "_max_ids";
    case StatKind::MaxUniqueIds: return "_max_unique_ids";
    case StatKind::RequiredBufferSize: return "_required_buffer_size";
    case StatKind::IdDropCounters: return "_id_drop_counters";
  }
  return "";
}

const char* statTitle(StatKind kind) {
  switch (kind) {
    case StatKind::MaxIds: return "max ids per partition";
    case StatKind::MaxUniqueIds: return "max unique ids per partition";
    case StatKind::RequiredBufferSize: return "required COO buffer per SparseCore";
    case StatKind::IdDropCounters: return "dropped ids";
  }
  return "";
}

std::optional<std::pair<std::string, StatKind>> splitStatKey(std::string_view key) {
  for (StatKind k : kStatKinds) {
    std::string_view suffix = statSuffix(k);
    if (key.size() > suffix.size() && key.substr(key.size() - suffix.size()) == suffix)
      return std::pair{std::string(key.substr(0, key.size() - suffix.size())), k};
  }
  return std::nullopt;
}

int64_t StatMatrix::max() const {
  return values.empty() ? 0 : *std::max_element(values.begin(), values.end());
}

std::vector<int64_t> StatMatrix::rowMaxima() const {
  std::vector<int64_t> out;
  out.reserve(rows());
  for (size_t r = 0; r < rows(); ++r)
    out.push_back(*std::max_element(values.begin() + static_cast<std::ptrdiff_t>(r * cols),
                                    values.begin() + static_cast<std::ptrdiff_t>((r + 1) * cols)));
  return out;
}

namespace {

// The table entry for `name`, added in first-seen order.
TableStats& tableNamed(std::vector<TableStats>& tables, const std::string& name) {
  for (TableStats& t : tables)
    if (t.table == name) return t;
  tables.push_back({name, {}});
  return tables.back();
}

std::string expectedSuffixes() {
  std::string out;
  for (StatKind k : kStatKinds) out += std::string(out.empty() ? "" : ", ") + statSuffix(k);
  return out;
}

void addSeries(FdoStatsFile& file, const std::string& key, StatMatrix m, const std::string& where) {
  auto split = splitStatKey(key);
  if (!split) throw InputError(where + ": unexpected key '" + key + "', expected one ending with " + expectedSuffixes());
  std::optional<StatMatrix>& slot = tableNamed(file.tables, split->first).of(split->second);
  if (slot) throw InputError(where + ": key '" + key + "' appears twice");
  slot = std::move(m);
}

FdoStatsFile readNpzStats(const std::string& path) {
  FdoStatsFile file{path, {}};
  for (NpzEntry& e : readNpzFile(path)) {
    const std::string where = path + ": entry '" + e.name + ".npy'";
    StatMatrix m;
    if (e.array.shape.size() > 2)
      throw InputError(where + ": " + std::to_string(e.array.shape.size()) +
                       " dimensions; statistics are one row per batch (at most 2)");
    if (e.array.shape.empty()) {
      m.cols = 1;
    } else {
      m.cols = static_cast<size_t>(e.array.shape.back());
    }
    m.values = std::move(e.array.values);
    if (m.cols == 0 && !m.values.empty()) throw InputError(where + ": empty rows");
    addSeries(file, e.name, std::move(m), where);
  }
  if (file.tables.empty()) throw InputError(path + ": no statistics in the file");
  return file;
}

int64_t parseCount(std::string_view text, const std::string& where) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size())
    throw InputError(where + ": '" + std::string(text) + "' is not an integer count");
  return v;
}

FdoStatsFile readCsvStats(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open file");
  FdoStatsFile file{path, {}};
  std::map<std::string, StatMatrix> byKey;
  std::vector<std::string> order;
  std::string line;
  size_t lineNo = 0;
  bool header = true;
  while (std::getline(in, line)) {
    ++lineNo;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (lineNo == 1 && line.size() >= 3 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);
    if (line.empty()) continue;
    const std::string where = path + ":" + std::to_string(lineNo);
    if (line.size() > (size_t{64} << 20)) throw InputError(where + ": line longer than 64 MiB");
    if (header) {
      header = false;
      if (line != "key,values") throw InputError(where + ": expected the header 'key,values'");
      continue;
    }
    size_t comma = line.find(',');
    if (comma == std::string::npos) throw InputError(where + ": expected 'key,values'");
    std::string key = line.substr(0, comma);
    std::string_view vals = std::string_view(line).substr(comma + 1);
    if (vals.size() >= 2 && vals.front() == '"' && vals.back() == '"') vals = vals.substr(1, vals.size() - 2);
    if (!splitStatKey(key))
      throw InputError(where + ": unexpected key '" + key + "', expected one ending with " + expectedSuffixes());
    std::vector<int64_t> row;
    size_t i = 0;
    while (i < vals.size()) {
      while (i < vals.size() && vals[i] == ' ') ++i;
      size_t j = i;
      while (j < vals.size() && vals[j] != ' ') ++j;
      if (j > i) row.push_back(parseCount(vals.substr(i, j - i), where));
      i = j;
    }
    if (row.empty()) throw InputError(where + ": key '" + key + "' has no values");
    auto [it, fresh] = byKey.try_emplace(key);
    if (fresh) {
      order.push_back(key);
      it->second.cols = row.size();
    } else if (it->second.cols != row.size()) {
      throw InputError(where + ": key '" + key + "' has " + std::to_string(row.size()) + " values here but " +
                       std::to_string(it->second.cols) + " on its earlier rows");
    }
    it->second.values.insert(it->second.values.end(), row.begin(), row.end());
  }
  if (in.bad()) throw InputError(path + ": read error");
  if (header) throw InputError(path + ": empty file (expected the header 'key,values')");
  for (const std::string& key : order) addSeries(file, key, std::move(byKey[key]), path);
  if (file.tables.empty()) throw InputError(path + ": no statistics in the file");
  return file;
}

// Element-wise maximum of `b` into `a`, both 1-row or equal widths.
void maxInto(std::vector<int64_t>& acc, const int64_t* row, size_t n) {
  for (size_t c = 0; c < n; ++c) acc[c] = std::max(acc[c], row[c]);
}

}  // namespace

FdoStatsFile readFdoStatsFile(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(path + ": is a directory, not a statistics file");
  if (std::string error; !io::checkInputPath(path, error)) throw InputError(error);  // a device
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open file");
  char magic[2] = {0, 0};
  in.read(magic, 2);
  in.close();
  if (magic[0] == 'P' && magic[1] == 'K') return readNpzStats(path);
  if (path.size() > 4 && path.compare(path.size() - 4, 4, ".npz") == 0) return readNpzStats(path);  // libzip names the damage
  return readCsvStats(path);
}

std::vector<std::string> latestStatsFilesPerProcess(const std::vector<std::string>& files) {
  static const std::regex pattern(R"(fdo_stats_(\d+)_(\d+)\.(npz|csv)$)");
  struct Entry {
    std::string process;
    int64_t timestamp;
    std::string file;
  };
  std::vector<Entry> entries;
  for (const std::string& f : files) {
    std::string name = fs::path(f).filename().string();
    std::smatch m;
    if (!std::regex_search(name, m, pattern)) continue;
    int64_t ts = 0;
    std::string digits = m[2].str();
    auto [end, err] = std::from_chars(digits.data(), digits.data() + digits.size(), ts);
    if (err != std::errc()) continue;  // a timestamp past int64: not a file the client wrote
    entries.push_back({m[1].str(), ts, f});
  }
  // Newest first within a process; processes in descending text order (the
  // reference sorts (process, timestamp, name) tuples in reverse).
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.process != b.process) return a.process > b.process;
    if (a.timestamp != b.timestamp) return a.timestamp > b.timestamp;
    return a.file > b.file;
  });
  std::vector<std::string> out;
  for (size_t i = 0; i < entries.size(); ++i)
    if (i == 0 || entries[i].process != entries[i - 1].process) out.push_back(entries[i].file);
  return out;
}

std::vector<std::string> latestStatsFilesPerProcess(const std::string& directory) {
  std::error_code ec;
  std::vector<std::string> files;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec)) files.push_back(it->path().string());
  if (ec) throw InputError(directory + ": cannot list the folder: " + ec.message());
  std::vector<std::string> out = latestStatsFilesPerProcess(files);
  if (out.empty())
    throw InputError(directory + ": no statistics files (fdo_stats_<process>_<time>.npz or .csv) in the folder");
  return out;
}

namespace {

// Walks every series of every file into `out` by table and statistic: the
// first file's series is copied, later ones are folded in by `combine`
// (same column count required, as the reference's vstack requires).
template <typename Combine>
std::vector<TableStats> foldFiles(const std::vector<FdoStatsFile>& files, Combine combine) {
  std::vector<TableStats> out;
  for (const FdoStatsFile& file : files)
    for (const TableStats& t : file.tables)
      for (StatKind k : kStatKinds) {
        const std::optional<StatMatrix>& src = t.of(k);
        if (!src) continue;
        std::optional<StatMatrix>& dst = tableNamed(out, t.table).of(k);
        if (!dst) {
          dst = *src;
          continue;
        }
        if (dst->cols != src->cols)
          throw InputError(file.path + ": '" + t.table + statSuffix(k) + "' has " + std::to_string(src->cols) +
                           " columns, other files have " + std::to_string(dst->cols));
        combine(*dst, *src);
      }
  return out;
}

}  // namespace

std::vector<TableStats> loadFdoStats(const std::vector<FdoStatsFile>& files) {
  return foldFiles(files, [](StatMatrix& dst, const StatMatrix& src) {
    // The element-wise maximum over all rows of both: one row.
    std::vector<int64_t> acc(dst.values.begin(), dst.values.begin() + static_cast<std::ptrdiff_t>(dst.cols));
    for (size_t r = 1; r < dst.rows(); ++r) maxInto(acc, &dst.values[r * dst.cols], dst.cols);
    for (size_t r = 0; r < src.rows(); ++r) maxInto(acc, &src.values[r * src.cols], src.cols);
    dst.values = std::move(acc);
  });
}

std::vector<TableStats> mergeHistories(const std::vector<FdoStatsFile>& files) {
  return foldFiles(files, [](StatMatrix& dst, const StatMatrix& src) {
    // Row b: the element-wise maximum of row b of each file that has it.
    for (size_t r = 0; r < src.rows(); ++r) {
      if (r < dst.rows()) {
        for (size_t c = 0; c < src.cols; ++c)
          dst.values[r * dst.cols + c] = std::max(dst.values[r * dst.cols + c], src.at(r, c));
      } else {
        dst.values.insert(dst.values.end(), src.values.begin() + static_cast<std::ptrdiff_t>(r * src.cols),
                          src.values.begin() + static_cast<std::ptrdiff_t>((r + 1) * src.cols));
      }
    }
  });
}

StatMatrix maximaOverBatches(const std::vector<TableStats>& history, StatKind kind,
                             std::vector<std::string>* tableNames) {
  StatMatrix out;
  for (const TableStats& t : history)
    if (const auto& m = t.of(kind); m && m->cols > 0) out.cols = std::max(out.cols, m->cols);
  for (const TableStats& t : history) {
    const auto& m = t.of(kind);
    if (!m || m->cols == 0) continue;
    std::vector<int64_t> row(out.cols, 0);
    for (size_t r = 0; r < m->rows(); ++r)
      for (size_t c = 0; c < m->cols; ++c) row[c] = std::max(row[c], m->at(r, c));
    out.values.insert(out.values.end(), row.begin(), row.end());
    if (tableNames) tableNames->push_back(t.table);
  }
  return out;
}

namespace {

// Nearest-rank percentile of `sorted` (ascending, not empty).
int64_t percentile(const std::vector<int64_t>& sorted, int p) {
  size_t rank = (static_cast<size_t>(p) * sorted.size() + 99) / 100;  // ceil(p/100 * n)
  if (rank == 0) rank = 1;
  return sorted[std::min(rank, sorted.size()) - 1];
}

std::vector<LimitChoice> choicesFor(const StatMatrix& m) {
  std::vector<int64_t> perBatch = m.rowMaxima();
  std::vector<int64_t> sorted = perBatch;
  std::sort(sorted.begin(), sorted.end());
  std::vector<LimitChoice> out;
  const std::pair<const char*, int> picks[] = {{"max", 100}, {"p99", 99}, {"p90", 90}, {"p50", 50}};
  for (auto [label, p] : picks) {
    LimitChoice c{label, percentile(sorted, p), 0, 0};
    if (!out.empty() && out.back().limit == c.limit) continue;  // the same limit under another name
    for (size_t r = 0; r < m.rows(); ++r) {
      bool over = false;
      for (size_t col = 0; col < m.cols; ++col)
        if (m.at(r, col) > c.limit) {
          c.droppedIdsAtLeast += m.at(r, col) - c.limit;
          over = true;
        }
      c.batchesOverLimit += over ? 1 : 0;
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace

std::vector<LimitSuggestion> suggestLimits(const std::vector<TableStats>& history, int64_t scPerDevice) {
  std::vector<LimitSuggestion> out;
  for (const TableStats& t : history) {
    LimitSuggestion s;
    s.table = t.table;
    if (const auto& m = t.of(StatKind::MaxIds)) {
      s.batches = m->rows();
      s.partitions = m->cols;
      s.maxIdsPerPartition = m->max();
      s.maxIdsChoices = choicesFor(*m);
    }
    if (const auto& m = t.of(StatKind::MaxUniqueIds)) {
      s.batches = std::max(s.batches, m->rows());
      s.partitions = std::max(s.partitions, m->cols);
      s.maxUniqueIdsPerPartition = m->max();
      s.maxUniqueIdsChoices = choicesFor(*m);
    }
    if (const auto& m = t.of(StatKind::RequiredBufferSize); m && !m->values.empty()) {
      int64_t perDevice = 0;
      const int64_t sc = scPerDevice > 0 ? scPerDevice : static_cast<int64_t>(m->cols);
      if (!__builtin_mul_overflow(m->max(), sc, &perDevice)) s.cooBufferSizePerDevice = perDevice;
    }
    if (const auto& m = t.of(StatKind::IdDropCounters)) {
      int64_t sum = 0;
      for (int64_t v : m->values)
        if (__builtin_add_overflow(sum, v, &sum)) sum = INT64_MAX;
      s.droppedIds = sum;
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace shardscope::sc
