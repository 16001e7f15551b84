// "Why is this sharded so?": for one dimension of one value, where each of
// its axes came from. Walks the trace backwards from the step that gave the
// value the axis: which op, along which factor, from which tensor, and so
// on back to a seed: a function argument or result sharding, a sharding
// constraint, a manual computation, or a user's sharding on an op.
//
// Example (`%1 = add %arg0, %arg0`; `%2 = dot_general %1, %arg1`):
//   %2 dim 0 = {"a", ?}
//     axis "a"
//       step 3: dot_general %2 (line 6), factor i (lhs non-contracting) from operand-0 (%1) dim 0
//       step 1: add %1 (line 5), factor i (pass-through) from operand-0 (%arg0) dim 0
//       seed: function argument 0 of @main (%arg0), line 3
#pragma once
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "explain/trace_index.h"
#include "sharding/tensor_sharding.h"

namespace shardscope::explain {

enum class SeedKind {
  FunctionArgument,    // `sdy.sharding` in a func.func's arg_attrs
  FunctionResult,      // ... in its res_attrs
  ShardingConstraint,  // sdy.sharding_constraint
  ManualComputation,   // in/out shardings of sdy.manual_computation
  DataFlowEdge,        // the sharding of an sdy.data_flow_edge (while/case values)
  OpSharding,          // `sdy.sharding` a user put on an op's result
};
// "function argument", "function result", "sharding constraint", ...
std::string seedKindName(SeedKind kind);

struct OriginSeed {
  SeedKind kind = SeedKind::OpSharding;
  TraceValueRef value;
  std::string valueName;  // "%arg0"
  int64_t dim = 0;
  std::optional<int64_t> priority;  // the dimension's user priority, if written
  uint32_t line = 0;
  // "function argument 0 of @main (%arg0)".
  std::string description;
};

// One hop back: at `step`, `axis` reached `to` (dimension `toDim`) from
// `from` (dimension `fromDim`) along factor `factor` of op `op`.
struct OriginHop {
  int64_t step = 0;
  std::string op;  // "stablehlo.dot_general"
  int64_t opIndex = -1;
  uint32_t line = 0;
  int64_t factor = -1;
  std::string factorName;   // "i"
  std::string factorKinds;  // "lhs non-contracting, pass-through"
  AxisRef axis;
  TraceValueRef from, to;
  std::string fromName, toName;      // "%1", "%2"
  std::string fromTensor, toTensor;  // "operand-0", "result-0"
  int64_t fromDim = -1, toDim = -1;
  // The target got the axis because it shares a sharding group with the
  // tensor the step updated (the hop then has no factor).
  bool viaShardingGroup = false;
  bool operator==(const OriginHop&) const = default;
};

struct AxisOrigin {
  AxisRef axis;
  std::vector<OriginHop> hops;      // from the value back towards the seed
  std::optional<OriginSeed> seed;   // where the chain starts, when found
  std::string note;                 // why the chain stops early ("" when it reaches a seed)
};

struct DimensionOrigin {
  TraceValueRef value;
  std::string valueName;
  int64_t dim = 0;
  size_t steps = 0;                       // state after this many steps
  std::optional<DimensionSharding> sharding;  // the dimension at that point
  std::vector<AxisOrigin> axes;           // one per axis of the dimension, major to minor
  // The indented text shown in the Why panel.
  std::string text() const;
};

inline constexpr size_t kAllSteps = std::numeric_limits<size_t>::max();

// Where each axis of dimension `dim` of `value` came from, after the first
// `steps` steps of the trace (all of them by default).
DimensionOrigin explainDimension(const TraceIndex& index, const TraceValueRef& value, int64_t dim,
                                 size_t steps = kAllSteps);
// Every dimension of `value`.
std::vector<DimensionOrigin> explainValue(const TraceIndex& index, const TraceValueRef& value,
                                          size_t steps = kAllSteps);
// The seed describing `value`'s own sharding (as if it held the axis from the start).
OriginSeed describeSeed(const TraceIndex& index, const TraceValueRef& value, int64_t dim);

}  // namespace shardscope::explain
