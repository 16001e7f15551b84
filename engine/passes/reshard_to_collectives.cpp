// `-sdy-reshard-to-collectives` (see reshard_to_collectives.h): each
// `sdy.reshard` is replaced by the collectives of its plan.
//
//   %0 = sdy.reshard %arg0 <@mesh, [{"y"}, {}]>     (%arg0: [{"y"}, {"x"}])
// becomes
//   %0 = sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {}]>
//
// The input sharding is read through propagation barriers (a barrier only
// steers propagation; the data is its operand's).
#include "passes/reshard_to_collectives.h"

#include "passes/pass.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {

// sdy's isFullyReplicated: no dimension is sharded (replicated and
// unreduced axes do not count).
bool noDimSharded(const TensorSharding& s) {
  for (const DimensionSharding& d : s.dims)
    if (!d.axes.empty()) return false;
  return true;
}

// Same mesh, or meshes with the same axes that differ only in device order.
bool sameMeshUpToDeviceOrder(const ir::Module& module, const TensorSharding& a, const TensorSharding& b) {
  if (a.mesh == b.mesh) return true;
  const Mesh* ma = module.meshOf(a);
  const Mesh* mb = module.meshOf(b);
  return ma && mb && ma->isMaximal() == mb->isMaximal() && ma->axes == mb->axes;
}

bool isMaximal(const ir::Module& module, const std::optional<TensorSharding>& s) {
  if (!s) return false;
  const Mesh* m = module.meshOf(*s);
  return m && m->isMaximal();
}

// The op for one planned collective on `input`.
std::unique_ptr<ir::Op> buildCollective(const PlannedCollective& c, ir::Value* input, ir::SourceLoc loc) {
  switch (c.kind) {
    case CollectiveKind::AllGather: return ir::makeAllGather(input, c.axesPerDim, c.out, loc);
    case CollectiveKind::AllSlice: return ir::makeAllSlice(input, c.axesPerDim, c.out, loc);
    case CollectiveKind::AllToAll: return ir::makeAllToAll(input, {c.param}, c.out, loc);
    default: return ir::makeCollectivePermute(input, c.out, loc);
  }
}

ir::Value* skipBarriers(ir::Value* v) {
  while (v->definingOp && v->definingOp->is("sdy.propagation_barrier") && v->definingOp->numOperands() == 1)
    v = v->definingOp->operand(0);
  return v;
}

// Rewrites one reshard as its plan says; leaves it when there is none.
void lowerReshard(ir::Module& module, ir::Op& reshard, const ReshardToCollectivesOptions& options) {
  std::optional<ReshardLowering> lowering = planReshardOp(module, reshard, options.keepRedundantReshards);
  if (!lowering) return;
  ir::Value* result = lowering->useOperand ? reshard.operand(0) : lowering->source;
  for (const PlannedCollective& c : lowering->plan) {
    ir::Op* op = reshard.parentBlock()->insertBefore(&reshard, buildCollective(c, result, reshard.loc()));
    result = op->result(0);
  }
  reshard.result(0)->replaceAllUsesWith(result);
  util::eraseOp(&reshard);
}

}  // namespace

std::optional<ReshardLowering> planReshardOp(const ir::Module& module, const ir::Op& reshard, bool keepRedundant) {
  const ir::Attribute* attr = reshard.attr("sharding");
  if (!attr || !attr->as<TensorSharding>() || reshard.numOperands() != 1 || reshard.numResults() != 1)
    return std::nullopt;
  ReshardLowering lowering;
  lowering.out = *attr->as<TensorSharding>();
  lowering.source = skipBarriers(reshard.operand(0));
  std::optional<TensorSharding> inSharding = util::getSharding(lowering.source);
  TensorSharding& out = lowering.out;

  if (keepRedundant && util::isEquivalent(inSharding, out)) return std::nullopt;
  if (isMaximal(module, inSharding) || isMaximal(module, out)) return std::nullopt;
  const bool outReplicated = noDimSharded(out);
  if (!outReplicated && inSharding && !sameMeshUpToDeviceOrder(module, *inSharding, out)) return std::nullopt;

  lowering.in = inSharding ? *inSharding : TensorSharding::replicatedOf(out.mesh, out.rank(), /*closed=*/false);
  const TensorSharding& in = lowering.in;
  if (in.rank() != out.rank()) return std::nullopt;
  if (outReplicated) {
    if (noDimSharded(in)) {
      lowering.useOperand = true;  // nothing to move
      return lowering;
    }
    // Gather everything on the input's own mesh.
    out = TensorSharding::replicatedOf(in.mesh, in.rank(), /*closed=*/true);
  }
  const Mesh* mesh = module.meshOf(in);
  if (!mesh || !sameMeshUpToDeviceOrder(module, in, out)) return std::nullopt;
  lowering.plan = planReshard(in, out, *mesh, reshard.result(0)->type->shape);
  return lowering;
}

bool reshardToCollectives(ir::Module& module, ir::DiagnosticSink& diags,
                          const ReshardToCollectivesOptions& options) {
  (void)diags;
  if (!ir::Op::anyLive("sdy.reshard")) return true;
  std::vector<ir::Op*> reshards;
  module.op->walk([&](ir::Op& op) {
    if (op.is("sdy.reshard")) reshards.push_back(&op);
  });
  // In program order: a later reshard reads the sharding an earlier one's
  // collectives produce.
  for (ir::Op* reshard : reshards) lowerReshard(module, *reshard, options);
  return true;
}

void registerReshardToCollectivesPass(std::vector<PassInfo>& out) {
  out.push_back(PassInfo{"sdy-reshard-to-collectives",
                         "Turn each sdy.reshard into the collectives that perform it",
                         {"keep-redundant-reshards"},
                         [](ir::Module& m, const PassOptions& o, PassContext& ctx) {
                           ReshardToCollectivesOptions opts;
                           opts.keepRedundantReshards = o.getBool("keep-redundant-reshards");
                           return reshardToCollectives(m, ctx.diags, opts);
                         }});
}

}  // namespace shardscope::passes
