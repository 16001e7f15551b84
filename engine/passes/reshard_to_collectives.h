// `-sdy-reshard-to-collectives`: every `sdy.reshard` becomes the collectives
// that move its input sharding to its output sharding.
//
// The plan (planReshard) is a pure function of the two shardings, the mesh
// and the tensor's shape; the pass only materialises it as ops. The cost
// report (engine/comm) uses the same plan for reshards it was not asked to
// rewrite.
//
// Example, mesh <["x"=2, "y"=2]>, tensor<16x8xf32>:
//   in  [{"x"}, {}]     out [{}, {"y"}]
//   -> sdy.all_slice [{}, {"y"}]      out_sharding=<@m, [{"x"}, {"y"}]>
//      sdy.all_gather [{"x"}, {}]     out_sharding=<@m, [{}, {"y"}]>
//
// The collectives are tried in the reference's order, cheapest kinds first:
// all-slice (shrinks the local shard, no traffic), collective-permute (same
// size, one peer each), all-to-all (same size, moves an axis between
// dimensions), and all-gather (grows the local shard) last.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/collective_ops.h"
#include "ir/diagnostics.h"
#include "ir/operation.h"
#include "sharding/tensor_sharding.h"

namespace shardscope::passes {

// The collective ops and their `{"x"}: 0->1` all-to-all parameters are the
// IR's (ir/collective_ops.h).
using CollectiveKind = ir::CollectiveKind;
using AllToAllParam = ir::AllToAllParam;
// "all-gather", "all-slice", ... (the words of the report).
const char* collectiveKindName(CollectiveKind kind);

// One collective of a plan.
struct PlannedCollective {
  CollectiveKind kind = CollectiveKind::AllGather;
  // All-gather: the gathering axes per dimension; all-slice: the slicing axes.
  std::vector<AxisRefList> axesPerDim;
  // All-to-all: its (single) parameter.
  AllToAllParam param;
  // The sharding after this collective (closed, on the mesh it reaches).
  TensorSharding out;
  bool operator==(const PlannedCollective&) const = default;
};

// The collectives taking a tensor of `shape` from `in` to `out`, both on
// `mesh` (out's mesh reference may differ from in's in device order only:
// a collective-permute then reorders the devices). Empty when the two
// already agree. `in` and `out` must have the same rank and unreduced axes.
std::vector<PlannedCollective> planReshard(const TensorSharding& in, const TensorSharding& out,
                                           const Mesh& mesh, const std::vector<int64_t>& shape);

// What lowering one `sdy.reshard` op takes: the value the collectives start
// from (its operand, past propagation barriers), the shardings they go
// between, and the plan. Nothing (nullopt) when the reshard must stay: to or
// from a single-device mesh, between meshes whose axes differ, ranks that
// differ, or (with `keepRedundant`) a reshard that changes nothing.
struct ReshardLowering {
  ir::Value* source = nullptr;
  TensorSharding in, out;
  // Both sides replicated: the reshard's own operand replaces it as it is.
  bool useOperand = false;
  std::vector<PlannedCollective> plan;
};
std::optional<ReshardLowering> planReshardOp(const ir::Module& module, const ir::Op& reshard,
                                             bool keepRedundant = false);

struct ReshardToCollectivesOptions {
  // Keep a reshard whose input sharding already equals its output sharding
  // (it is erased otherwise).
  bool keepRedundantReshards = false;
};
// The pass. Reshards it cannot express as collectives stay: to or from a
// single-device (maximal) mesh, and between meshes whose axes differ.
bool reshardToCollectives(ir::Module& module, ir::DiagnosticSink& diags,
                          const ReshardToCollectivesOptions& options = {});

}  // namespace shardscope::passes
