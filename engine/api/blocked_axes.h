// Why a dimension is not sharded on an axis, for the GUI: every candidate
// mesh axis of one dimension of one value and what blocked it (conflict,
// divisibility, closed dimension, priority, explicitly replicated, axis used
// on another dimension, ...), as plain data. The analysis is
// explain::explainBlockedAxes (engine/explain/blocked_axes.h).
//
// Example: sample_models/alltoall_conflict.mlir after the propagation
// pipeline, %0 dimension 1 gives one entry
//   {axis "\"x\"", reason "used", otherDim 0, text "used: \"x\" already
//    shards dimension 0 of %0 ...; an axis shards at most one dimension"}
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "explain/trace_index.h"

namespace shardscope::api {

struct BlockedAxisEntry {
  std::string axis;  // "\"x\"", "\"x\":(2)2"
  std::string
      reason;        // "conflict", "divisibility", "closed", "priority", "replicated", "used", ...
  std::string text;  // the sentence, starting with the reason
  std::string op;    // "%0 = stablehlo.add" ("" when the reason is in the value itself)
  uint32_t line = 0;
  std::string factor;
  std::string source, sourceAxes;    // the tensor offering the axis
  std::string blocker, blockerAxes;  // the tensor keeping it away
  int64_t otherDim = -1;
  int64_t factorSize = 0, shardedBefore = 1, axisSize = 0;  // divisibility
  std::optional<int64_t> sourcePriority, blockerPriority;   // priority
};

struct BlockedAxesReport {
  std::string value;  // "%0"
  int64_t dim = 0;
  int64_t size = -1;     // the dimension's size
  std::string sharding;  // `{"x", ?}`, "" when the value has none
  std::vector<BlockedAxisEntry> axes;
};

// After the first `steps` steps of the trace `index` links to its input
// module; `value` as the trace names it (a function result too).
BlockedAxesReport blockedAxes(const explain::TraceIndex& index,
                              const propagation::TraceValueRef& value, int64_t dim, size_t steps);

}  // namespace shardscope::api
