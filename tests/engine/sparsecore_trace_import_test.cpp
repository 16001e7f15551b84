// Chrome trace-event import: rows, busy time, overlap, errors.
#include <gtest/gtest.h>

#include <sstream>

#include "sparsecore/errors.h"
#include "sparsecore/trace_import.h"

using namespace shardscope::sc;

namespace {
const char kTrace[] = R"({"displayTimeUnit": "ns", "traceEvents": [
  {"ph": "M", "name": "process_name", "pid": 1005, "args": {"name": "TPU:0 SparseCore 1"}},
  {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "TPU:0"}},
  {"ph": "X", "name": "sparse_dense_matmul", "pid": 1005, "tid": 1, "ts": 0, "dur": 10},
  {"ph": "X", "name": "sparse_dense_matmul", "pid": 1005, "tid": 1, "ts": 5, "dur": 10},
  {"ph": "X", "name": "fusion.1", "pid": 1, "tid": 2, "ts": 10, "dur": 20, "args": {"long_name": "x"}},
  {"ph": "B", "name": "grad", "pid": 1005, "tid": 3, "ts": 40},
  {"ph": "E", "pid": 1005, "tid": 3, "ts": 45}
]})";
}

TEST(SparseCoreTraceImport, RowsBusyAndOverlap) {
  std::istringstream in(kTrace);
  TraceSummary s = importTrace(in, "trace.json");
  ASSERT_EQ(s.rows.size(), 2u);
  const TraceRow& tc = s.rows[0];
  const TraceRow& sc = s.rows[1];
  EXPECT_EQ(tc.name, "TPU:0");
  EXPECT_EQ(tc.kind, RowKind::TensorCore);
  EXPECT_EQ(sc.name, "TPU:0 SparseCore 1");
  EXPECT_EQ(sc.kind, RowKind::SparseCore);
  EXPECT_EQ(sc.device, 0);
  EXPECT_EQ(sc.events, 3);
  EXPECT_DOUBLE_EQ(sc.busy, 15 + 5);  // [0,15) union + [40,45)
  ASSERT_FALSE(sc.topOps.empty());
  EXPECT_EQ(sc.topOps[0].name, "sparse_dense_matmul");
  EXPECT_DOUBLE_EQ(sc.topOps[0].duration, 20);
  ASSERT_EQ(s.devices.size(), 1u);
  EXPECT_DOUBLE_EQ(s.devices[0].overlap, 5);  // [10,15)
  EXPECT_DOUBLE_EQ(s.span, 45);
}

TEST(SparseCoreTraceImport, BareArrayForm) {
  std::istringstream in(R"([{"ph": "X", "name": "a", "pid": 7, "tid": 1, "ts": 1, "dur": 2}])");
  TraceSummary s = importTrace(in, "t.json");
  ASSERT_EQ(s.rows.size(), 1u);
  EXPECT_EQ(s.rows[0].name, "pid 7");
}

TEST(SparseCoreTraceImport, Errors) {
  std::istringstream broken("{\"traceEvents\": [\n {\"ph\": \"X\",, }]}");
  try {
    importTrace(broken, "t.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("t.json:2:", 0), 0u) << e.what();
  }
  std::istringstream notTrace(R"({"foo": 1})");
  EXPECT_THROW(importTrace(notTrace, "t.json"), InputError);
}
