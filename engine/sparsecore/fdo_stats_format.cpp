#include "sparsecore/fdo_stats_format.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sparsecore/errors.h"

namespace shardscope::sc {

namespace fs = std::filesystem;

FdoStatsReport loadFdoStatsReport(const std::vector<std::string>& inputs, int64_t scPerDevice) {
  if (inputs.empty()) throw InputError("no statistics files given");
  FdoStatsReport report;
  report.scPerDevice = scPerDevice;
  std::vector<FdoStatsFile> files;
  for (const std::string& in : inputs) {
    std::error_code ec;
    std::vector<std::string> paths =
        fs::is_directory(in, ec) ? latestStatsFilesPerProcess(in) : std::vector<std::string>{in};
    for (const std::string& p : paths) {
      files.push_back(readFdoStatsFile(p));
      report.files.push_back(p);
    }
  }
  report.history = mergeHistories(files);
  report.suggestions = suggestLimits(report.history, scPerDevice);
  return report;
}

namespace {

// Where the maximum of `m` sits: (batch, column) of its first occurrence.
std::pair<size_t, size_t> argMax(const StatMatrix& m) {
  size_t best = 0;
  for (size_t i = 1; i < m.values.size(); ++i)
    if (m.values[i] > m.values[best]) best = i;
  return {best / m.cols, best % m.cols};
}

std::string joined(const std::vector<int64_t>& v, size_t limit = 24) {
  std::string out;
  for (size_t i = 0; i < v.size() && i < limit; ++i) out += (i ? " " : "") + std::to_string(v[i]);
  if (v.size() > limit) out += " ... (" + std::to_string(v.size()) + " batches)";
  return out;
}

const char* columnName(StatKind k) { return k == StatKind::RequiredBufferSize ? "SparseCore" : "partition"; }

void choicesText(std::ostringstream& out, const char* name, const std::vector<LimitChoice>& choices, size_t batches) {
  for (size_t i = 1; i < choices.size(); ++i) {
    const LimitChoice& c = choices[i];
    out << "    or:  " << name << "=" << c.limit << " (" << c.label << "): ";
    if (c.droppedIdsAtLeast == 0)
      out << "no id over it\n";
    else
      out << ">= " << c.droppedIdsAtLeast << " ids over it, in " << c.batchesOverLimit << " of " << batches
          << " batches\n";
  }
}

}  // namespace

std::string fdoStatsToText(const FdoStatsReport& report) {
  std::ostringstream out;
  out << "statistics: " << report.files.size() << (report.files.size() == 1 ? " file" : " files");
  if (report.files.size() > 1) out << " (batch by batch, the maximum over files)";
  out << "\n";
  for (const std::string& f : report.files) out << "  " << f << "\n";
  for (size_t t = 0; t < report.history.size(); ++t) {
    const TableStats& table = report.history[t];
    const LimitSuggestion& s = report.suggestions[t];
    out << "\ntable " << table.table << ": " << s.batches << (s.batches == 1 ? " batch" : " batches") << " x "
        << s.partitions << (s.partitions == 1 ? " partition" : " partitions") << "\n";
    for (StatKind k : kStatKinds) {
      const std::optional<StatMatrix>& m = table.of(k);
      if (!m || m->values.empty()) continue;
      char label[40];
      std::snprintf(label, sizeof label, "%-36s", statTitle(k));
      out << "  " << label << m->max();
      if (k != StatKind::IdDropCounters) {
        auto [b, c] = argMax(*m);
        out << "  (batch " << b << ", " << columnName(k) << " " << c << ")";
        if (m->rows() > 1) out << "   per batch: " << joined(m->rowMaxima());
      } else if (m->values.size() > 1) {
        int64_t sum = 0;
        for (int64_t v : m->values) sum += v;
        out << " at most in one batch, " << sum << " in all";
      }
      out << "\n";
    }
    out << "  set, as update_preprocessing_parameters does:\n   ";
    if (s.maxIdsPerPartition) out << " max_ids_per_partition=" << *s.maxIdsPerPartition;
    if (s.maxUniqueIdsPerPartition) out << " max_unique_ids_per_partition=" << *s.maxUniqueIdsPerPartition;
    if (s.cooBufferSizePerDevice) out << " suggested_coo_buffer_size_per_device=" << *s.cooBufferSizePerDevice;
    out << "\n";
    choicesText(out, "max_ids_per_partition", s.maxIdsChoices, s.batches);
    choicesText(out, "max_unique_ids_per_partition", s.maxUniqueIdsChoices, s.batches);
  }
  if (!report.history.empty())
    out << "\n'>= N ids over it': the files keep each partition's maximum over source SparseCores, so N is a\n"
           "lower bound of the ids a limit would drop (allow_id_dropping) or that would fail the run.\n";
  return out.str();
}

nlohmann::json fdoStatsToJson(const FdoStatsReport& report) {
  using nlohmann::json;
  json tables = json::array();
  for (size_t t = 0; t < report.history.size(); ++t) {
    const TableStats& table = report.history[t];
    const LimitSuggestion& s = report.suggestions[t];
    json entry = {{"table", table.table}, {"batches", s.batches}, {"partitions", s.partitions}};
    for (StatKind k : kStatKinds) {
      const std::optional<StatMatrix>& m = table.of(k);
      if (!m) continue;
      json rows = json::array();
      for (size_t r = 0; r < m->rows(); ++r)
        rows.push_back(std::vector<int64_t>(m->values.begin() + static_cast<std::ptrdiff_t>(r * m->cols),
                                            m->values.begin() + static_cast<std::ptrdiff_t>((r + 1) * m->cols)));
      entry[std::string(statSuffix(k)).substr(1)] = {{"max", m->max()}, {"per_batch", rows}};
    }
    json suggested = json::object();
    if (s.maxIdsPerPartition) suggested["max_ids_per_partition"] = *s.maxIdsPerPartition;
    if (s.maxUniqueIdsPerPartition) suggested["max_unique_ids_per_partition"] = *s.maxUniqueIdsPerPartition;
    if (s.cooBufferSizePerDevice) suggested["suggested_coo_buffer_size_per_device"] = *s.cooBufferSizePerDevice;
    entry["suggested"] = suggested;
    auto choices = [](const std::vector<LimitChoice>& cs) {
      json a = json::array();
      for (const LimitChoice& c : cs)
        a.push_back({{"label", c.label},
                     {"limit", c.limit},
                     {"dropped_ids_at_least", c.droppedIdsAtLeast},
                     {"batches_over_limit", c.batchesOverLimit}});
      return a;
    };
    entry["choices"] = {{"max_ids_per_partition", choices(s.maxIdsChoices)},
                        {"max_unique_ids_per_partition", choices(s.maxUniqueIdsChoices)}};
    if (s.droppedIds) entry["dropped_ids"] = *s.droppedIds;
    tables.push_back(entry);
  }
  return {{"files", report.files}, {"tables", tables}};
}

}  // namespace shardscope::sc
