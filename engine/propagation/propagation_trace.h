// A recorded trace of a propagation run: one step per op-level propagation
// that changed something, with the factor table before and after, the axes
// that moved (from which tensor to which), the direction of each factor,
// the conflicts left unresolved, and the resulting value shardings.
//
// Plain structs, serialised to JSON (schema in TRACE_SCHEMA.md). Replaying
// the `updates` of every step, in order, on the module as it was when
// propagation started reproduces the propagated shardings.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/operation.h"
#include "propagation/sharding_projection.h"
#include "sharding/tensor_sharding.h"

namespace shardscope::propagation {

// One cell of the factor table.
struct TraceFactorCell {
  int64_t factor = 0;
  AxisRefList axes;
  AxisRefList overflowAxes;
  bool closed = false;
  bool minorMost = false;
  bool operator==(const TraceFactorCell&) const = default;
};

// One row: a tensor of the op (`operand-0`, `result-1`).
struct TraceTensorRow {
  std::string tensor;  // "operand-0" / "result-0"
  std::string value;   // the value's name in the source ("%arg0", "%0"), if known
  std::vector<TraceFactorCell> factors;  // only the factors the tensor maps
  AxisRefList replicated;
  AxisRefList unreduced;
  bool operator==(const TraceTensorRow&) const = default;
};

struct TraceFactorTable {
  std::vector<TraceTensorRow> rows;
  bool operator==(const TraceFactorTable&) const = default;
};

// Axis `axis` of factor `factor` reached `to` from `from`.
struct TraceAxisMove {
  int64_t factor = 0;
  AxisRef axis;
  std::string from;  // "operand-0" / "result-0"
  std::string to;
  bool operator==(const TraceAxisMove&) const = default;
};

// A factor on which the op's tensors still disagree after the step.
struct TraceConflict {
  int64_t factor = 0;
  std::string reason;
  bool operator==(const TraceConflict&) const = default;
};

// Where a value lives, independent of pointers: the op at pre-order index
// `op` of the module walk (the module op itself excluded), then either its
// result `index`, block argument `index` of region `region`, or (kind
// "func_result") function result `index`.
struct TraceValueRef {
  std::string kind = "result";  // "result" | "block_arg" | "func_result"
  int64_t op = -1;
  int64_t region = 0;
  int64_t index = 0;
  bool operator==(const TraceValueRef&) const = default;
};

// The sharding a value received in a step.
struct TraceValueUpdate {
  TraceValueRef value;
  TensorSharding sharding;
  bool operator==(const TraceValueUpdate&) const = default;
};

// `TraceStep::op` of the closing step that sets the shardings propagation
// wrote outside op steps (trace_recorder.h TraceNormalizer).
inline constexpr const char* kNormalizationStepOp = "sdy.sharding_normalization";

struct TraceStep {
  int64_t step = 0;          // global step number (0-based)
  int64_t userPriority = -1; // user priority round (-1: no user priorities)
  int64_t opPriority = -1;   // op-priority stage 0..4 (-1: no op priorities)
  std::string strategy;      // "basic" | "aggressive"
  int64_t iteration = 0;     // index of the fixed-point run this step belongs to
  int64_t visit = 0;         // worklist pop (1-based) within that run; 0 for result syncs
  std::string op;            // op name ("stablehlo.add", "sdy.data_flow_edge", "func.return" for result sync)
  int64_t opIndex = -1;      // pre-order index of the op
  uint32_t line = 0, col = 0;
  std::string rule;          // the rule text used (`([i, j])->([i, j]) {i=8, j=8}`)
  std::vector<std::string> directions;  // per factor: NONE/FORWARD/BACKWARD/BOTH
  TraceFactorTable before;
  TraceFactorTable after;
  std::vector<TraceAxisMove> moves;
  std::vector<TraceConflict> conflicts;
  std::vector<TraceValueUpdate> updates;
  bool operator==(const TraceStep&) const = default;
};

struct PropagationTrace {
  int version = 1;
  std::vector<TraceStep> steps;
  // Diagnostics the run emitted (e.g. an iteration guard), as text.
  std::vector<std::string> notes;
  bool operator==(const PropagationTrace&) const = default;
};

// The factor table of a projection, labelled.
TraceFactorTable toTraceTable(const ShardingProjection& p, const std::vector<std::string>& valueNames);

// JSON text of a trace (pretty-printed with `indent` spaces; -1 compact).
std::string traceToJson(const PropagationTrace& trace, int indent = 2);
// Parse JSON produced by `traceToJson`; nullopt with `error` on bad input.
std::optional<PropagationTrace> traceFromJson(const std::string& text, std::string* error = nullptr);

// Resolve a value reference in `module` (nullptr if it does not exist; for
// "func_result" `funcOut` receives the function and the result is nullptr).
ir::Value* resolveValueRef(ir::Module& module, const TraceValueRef& ref, ir::Op** funcOut = nullptr);
// The same in the pre-order numbering `ops` (preOrderOps), computed once by
// callers that resolve many references (a walk of the module per reference
// costs seconds over a large run).
ir::Value* resolveValueRef(const std::vector<ir::Op*>& ops, const TraceValueRef& ref,
                           ir::Op** funcOut = nullptr);
// Pre-order numbering of every op of the module (module op excluded).
std::vector<ir::Op*> preOrderOps(ir::Module& module);

// Apply every step's updates to `module`. Returns false (with `error`) when
// a reference does not resolve.
bool replayTrace(ir::Module& module, const PropagationTrace& trace, std::string* error = nullptr);

}  // namespace shardscope::propagation
