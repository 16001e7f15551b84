// The sdy collective ops: what each one is called, where its attributes
// live, and builders for passes that insert them.
//
// Every collective takes one tensor (operand 0) and gives one result of the
// same type, whose sharding is the op's `out_sharding`. Its other
// attributes are inherent ones, by name:
//
//   op                           axes attribute                      other
//   sdy.all_gather               gathering_axes: AxisRefListsAttr
//   sdy.all_slice                slicing_axes: AxisRefListsAttr
//   sdy.all_to_all               params: AllToAllParamsAttr
//   sdy.collective_permute       (none)
//   sdy.all_reduce               reduction_axes: AxisRefListAttr     reduction_op
//   sdy.reduce_scatter           reduce_scatter_axes: AxisRefListsAttr  reduction_op
//   sdy.sharded_to_unreduced     axes: AxisRefListsAttr
//   sdy.replicated_to_unreduced  axes: AxisRefListAttr
//
// plus `out_sharding: TensorSharding` on all of them. `reduction_op` is an
// EnumAttr {"sdy", "reduction_op", "max"|"min"}; it is absent for the
// default, sum (and then not printed, as sdy_opt does).
//
// Example: an all-gather of dimension 1 along "x", written
//   %1 = sdy.all_gather [{}, {"x"}] %0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<16x8xf32>
// is built by
//   makeAllGather(v0, {{}, {AxisRef{"x"}}}, outSharding, loc)
// and inserted with Block::insertAfter / insertBefore.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/operation.h"

namespace shardscope::ir {

enum class CollectiveKind {
  AllGather,
  AllSlice,
  AllToAll,
  CollectivePermute,
  AllReduce,
  ReduceScatter,
  ShardedToUnreduced,
  ReplicatedToUnreduced,
};

inline constexpr const char* kOutShardingAttr = "out_sharding";
inline constexpr const char* kReductionOpAttr = "reduction_op";

// "sdy.all_gather" for AllGather.
const char* collectiveOpName(CollectiveKind kind);
// The kind of a collective op, or nullopt for any other op.
std::optional<CollectiveKind> collectiveKindOf(const Op& op);
std::optional<CollectiveKind> collectiveKindOf(std::string_view opName);
bool isCollective(const Op& op);
// The name of the attribute holding the kind's axes ("gathering_axes"), or
// nullptr for collective_permute.
const char* collectiveAxesAttrName(CollectiveKind kind);
// Whether the kind's axes are one list per dimension (AxisRefListsAttr);
// all_reduce and replicated_to_unreduced have one flat list.
bool hasAxesPerDim(CollectiveKind kind);
// Whether the kind carries a `reduction_op` (all_reduce, reduce_scatter).
bool hasReductionOp(CollectiveKind kind);
// Whether the verifier accepts the operand without a sharding (the op then
// reads it as fully replicated): all_slice, all_reduce, reduce_scatter.
bool allowsMissingInputSharding(CollectiveKind kind);

// Accessors: nullptr (or the default) when the op has no such attribute.
const TensorSharding* outShardingOf(const Op& op);
const AxisRefListsAttr* axesPerDimOf(const Op& op);      // per-dimension kinds
const AxisRefList* axisListOf(const Op& op);             // all_reduce, replicated_to_unreduced
const AllToAllParamsAttr* allToAllParamsOf(const Op& op);  // all_to_all
// "sum" (the default), "max" or "min".
std::string reductionOpOf(const Op& op);
void setReductionOp(Op& op, const std::string& reduction);

// Builders: a new op (not inserted anywhere) reading `tensor`, with one
// result of `tensor`'s type. `reduction` is "sum", "max" or "min".
std::unique_ptr<Op> makeAllGather(Value* tensor, std::vector<AxisRefList> gatheringAxes,
                                  TensorSharding outSharding, SourceLoc loc = {});
std::unique_ptr<Op> makeAllSlice(Value* tensor, std::vector<AxisRefList> slicingAxes,
                                 TensorSharding outSharding, SourceLoc loc = {});
std::unique_ptr<Op> makeAllToAll(Value* tensor, std::vector<AllToAllParam> params,
                                 TensorSharding outSharding, SourceLoc loc = {});
std::unique_ptr<Op> makeCollectivePermute(Value* tensor, TensorSharding outSharding,
                                          SourceLoc loc = {});
std::unique_ptr<Op> makeAllReduce(Value* tensor, AxisRefList reductionAxes,
                                  TensorSharding outSharding, SourceLoc loc = {},
                                  const std::string& reduction = "sum");
std::unique_ptr<Op> makeReduceScatter(Value* tensor, std::vector<AxisRefList> reduceScatterAxes,
                                      TensorSharding outSharding, SourceLoc loc = {},
                                      const std::string& reduction = "sum");
std::unique_ptr<Op> makeShardedToUnreduced(Value* tensor, std::vector<AxisRefList> axes,
                                           TensorSharding outSharding, SourceLoc loc = {});
std::unique_ptr<Op> makeReplicatedToUnreduced(Value* tensor, AxisRefList axes,
                                              TensorSharding outSharding, SourceLoc loc = {});

}  // namespace shardscope::ir
