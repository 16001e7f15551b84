// The communication report of a module: every collective, what it moves,
// what that costs on a chip and why it is there, with totals per function
// and for the module.
//
// Collectives are the sdy collective ops in the module and, for every
// `sdy.reshard` still in it, the collectives -sdy-reshard-to-collectives
// would turn it into (marked `planned`). So the report reads the same before
// and after that pass.
//
// Example (mesh "x"=4):
//   %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@m, [{}, {}]> : tensor<8x8xf32>
// is one all-gather on "x", group size 4, per-device shapes 2x8 -> 8x8,
// 192 bytes received per device (3/4 of 256), 192 / 600e9 s on TPU v5p.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "comm/collective_cause.h"
#include "comm/interconnect.h"
#include "ir/operation.h"
#include "passes/explicit_reshards/reshard_cause.h"
#include "passes/reshard_to_collectives.h"

namespace shardscope::comm {

struct CollectiveRecord {
  passes::CollectiveKind kind = passes::CollectiveKind::AllGather;
  std::string op;        // "sdy.all_gather"; "sdy.reshard" for a planned collective
  bool planned = false;  // one of the collectives of a reshard not lowered yet
  std::string value;     // the op's result: "%3"
  std::string function;  // "@main"
  uint32_t line = 0, column = 0;
  AxisRefList axes;       // the mesh axes it communicates along
  int64_t groupSize = 1;  // devices per group (product of the axes' sizes)
  std::string elementType;
  std::vector<int64_t> globalShape;
  std::vector<int64_t> inShape, outShape;  // per device, before and after
  TensorSharding inSharding, outSharding;
  double bytesPerDevice = 0;  // received by each device
  double seconds = 0;
  CollectiveCause cause;
  // Where it sits in the dataflow, for views that draw it on an edge: the
  // value its chain of reshards and collectives starts from, and the op that
  // reads the chain's end with the operand it reads it as (null when nothing
  // reads it). Pointers into the analysed module: valid while it lives.
  const ir::Value* from = nullptr;
  const ir::Op* to = nullptr;
  unsigned toOperand = 0;
};

struct CommTotals {
  int64_t count = 0;
  double bytesPerDevice = 0;
  double seconds = 0;
  void add(const CollectiveRecord& r) {
    ++count;
    bytesPerDevice += r.bytesPerDevice;
    seconds += r.seconds;
  }
};

struct CommReport {
  ChipLink chip;
  std::vector<CollectiveRecord> collectives;  // in program order
  std::vector<std::pair<std::string, CommTotals>> perFunction;  // in module order
  CommTotals total;
};

struct CommOptions {
  ChipLink chip = *findChip(builtinChips(), kDefaultChip);
  // What -sdy-insert-explicit-reshards recorded about the ops it inserted
  // (may be null); a collective coming from one of them takes its reason.
  const passes::ReshardCauses* reshardCauses = nullptr;
  // Name values as if the ops recorded in `reshardCauses` were not there
  // (the report is of a copy the reshards were inserted in, read beside the
  // module without them): `%0 = stablehlo.add` stays %0 after an
  // `sdy.reshard` is inserted before it, and an inserted op's result is
  // named after the value it reshards.
  bool nameAsBeforeReshards = false;
};

CommReport analyzeCommunication(ir::Module& module, const CommOptions& options = {});

// The report as JSON (schema: engine/propagation/COMM_REPORT_SCHEMA.md).
std::string commReportJson(const CommReport& report);
// The report as a table for a terminal.
void printCommTable(const CommReport& report, std::ostream& os);

}  // namespace shardscope::comm

namespace shardscope::comm {

// Appends `more` (the report of another `// -----` chunk) to `into`.
void mergeCommReport(CommReport& into, CommReport&& more);

// Writes the report to `path` as JSON, or as a table to `terminal` when
// `path` is "-". Returns false with `error` set when the file cannot be
// written completely.
bool writeCommReport(const CommReport& report, const std::string& path, std::ostream& terminal, std::string& error);

// The chip named `name` from the built-in table merged with the JSON table
// at `tablePath` (if not empty). Returns false with `error` set.
bool resolveChip(const std::string& name, const std::string& tablePath, ChipLink& chip, std::string& error);

}  // namespace shardscope::comm
