// The communication report as JSON and as a table (see comm_report.h).
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>

#include "comm/comm_report.h"

namespace shardscope::comm {

namespace {

// Whole byte counts as integers, fractions as they are.
nlohmann::json number(double v) {
  if (std::floor(v) == v && std::fabs(v) < 9e15) return static_cast<int64_t>(v);
  return v;
}

nlohmann::json totalsJson(const CommTotals& t) {
  return {{"count", t.count}, {"bytes_per_device", number(t.bytesPerDevice)}, {"seconds", t.seconds}};
}

nlohmann::json sideJson(const ShardingSide& s) {
  nlohmann::json j = {{"value", s.value}, {"origin", s.origin}};
  j["sharding"] = s.sharding ? nlohmann::json(s.sharding->strBody()) : nlohmann::json(nullptr);
  if (s.line) j["line"] = s.line;
  return j;
}

std::string axesText(const AxisRefList& axes) {
  std::string out;
  for (size_t i = 0; i < axes.size(); ++i) out += (i ? "," : "") + axes[i].str();
  return out;
}

std::string bytesText(double b) {
  char buf[64];
  if (b >= 1024.0 * 1024 * 1024)
    std::snprintf(buf, sizeof buf, "%.2f GiB", b / (1024.0 * 1024 * 1024));
  else if (b >= 1024.0 * 1024)
    std::snprintf(buf, sizeof buf, "%.2f MiB", b / (1024.0 * 1024));
  else if (b >= 1024.0)
    std::snprintf(buf, sizeof buf, "%.2f KiB", b / 1024.0);
  else
    std::snprintf(buf, sizeof buf, "%.0f B", b);
  return buf;
}

std::string secondsText(double s) {
  char buf[64];
  if (s >= 1e-3)
    std::snprintf(buf, sizeof buf, "%.3f ms", s * 1e3);
  else if (s >= 1e-6)
    std::snprintf(buf, sizeof buf, "%.3f us", s * 1e6);
  else
    std::snprintf(buf, sizeof buf, "%.3f ns", s * 1e9);
  return buf;
}

}  // namespace

std::string commReportJson(const CommReport& report) {
  nlohmann::json chip = {{"name", report.chip.name},
                         {"description", report.chip.description},
                         {"bidirectional_bytes_per_second", report.chip.bidirectionalBytesPerSecond},
                         {"one_way_bytes_per_second", report.chip.oneWayBytesPerSecond()},
                         {"step_latency_seconds", report.chip.stepLatencySeconds},
                         {"source", report.chip.source}};
  nlohmann::json list = nlohmann::json::array();
  for (const CollectiveRecord& r : report.collectives) {
    nlohmann::json axes = nlohmann::json::array();
    for (const AxisRef& a : r.axes) axes.push_back(a.str());
    nlohmann::json cause = {{"text", r.cause.text},
                            {"consumer", r.cause.consumer},
                            {"factor", r.cause.factor},
                            {"source", sideJson(r.cause.source)}};
    if (r.cause.consumerLine) cause["consumer_line"] = r.cause.consumerLine;
    if (!r.cause.factor.empty()) cause["other"] = sideJson(r.cause.other);
    cause["needed"] = r.cause.needed ? nlohmann::json(r.cause.needed->strBody()) : nlohmann::json(nullptr);
    if (!r.cause.blocked.empty()) {
      nlohmann::json blocked = nlohmann::json::array();
      for (const BlockedAxisNote& b : r.cause.blocked)
        blocked.push_back({{"value", b.value},
                           {"dimension", b.dim},
                           {"axis", b.block.axis.str()},
                           {"reason", explain::blockReasonName(b.block.reason)},
                           {"text", b.block.text}});
      cause["blocked"] = std::move(blocked);
    }
    list.push_back({{"kind", passes::collectiveKindName(r.kind)},
                    {"op", r.op},
                    {"planned", r.planned},
                    {"value", r.value},
                    {"function", r.function},
                    {"line", r.line},
                    {"column", r.column},
                    {"axes", axes},
                    {"group_size", r.groupSize},
                    {"element_type", r.elementType},
                    {"global_shape", r.globalShape},
                    {"in_sharding", r.inSharding.strBody()},
                    {"out_sharding", r.outSharding.strBody()},
                    {"per_device_shape_in", r.inShape},
                    {"per_device_shape_out", r.outShape},
                    {"bytes_per_device", number(r.bytesPerDevice)},
                    {"seconds", r.seconds},
                    {"cause", r.cause.text},
                    {"cause_detail", cause}});
  }
  nlohmann::json perFunction = nlohmann::json::array();
  for (const auto& [name, t] : report.perFunction) {
    nlohmann::json f = totalsJson(t);
    f["function"] = name;
    perFunction.push_back(f);
  }
  nlohmann::json totals = totalsJson(report.total);
  totals["per_function"] = perFunction;
  nlohmann::json root = {{"format", "shardscope-comm-report"}, {"version", 1}, {"chip", chip},
                         {"collectives", list}, {"totals", totals}};
  return root.dump(2) + "\n";
}

void printCommTable(const CommReport& report, std::ostream& os) {
  os << "Communication on " << report.chip.name << " (" << report.chip.description << ", "
     << report.chip.oneWayBytesPerSecond() / 1e9 << " GB/s one way per chip)\n";
  if (report.collectives.empty()) {
    os << "no collectives\n";
    return;
  }
  char line[512];
  std::snprintf(line, sizeof line, "%-19s %-28s %-6s %-14s %12s %12s  %s\n", "kind", "op", "line", "axes",
                "bytes/device", "time", "cause");
  os << line;
  for (const CollectiveRecord& r : report.collectives) {
    std::string op = r.value + " = " + r.op + (r.planned ? " (planned)" : "");
    std::snprintf(line, sizeof line, "%-19s %-28s %-6u %-14s %12s %12s  ", passes::collectiveKindName(r.kind),
                  op.c_str(), r.line, axesText(r.axes).c_str(), bytesText(r.bytesPerDevice).c_str(),
                  secondsText(r.seconds).c_str());
    os << line << r.cause.text << '\n';
    for (const BlockedAxisNote& b : r.cause.blocked) os << "    " << b.text() << '\n';
  }
  os << '\n';
  for (const auto& [name, t] : report.perFunction) {
    std::snprintf(line, sizeof line, "%-20s %6lld collectives %14s per device %12s\n", name.c_str(),
                  static_cast<long long>(t.count), bytesText(t.bytesPerDevice).c_str(), secondsText(t.seconds).c_str());
    os << line;
  }
  std::snprintf(line, sizeof line, "%-20s %6lld collectives %14s per device %12s\n", "total",
                static_cast<long long>(report.total.count), bytesText(report.total.bytesPerDevice).c_str(),
                secondsText(report.total.seconds).c_str());
  os << line;
}

}  // namespace shardscope::comm

namespace shardscope::comm {

void mergeCommReport(CommReport& into, CommReport&& more) {
  for (CollectiveRecord& r : more.collectives) into.collectives.push_back(std::move(r));
  for (auto& [name, t] : more.perFunction) {
    bool found = false;
    for (auto& [n, mine] : into.perFunction)
      if (n == name) {
        mine.count += t.count;
        mine.bytesPerDevice += t.bytesPerDevice;
        mine.seconds += t.seconds;
        found = true;
      }
    if (!found) into.perFunction.push_back({name, t});
  }
  into.total.count += more.total.count;
  into.total.bytesPerDevice += more.total.bytesPerDevice;
  into.total.seconds += more.total.seconds;
}

bool writeCommReport(const CommReport& report, const std::string& path, std::ostream& terminal, std::string& error) {
  if (path == "-") {
    printCommTable(report, terminal);
    terminal.flush();
    if (!terminal) {
      error = "could not write the communication report to standard output";
      return false;
    }
    return true;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    error = "could not open '" + path + "' for the communication report: " + std::strerror(errno);
    return false;
  }
  out << commReportJson(report);
  out.close();
  if (!out) {
    error = "could not write the communication report to '" + path + "': " + std::strerror(errno);
    return false;
  }
  return true;
}

bool resolveChip(const std::string& name, const std::string& tablePath, ChipLink& chip, std::string& error) {
  std::vector<ChipLink> chips = builtinChips();
  if (!tablePath.empty() && !loadChipTable(tablePath, chips, error)) return false;
  std::optional<ChipLink> found = findChip(chips, name.empty() ? kDefaultChip : name);
  if (!found) {
    error = "unknown chip '" + name + "' (known:";
    for (const ChipLink& c : chips) error += " " + c.name;
    error += ")";
    return false;
  }
  chip = *found;
  return true;
}

}  // namespace shardscope::comm
