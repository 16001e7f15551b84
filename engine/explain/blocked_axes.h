// "Why is this dimension not sharded on that axis?": for one dimension of one
// tensor, every mesh axis it could have held (a candidate) and what kept it
// away, read from the op sharding rules of the ops around the tensor, the
// way propagation decides (basic factor propagation's compatible axes, then
// its cuts across and within factors).
//
// Reasons, checked in this order:
//   replicated     the tensor lists the axis in replicated={...}
//   used           the axis is on another dimension of the tensor (or unreduced)
//   closed         the dimension is closed (written without `?`): nothing is added
//   blocked factor the factor connecting the axis does not propagate
//   divisibility   a factor that is not the dimension's minor-most one must be
//                  divisible by the axis (numbers: factor size, axes before, axis size)
//   priority       a tensor with a higher user priority (lower pN) holds other axes
//                  on the factor: it was propagated in an earlier pass and won
//   conflict       the factor's tensors hold different axes (or another factor of
//                  one of them uses the axis), so propagation agrees on neither
//   no source      no tensor connected to the dimension by a factor holds the axis
//   not yet        nothing blocks it: a later step can still propagate it
//
// Example (mesh "x"=2, "y"=2):
//   %arg0: [{"x"}, {}]   %arg1: [{"y"}, {}]   %0 = stablehlo.add %arg0, %arg1 -> [{"x", ?}, {?}]
// dimension 0 of %0, candidate "y": conflict: factor i of %0 = stablehlo.add
// (line 4) is sharded on "x" in %arg0 but on "y" in %arg1.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "explain/trace_index.h"
#include "ir/operation.h"
#include "sharding/tensor_sharding.h"

namespace shardscope::explain {

enum class BlockReason {
  Replicated,
  UsedElsewhere,
  Closed,
  BlockedFactor,
  Divisibility,
  Priority,
  Conflict,
  NoSource,
  NotYet,
};
// "replicated", "used", "closed", "blocked factor", "divisibility",
// "priority", "conflict", "no source", "not yet".
const char* blockReasonName(BlockReason reason);

// A tensor of a module: an SSA value, or result `result` of a func.func.
struct TensorRef {
  const ir::Value* value = nullptr;
  const ir::Op* func = nullptr;
  unsigned result = 0;
  static TensorRef of(const ir::Value* v) { return {v, nullptr, 0}; }
  static TensorRef funcResult(const ir::Op* func, unsigned i) { return {nullptr, func, i}; }
  bool valid() const { return value || func; }
  bool operator==(const TensorRef&) const = default;
};

// The shardings of a module's tensors at one moment, and their names.
struct ShardingState {
  const ir::Module* module = nullptr;
  std::function<std::optional<TensorSharding>(const TensorRef&)> sharding;
  // The user priority dimension `dim`'s axes come from (nullopt: none known).
  std::function<std::optional<int64_t>(const TensorRef&, int64_t dim)> priority;
  std::function<std::string(const TensorRef&)> name;
};

// The shardings written in `module` now. A module after propagation keeps
// no trace of which dimensions were open, so op results count as open and
// only what users write (function arguments and results, sharding
// constraints, manual computations, data-flow edges) keeps its closedness.
ShardingState moduleShardingState(const ir::Module& module);
// The shardings after the first `steps` steps of `index`'s trace (its input
// module's tensors), with priorities followed back to their seeds.
ShardingState traceShardingState(const TraceIndex& index, size_t steps);

struct AxisBlock {
  AxisRef axis;  // the candidate
  BlockReason reason = BlockReason::NoSource;
  // "conflict: factor i of %0 = stablehlo.add (line 4) is sharded on "x" in
  // %arg0 but on "y" in %arg1".
  std::string text;
  // What the sentence names (empty / -1 / 0 where it does not apply).
  std::string op;  // "%0 = stablehlo.add"
  uint32_t line = 0;
  std::string factor;                // "i"
  std::string source, sourceAxes;    // the tensor offering the axis and its axes on the factor
  std::string blocker, blockerAxes;  // the tensor keeping it away and what it holds
  int64_t otherDim = -1;             // used: the dimension holding the axis
  int64_t factorSize = 0;            // divisibility: the factor's size,
  int64_t shardedBefore = 1;         //   the product of the axes before the candidate,
  int64_t axisSize = 0;              //   and the candidate's size
  std::optional<int64_t> sourcePriority, blockerPriority;  // priority
};

struct DimensionBlocks {
  std::string value;  // "%0"
  int64_t dim = 0;
  int64_t size = -1;  // the dimension's size (-1 when unknown)
  std::optional<DimensionSharding> sharding;
  std::vector<AxisBlock> axes;  // one per candidate, in mesh order
  // `%0 dimension 1 {"x"}` then one line per candidate: `"y": conflict: ...`.
  std::string text() const;
};

// Every candidate axis of dimension `dim` of `tensor` and what blocked it.
// Candidates are the mesh's axes the dimension does not fully hold (a
// sub-axis when that is what a neighbour offers).
DimensionBlocks explainBlockedAxes(const ShardingState& state, const TensorRef& tensor,
                                   int64_t dim);

// What blocked `axis` on dimension `dim` of `tensor` (nullopt when the
// dimension holds it).
std::optional<AxisBlock> explainBlockedAxis(const ShardingState& state, const TensorRef& tensor,
                                            int64_t dim, const AxisRef& axis);

}  // namespace shardscope::explain
