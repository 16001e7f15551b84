// Reshards on function results, call arguments and data-flow edges (see
// edge_reshards.h).
#include "passes/explicit_reshards/edge_reshards.h"

#include "passes/explicit_reshards/unreduced_collectives.h"
#include "passes/pass_utils.h"

namespace shardscope::passes::explicit_reshards {

namespace {

ir::Op* terminatorOf(const ir::Op& op, unsigned region) {
  if (region >= op.numRegions() || op.region(region).empty()) return nullptr;
  return op.region(region).front().terminator();
}

// Where the sharding of an edge owner comes from, and the operands feeding it.
struct Edge {
  std::optional<TensorSharding> target;
  std::vector<ir::Use> sources;
};

std::vector<Edge> edgesOf(ir::Op* op) {
  std::vector<Edge> edges;
  bool manual = op->is("sdy.manual_computation");
  if (manual || op->is("sdy.named_computation")) {
    std::vector<std::string> manualAxes = manual ? util::manualAxesOf(*op) : std::vector<std::string>{};
    std::vector<TensorSharding> in = util::inShardingsOf(*op);
    std::vector<TensorSharding> out = util::outShardingsOf(*op);
    ir::Op* ret = terminatorOf(*op, 0);
    for (unsigned i = 0; i < op->numResults(); ++i) {
      Edge e;
      if (i < out.size()) e.target = manual ? util::eraseManualAxes(out[i], manualAxes) : out[i];
      if (ret && i < ret->numOperands()) e.sources.push_back({ret, i});
      edges.push_back(std::move(e));
    }
    for (unsigned i = 0; i < op->numOperands(); ++i) {
      Edge e;
      if (i < in.size()) e.target = in[i];
      e.sources.push_back({op, i});
      edges.push_back(std::move(e));
    }
    return edges;
  }
  for (unsigned i = 0; i < op->numResults(); ++i) {
    Edge e;
    e.target = shardingOf(op->result(i));
    if (op->is("stablehlo.while")) {
      if (i < op->numOperands()) e.sources.push_back({op, i});
      if (ir::Op* ret = terminatorOf(*op, 1); ret && i < ret->numOperands()) e.sources.push_back({ret, i});
    } else if (op->is("stablehlo.case")) {
      for (unsigned r = 0; r < op->numRegions(); ++r)
        if (ir::Op* ret = terminatorOf(*op, r); ret && i < ret->numOperands()) e.sources.push_back({ret, i});
    } else if (i < op->numOperands()) {  // optimization_barrier
      e.sources.push_back({op, i});
    }
    edges.push_back(std::move(e));
  }
  return edges;
}

std::string describeUse(const ir::Use& use) {
  return "operand " + std::to_string(use.index) + " of " + use.user->name();
}

}  // namespace

std::optional<TensorSharding> allReduceUnkeptUnreducedAxes(const ir::Use& use,
                                                           const std::optional<TensorSharding>& source,
                                                           const std::optional<TensorSharding>& userSharding,
                                                           InsertPoint& at, const ReshardContext& ctx) {
  if (!source || source->unreduced.empty()) return source;
  const Mesh* mesh = ctx.meshes.of(*source);
  if (!mesh) return source;
  AxisRefList kept = userSharding ? userSharding->unreduced : AxisRefList{};
  AxisRefList reduce = axisSetDiff(source->unreduced, kept, *mesh);
  if (reduce.empty()) return source;
  TensorSharding reduced = *source;
  reduced.unreduced = axisSetDiff(source->unreduced, reduce, *mesh);
  if (reduced.unreduced.empty()) reduced.unreducedReduction = "sum";
  ir::Op* allReduce =
      createAllReduce(at, use.user->operand(use.index), reduce, reduced, source->unreducedReduction, use.user->loc());
  use.user->setOperand(use.index, allReduce->result(0));

  ReshardCause cause = ReshardCause::make(
      ReshardCause::Kind::AllReduce, allReduce, use.user, ReshardCause::Site::Operand, use.index, source, reduced,
      describeUse(use) + " holds partial sums over " + strAxisList(reduce) +
          " (unreduced axes) that its user does not keep unreduced");
  cause.axes = reduce;
  ctx.record(std::move(cause));
  return reduced;
}

std::optional<TensorSharding> reshardUseToTarget(const ir::Use& use, const std::optional<TensorSharding>& target,
                                                 InsertPoint& at, bool fullVersion, const ReshardContext& ctx) {
  std::optional<TensorSharding> sharding = shardingOf(use.user->operand(use.index));
  sharding = allReduceUnkeptUnreducedAxes(use, sharding, target, at, ctx);
  if (std::optional<TensorSharding> unreduced = makeUnreducedAxes(use, target, at, ctx)) sharding = unreduced;
  if (!fullVersion || equivalentShardings(sharding, target)) return sharding;
  // Not equivalent, so when there is no target the operand has a sharding.
  TensorSharding to = target ? *target
                             : TensorSharding::replicatedOf(sharding->mesh, sharding->rank(), /*closed=*/true);
  ir::Op* reshard = createReshard(at, use.user->operand(use.index), to, use.user->loc());
  use.user->setOperand(use.index, reshard->result(0));

  ReshardCause cause = ReshardCause::make(
      ReshardCause::Kind::Reshard, reshard, use.user, ReshardCause::Site::Operand, use.index, sharding, to,
      describeUse(use) + " is sharded " + (sharding ? sharding->strBody() : std::string("<none>")) +
          " but must arrive as " + to.strBody());
  ctx.record(std::move(cause));
  return to;
}

void reshardDataFlowEdges(ir::Op* op, bool fullVersion, const ReshardContext& ctx) {
  for (const Edge& edge : edgesOf(op)) {
    for (const ir::Use& source : edge.sources) {
      InsertPoint at = InsertPoint::afterValue(source.user->operand(source.index));
      reshardUseToTarget(source, edge.target, at, fullVersion, ctx);
    }
  }
}

void reshardCallArguments(ir::Op* call, const ReshardContext& ctx) {
  util::SymbolTable symbols(ctx.module);
  ir::Op* callee = symbols.lookupFunc(util::calleeOf(*call));
  if (!callee) return;
  std::vector<std::optional<TensorSharding>> targets;
  if (auto args = util::funcArgShardings(ctx.module, *callee)) {
    targets.assign(args->begin(), args->end());
  } else {
    // The callee has no argument shardings: the arguments are replicated,
    // on the mesh of the first argument sharded on a real mesh.
    std::optional<MeshRef> mesh;
    for (ir::Value* operand : call->operands()) {
      std::optional<TensorSharding> s = shardingOf(operand);
      const Mesh* m = s ? ctx.meshes.of(*s) : nullptr;
      if (m && !m->isMaximal()) {
        mesh = s->mesh;
        break;
      }
    }
    if (!mesh) return;
    for (ir::Value* operand : call->operands())
      targets.push_back(TensorSharding::replicatedOf(*mesh, operand->type->rank(), /*closed=*/true));
  }
  for (unsigned i = 0; i < call->numOperands() && i < targets.size(); ++i) {
    InsertPoint at = InsertPoint::afterValue(call->operand(i));
    reshardUseToTarget({call, i}, targets[i], at, /*fullVersion=*/true, ctx);
  }
}

void reshardFuncResults(ir::Op* func, bool fullVersion, const ReshardContext& ctx) {
  ir::Op* ret = terminatorOf(*func, 0);
  if (!ret) return;
  InsertPoint at = InsertPoint::beforeOp(ret);
  for (unsigned i = 0; i < ret->numOperands(); ++i)
    reshardUseToTarget({ret, i}, util::funcResultSharding(*func, i), at, fullVersion, ctx);
}

}  // namespace shardscope::passes::explicit_reshards
