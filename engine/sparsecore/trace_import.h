// Summary of a profiler trace in Chrome trace-event JSON (what XProf /
// TensorBoard export): {"traceEvents": [...]} or a bare array. Process rows
// are named by "process_name" metadata events, e.g. "TPU:0 SparseCore 1"
// (pid 1005). The file is parsed with a SAX handler, so its size is bounded
// by the per-row intervals kept, not by a DOM.
//
// Per row: event count, busy time (union of complete "X" events and B/E
// pairs), span, and the heaviest op names. Per TPU: SparseCore busy,
// TensorCore busy and their overlap; a large overlap is what pipelining
// looks like in a trace.
#pragma once
#include <cstdint>
#include <istream>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace shardscope::sc {

enum class RowKind { SparseCore, TensorCore, Host, Other };

struct OpTotal {
  std::string name;
  int64_t count = 0;
  double duration = 0;  // microseconds
  bool operator==(const OpTotal&) const = default;
};

struct TraceRow {
  int64_t pid = 0;
  std::string name;  // process name, or "pid N"
  RowKind kind = RowKind::Other;
  int device = -1;  // N of "TPU:N", else -1
  int64_t events = 0;
  double busy = 0;  // union of intervals, microseconds
  double first = 0, last = 0;
  std::vector<OpTotal> topOps;  // by total duration, at most 5
  bool operator==(const TraceRow&) const = default;
};

struct DeviceOverlap {
  int device = 0;
  double sparseCoreBusy = 0;  // union over the device's SparseCore rows
  double tensorCoreBusy = 0;
  double overlap = 0;  // both busy at once
  bool operator==(const DeviceOverlap&) const = default;
};

struct TraceSummary {
  std::vector<TraceRow> rows;  // by pid
  std::vector<DeviceOverlap> devices;
  int64_t events = 0;
  double span = 0;
  bool operator==(const TraceSummary&) const = default;
};

// Throws InputError "<source>:<line>:<column>: ..." on malformed JSON and
// "<source>: ..." when the document is not a trace.
TraceSummary importTrace(std::istream& in, const std::string& source);
TraceSummary importTraceFile(const std::string& path);

RowKind classifyRow(const std::string& processName);
nlohmann::json traceSummaryToJson(const TraceSummary& s);
std::string traceSummaryToText(const TraceSummary& s);

}  // namespace shardscope::sc
