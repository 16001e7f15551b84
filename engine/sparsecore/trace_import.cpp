#include "sparsecore/trace_import.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>

#include "io/input_file.h"
#include "sparsecore/errors.h"

namespace shardscope::sc {

using nlohmann::json;

RowKind classifyRow(const std::string& name) {
  if (name.find("SparseCore") != std::string::npos) return RowKind::SparseCore;
  if (name.find("TensorCore") != std::string::npos || name.rfind("/device:TPU", 0) == 0 ||
      name.rfind("TPU:", 0) == 0)
    return RowKind::TensorCore;
  if (name.find("Host") != std::string::npos || name.find("host") != std::string::npos ||
      name.find("CPU") != std::string::npos)
    return RowKind::Host;
  return RowKind::Other;
}

namespace {

struct Interval {
  double start, end;
};

// Total length of the union of intervals (sorted in place).
double unionLength(std::vector<Interval>& v) {
  std::sort(v.begin(), v.end(),
            [](const Interval& a, const Interval& b) { return a.start < b.start; });
  double total = 0, curStart = 0, curEnd = 0;
  bool open = false;
  for (const Interval& i : v) {
    if (!open || i.start > curEnd) {
      if (open) total += curEnd - curStart;
      curStart = i.start;
      curEnd = i.end;
      open = true;
    } else {
      curEnd = std::max(curEnd, i.end);
    }
  }
  if (open) total += curEnd - curStart;
  return total;
}

// Merged (disjoint, sorted) copy of intervals.
std::vector<Interval> merged(std::vector<Interval> v) {
  std::sort(v.begin(), v.end(),
            [](const Interval& a, const Interval& b) { return a.start < b.start; });
  std::vector<Interval> out;
  for (const Interval& i : v) {
    if (out.empty() || i.start > out.back().end)
      out.push_back(i);
    else
      out.back().end = std::max(out.back().end, i.end);
  }
  return out;
}

double intersectionLength(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  double total = 0;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const double lo = std::max(a[i].start, b[j].start), hi = std::min(a[i].end, b[j].end);
    if (hi > lo) total += hi - lo;
    (a[i].end < b[j].end) ? ++i : ++j;
  }
  return total;
}

struct RowData {
  std::string name;
  int64_t events = 0;
  std::vector<Interval> intervals;
  std::unordered_map<std::string, OpTotal> ops;
  std::unordered_map<int64_t, std::vector<std::pair<std::string, double>>> open;  // B/E per tid
};

struct Event {
  std::string ph, name, argsName;
  int64_t pid = 0, tid = 0;
  double ts = 0, dur = 0;
  bool hasTs = false;
};

// SAX handler: collects the fields of each event object in the events
// array without building the document.
class TraceSax : public json::json_sax_t {
 public:
  std::map<int64_t, RowData> rows;
  int64_t events = 0;
  bool sawEvents = false;

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t v) override { return number(double(v), v); }
  bool number_unsigned(number_unsigned_t v) override {
    return number(double(v), static_cast<int64_t>(v));
  }
  bool number_float(number_float_t v, const string_t&) override {
    return number(v, static_cast<int64_t>(v));
  }
  bool string(string_t& v) override {
    if (inEvent()) {
      if (key_ == "ph")
        ev_.ph = v;
      else if (key_ == "name")
        ev_.name = v;
      else if (key_ == "pid")
        ev_.pid = std::atoll(v.c_str());
    } else if (inArgs() && key_ == "name") {
      ev_.argsName = v;
    }
    return true;
  }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    Frame f{false, false, false, false};
    if (!stack_.empty() && stack_.back().eventsArray) {
      f.event = true;
      ev_ = Event{};
    } else if (!stack_.empty() && stack_.back().event && key_ == "args") {
      f.args = true;
    }
    f.object = true;
    stack_.push_back(f);
    key_.clear();
    return true;
  }
  bool end_object() override {
    if (stack_.back().event) finishEvent();
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override {
    Frame f{false, false, false, false};
    if (stack_.empty() || (stack_.size() == 1 && stack_.back().object && key_ == "traceEvents")) {
      f.eventsArray = true;
      sawEvents = true;
    }
    stack_.push_back(f);
    return true;
  }
  bool end_array() override {
    stack_.pop_back();
    return true;
  }
  bool key(string_t& k) override {
    key_ = k;
    return true;
  }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& e) override {
    error_ = e.what();
    errorByte_ = position;
    return false;
  }
  std::string error_;
  size_t errorByte_ = 0;

 private:
  struct Frame {
    bool eventsArray, event, args, object;
  };
  std::vector<Frame> stack_;
  std::string key_;
  Event ev_;

  bool inEvent() const { return !stack_.empty() && stack_.back().event; }
  bool inArgs() const { return !stack_.empty() && stack_.back().args; }

  bool number(double d, int64_t i) {
    if (!inEvent()) return true;
    if (key_ == "pid")
      ev_.pid = i;
    else if (key_ == "tid")
      ev_.tid = i;
    else if (key_ == "ts") {
      ev_.ts = d;
      ev_.hasTs = true;
    } else if (key_ == "dur")
      ev_.dur = d;
    return true;
  }

  void finishEvent() {
    ++events;
    RowData& row = rows[ev_.pid];
    if (ev_.ph == "M") {
      if (ev_.name == "process_name" && !ev_.argsName.empty()) row.name = ev_.argsName;
      return;
    }
    if (!ev_.hasTs) return;
    if (ev_.ph == "X") {
      add(row, ev_.name, ev_.ts, ev_.ts + std::max(0.0, ev_.dur));
    } else if (ev_.ph == "B") {
      row.open[ev_.tid].push_back({ev_.name, ev_.ts});
    } else if (ev_.ph == "E") {
      auto& st = row.open[ev_.tid];
      if (!st.empty()) {
        auto [name, start] = st.back();
        st.pop_back();
        add(row, name, start, std::max(start, ev_.ts));
      }
    }
  }

  static void add(RowData& row, const std::string& name, double start, double end) {
    ++row.events;
    row.intervals.push_back({start, end});
    OpTotal& op = row.ops[name];
    op.name = name;
    ++op.count;
    op.duration += end - start;
  }
};

}  // namespace

TraceSummary importTrace(std::istream& in, const std::string& source) {
  TraceSax sax;
  const bool ok = json::sax_parse(in, &sax);
  if (!ok) {
    std::string what = sax.error_;
    size_t at = what.find("parse error");
    size_t colon = at == std::string::npos ? std::string::npos : what.find(": ", at);
    std::string cause = colon == std::string::npos ? what : what.substr(colon + 2);
    // nlohmann's message already says "at line L, column C"; keep it.
    size_t lc = what.find("at line ");
    std::string where;
    if (lc != std::string::npos) {
      int line = 0, column = 0;
      if (std::sscanf(what.c_str() + lc, "at line %d, column %d", &line, &column) == 2)
        where = ":" + std::to_string(line) + ":" + std::to_string(column);
    }
    throw InputError(source + where + ": JSON parse error: " + cause);
  }
  if (!sax.sawEvents)
    throw InputError(
        source + ": not a Chrome trace: expected {\"traceEvents\": [...]} or an array of events");

  TraceSummary s;
  s.events = sax.events;
  double lo = 0, hi = 0;
  bool any = false;
  std::map<int, std::vector<Interval>> scByDevice, tcByDevice;
  for (auto& [pid, data] : sax.rows) {
    if (data.events == 0 && data.name.empty()) continue;
    TraceRow row;
    row.pid = pid;
    row.name = data.name.empty() ? "pid " + std::to_string(pid) : data.name;
    row.kind = classifyRow(row.name);
    if (size_t p = row.name.find("TPU:"); p != std::string::npos)
      row.device = std::atoi(row.name.c_str() + p + 4);
    row.events = data.events;
    if (!data.intervals.empty()) {
      row.first = data.intervals.front().start;
      row.last = data.intervals.front().end;
      for (const Interval& i : data.intervals) {
        row.first = std::min(row.first, i.start);
        row.last = std::max(row.last, i.end);
      }
      if (!any) {
        lo = row.first;
        hi = row.last;
        any = true;
      }
      lo = std::min(lo, row.first);
      hi = std::max(hi, row.last);
      if (row.device >= 0 && row.kind == RowKind::SparseCore)
        scByDevice[row.device].insert(scByDevice[row.device].end(), data.intervals.begin(),
                                      data.intervals.end());
      if (row.device >= 0 && row.kind == RowKind::TensorCore)
        tcByDevice[row.device].insert(tcByDevice[row.device].end(), data.intervals.begin(),
                                      data.intervals.end());
      row.busy = unionLength(data.intervals);
    }
    std::vector<OpTotal> ops;
    for (auto& [name, op] : data.ops) ops.push_back(op);
    std::sort(ops.begin(), ops.end(), [](const OpTotal& a, const OpTotal& b) {
      return a.duration != b.duration ? a.duration > b.duration : a.name < b.name;
    });
    if (ops.size() > 5) ops.resize(5);
    row.topOps = std::move(ops);
    s.rows.push_back(std::move(row));
  }
  s.span = any ? hi - lo : 0;
  std::map<int, bool> devices;
  for (auto& [d, v] : scByDevice) devices[d] = true;
  for (auto& [d, v] : tcByDevice) devices[d] = true;
  for (auto& [d, unused] : devices) {
    DeviceOverlap o;
    o.device = d;
    std::vector<Interval> sc = merged(scByDevice[d]), tc = merged(tcByDevice[d]);
    for (const Interval& i : sc) o.sparseCoreBusy += i.end - i.start;
    for (const Interval& i : tc) o.tensorCoreBusy += i.end - i.start;
    o.overlap = intersectionLength(sc, tc);
    s.devices.push_back(o);
  }
  return s;
}

TraceSummary importTraceFile(const std::string& path) {
  if (std::string error; !io::checkInputPath(path, error)) throw InputError(error);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open file");
  return importTrace(in, path);
}

static const char* kindName(RowKind k) {
  switch (k) {
    case RowKind::SparseCore:
      return "SparseCore";
    case RowKind::TensorCore:
      return "TensorCore";
    case RowKind::Host:
      return "Host";
    case RowKind::Other:
      return "Other";
  }
  return "Other";
}

json traceSummaryToJson(const TraceSummary& s) {
  json rows = json::array();
  for (const TraceRow& r : s.rows) {
    json ops = json::array();
    for (const OpTotal& op : r.topOps)
      ops.push_back({{"name", op.name}, {"count", op.count}, {"duration_us", op.duration}});
    rows.push_back({{"pid", r.pid},
                    {"name", r.name},
                    {"kind", kindName(r.kind)},
                    {"device", r.device},
                    {"events", r.events},
                    {"busy_us", r.busy},
                    {"first_us", r.first},
                    {"last_us", r.last},
                    {"top_ops", ops}});
  }
  json devices = json::array();
  for (const DeviceOverlap& d : s.devices)
    devices.push_back({{"device", d.device},
                       {"sparse_core_busy_us", d.sparseCoreBusy},
                       {"tensor_core_busy_us", d.tensorCoreBusy},
                       {"overlap_us", d.overlap}});
  return {{"events", s.events}, {"span_us", s.span}, {"rows", rows}, {"devices", devices}};
}

std::string traceSummaryToText(const TraceSummary& s) {
  std::ostringstream o;
  char buf[512];
  std::snprintf(buf, sizeof buf, "%lld events over %.1f us\n", static_cast<long long>(s.events),
                s.span);
  o << buf;
  for (const TraceRow& r : s.rows) {
    const double share = s.span > 0 ? 100.0 * r.busy / s.span : 0;
    std::snprintf(buf, sizeof buf, "  %-28s %-10s %8lld events, busy %.1f us (%.0f%%)\n",
                  r.name.c_str(), kindName(r.kind), static_cast<long long>(r.events), r.busy,
                  share);
    o << buf;
    for (const OpTotal& op : r.topOps) {
      std::snprintf(buf, sizeof buf, "      %-40s x%-6lld %.1f us\n", op.name.c_str(),
                    static_cast<long long>(op.count), op.duration);
      o << buf;
    }
  }
  for (const DeviceOverlap& d : s.devices) {
    const double base = std::min(d.sparseCoreBusy, d.tensorCoreBusy);
    std::snprintf(buf, sizeof buf,
                  "TPU:%d SparseCore busy %.1f us, TensorCore busy %.1f us, overlap %.1f us "
                  "(%.0f%% of the shorter)\n",
                  d.device, d.sparseCoreBusy, d.tensorCoreBusy, d.overlap,
                  base > 0 ? 100 * d.overlap / base : 0.0);
    o << buf;
  }
  return o.str();
}

}  // namespace shardscope::sc
