#include "ir/collective_ops.h"

#include <array>
#include <utility>

namespace shardscope::ir {

namespace {

struct KindInfo {
  CollectiveKind kind;
  const char* opName;
  const char* axesAttr;  // nullptr: no axes
  bool perDim;
  bool reduction;
  bool missingInputAllowed;
};

constexpr std::array<KindInfo, 8> kKinds = {{
    {CollectiveKind::AllGather, "sdy.all_gather", "gathering_axes", true, false, false},
    {CollectiveKind::AllSlice, "sdy.all_slice", "slicing_axes", true, false, true},
    {CollectiveKind::AllToAll, "sdy.all_to_all", "params", false, false, false},
    {CollectiveKind::CollectivePermute, "sdy.collective_permute", nullptr, false, false, false},
    {CollectiveKind::AllReduce, "sdy.all_reduce", "reduction_axes", false, true, true},
    {CollectiveKind::ReduceScatter, "sdy.reduce_scatter", "reduce_scatter_axes", true, true, true},
    {CollectiveKind::ShardedToUnreduced, "sdy.sharded_to_unreduced", "axes", true, false, false},
    {CollectiveKind::ReplicatedToUnreduced, "sdy.replicated_to_unreduced", "axes", false, false,
     false},
}};

const KindInfo& info(CollectiveKind kind) { return kKinds[static_cast<size_t>(kind)]; }

std::unique_ptr<Op> makeBare(CollectiveKind kind, Value* tensor, TensorSharding outSharding,
                             SourceLoc loc) {
  auto op = std::make_unique<Op>(collectiveOpName(kind), loc);
  op->addOperand(tensor);
  op->addResult(tensor->type);
  op->setAttr(kOutShardingAttr, std::move(outSharding), true);
  return op;
}

std::unique_ptr<Op> makePerDim(CollectiveKind kind, Value* tensor, std::vector<AxisRefList> axes,
                               TensorSharding outSharding, SourceLoc loc) {
  auto op = makeBare(kind, tensor, std::move(outSharding), loc);
  op->setAttr(collectiveAxesAttrName(kind), AxisRefListsAttr{std::move(axes)}, true);
  return op;
}

}  // namespace

const char* collectiveOpName(CollectiveKind kind) { return info(kind).opName; }

std::optional<CollectiveKind> collectiveKindOf(std::string_view opName) {
  if (opName.rfind("sdy.", 0) != 0) return std::nullopt;
  for (const KindInfo& k : kKinds)
    if (opName == k.opName) return k.kind;
  return std::nullopt;
}

std::optional<CollectiveKind> collectiveKindOf(const Op& op) { return collectiveKindOf(op.name()); }

bool isCollective(const Op& op) { return collectiveKindOf(op).has_value(); }

const char* collectiveAxesAttrName(CollectiveKind kind) { return info(kind).axesAttr; }
bool hasAxesPerDim(CollectiveKind kind) { return info(kind).perDim; }
bool hasReductionOp(CollectiveKind kind) { return info(kind).reduction; }
bool allowsMissingInputSharding(CollectiveKind kind) { return info(kind).missingInputAllowed; }

const TensorSharding* outShardingOf(const Op& op) {
  const Attribute* a = op.attr(kOutShardingAttr);
  return a ? a->as<TensorSharding>() : nullptr;
}

const AxisRefListsAttr* axesPerDimOf(const Op& op) {
  std::optional<CollectiveKind> kind = collectiveKindOf(op);
  if (!kind || !hasAxesPerDim(*kind)) return nullptr;
  const Attribute* a = op.attr(collectiveAxesAttrName(*kind));
  return a ? a->as<AxisRefListsAttr>() : nullptr;
}

const AxisRefList* axisListOf(const Op& op) {
  std::optional<CollectiveKind> kind = collectiveKindOf(op);
  if (!kind || hasAxesPerDim(*kind) || !collectiveAxesAttrName(*kind)) return nullptr;
  const Attribute* a = op.attr(collectiveAxesAttrName(*kind));
  const AxisRefListAttr* list = a ? a->as<AxisRefListAttr>() : nullptr;
  return list ? &list->axes : nullptr;
}

const AllToAllParamsAttr* allToAllParamsOf(const Op& op) {
  if (!op.is("sdy.all_to_all")) return nullptr;
  const Attribute* a = op.attr("params");
  return a ? a->as<AllToAllParamsAttr>() : nullptr;
}

std::string reductionOpOf(const Op& op) {
  const Attribute* a = op.attr(kReductionOpAttr);
  const EnumAttr* e = a ? a->as<EnumAttr>() : nullptr;
  return e ? e->value : "sum";
}

void setReductionOp(Op& op, const std::string& reduction) {
  // Sum is the default: sdy_opt neither stores nor prints it.
  if (reduction.empty() || reduction == "sum")
    op.removeAttr(kReductionOpAttr);
  else
    op.setAttr(kReductionOpAttr, EnumAttr{"sdy", "reduction_op", reduction}, true);
}

std::unique_ptr<Op> makeAllGather(Value* tensor, std::vector<AxisRefList> gatheringAxes,
                                  TensorSharding outSharding, SourceLoc loc) {
  return makePerDim(CollectiveKind::AllGather, tensor, std::move(gatheringAxes),
                    std::move(outSharding), loc);
}

std::unique_ptr<Op> makeAllSlice(Value* tensor, std::vector<AxisRefList> slicingAxes,
                                 TensorSharding outSharding, SourceLoc loc) {
  return makePerDim(CollectiveKind::AllSlice, tensor, std::move(slicingAxes),
                    std::move(outSharding), loc);
}

std::unique_ptr<Op> makeAllToAll(Value* tensor, std::vector<AllToAllParam> params,
                                 TensorSharding outSharding, SourceLoc loc) {
  auto op = makeBare(CollectiveKind::AllToAll, tensor, std::move(outSharding), loc);
  op->setAttr("params", AllToAllParamsAttr{std::move(params)}, true);
  return op;
}

std::unique_ptr<Op> makeCollectivePermute(Value* tensor, TensorSharding outSharding,
                                          SourceLoc loc) {
  return makeBare(CollectiveKind::CollectivePermute, tensor, std::move(outSharding), loc);
}

std::unique_ptr<Op> makeAllReduce(Value* tensor, AxisRefList reductionAxes,
                                  TensorSharding outSharding, SourceLoc loc,
                                  const std::string& reduction) {
  auto op = makeBare(CollectiveKind::AllReduce, tensor, std::move(outSharding), loc);
  op->setAttr("reduction_axes", AxisRefListAttr{std::move(reductionAxes)}, true);
  setReductionOp(*op, reduction);
  return op;
}

std::unique_ptr<Op> makeReduceScatter(Value* tensor, std::vector<AxisRefList> reduceScatterAxes,
                                      TensorSharding outSharding, SourceLoc loc,
                                      const std::string& reduction) {
  auto op = makePerDim(CollectiveKind::ReduceScatter, tensor, std::move(reduceScatterAxes),
                       std::move(outSharding), loc);
  setReductionOp(*op, reduction);
  return op;
}

std::unique_ptr<Op> makeShardedToUnreduced(Value* tensor, std::vector<AxisRefList> axes,
                                           TensorSharding outSharding, SourceLoc loc) {
  return makePerDim(CollectiveKind::ShardedToUnreduced, tensor, std::move(axes),
                    std::move(outSharding), loc);
}

std::unique_ptr<Op> makeReplicatedToUnreduced(Value* tensor, AxisRefList axes,
                                              TensorSharding outSharding, SourceLoc loc) {
  auto op = makeBare(CollectiveKind::ReplicatedToUnreduced, tensor, std::move(outSharding), loc);
  op->setAttr("axes", AxisRefListAttr{std::move(axes)}, true);
  return op;
}

}  // namespace shardscope::ir
