// Ops that run on one device (see single_device_ops.h).
#include "passes/explicit_reshards/single_device_ops.h"

#include "passes/explicit_reshards/insert_point.h"
#include "passes/pass_utils.h"

namespace shardscope::passes::explicit_reshards {

namespace {

void recordReshard(const ReshardContext& ctx, const ir::Op* op, const ir::Op* inserted, ReshardCause::Site site,
                   unsigned index, const std::optional<TensorSharding>& from, const TensorSharding& to,
                   const std::string& why) {
  ctx.record(ReshardCause::make(ReshardCause::Kind::Reshard, inserted, op, site, index, from, to, why));
}

}  // namespace

bool isSingleDeviceOp(const MeshTable& meshes, const OptionalShardings& results) {
  for (const auto& s : results)
    if (isSingleDeviceSharding(meshes, s)) return true;
  return false;
}

bool reshardSingleDeviceOp(ir::Op* op, const OptionalShardings& results, ir::DiagnosticSink& diags,
                           const ReshardContext& ctx) {
  std::optional<int64_t> device;
  std::string deviceMesh;
  for (const auto& s : results) {
    if (!isSingleDeviceSharding(ctx.meshes, s)) continue;
    int64_t id = ctx.meshes.of(*s)->deviceIds.front();
    if (device && *device != id) {
      diags.error(op->loc(), "'" + op->name() + "' op has conflicting single-device result shardings");
      return false;
    }
    device = id;
    deviceMesh = s->mesh.name;
  }
  std::optional<OpMesh> global;
  if (auto g = ctx.meshes.firstWithAxes()) global = OpMesh{g->first, g->second};
  if (!global) return true;

  const MeshRef deviceRef{deviceMesh, std::nullopt};
  TensorSharding onDevice = TensorSharding::replicatedOf(deviceRef, 0, /*closed=*/true);
  std::string why = op->name() + " runs on the single device of @" + deviceMesh;

  InsertPoint before = InsertPoint::beforeOp(op);
  for (unsigned i = 0; i < op->numOperands(); ++i) {
    ir::Value* operand = op->operand(i);
    if (!operand->type->isRankedTensor()) continue;
    int64_t rank = operand->type->rank();
    TensorSharding replicated = TensorSharding::replicatedOf(global->ref(), rank, /*closed=*/true);
    std::optional<TensorSharding> source = shardingOf(operand);
    TensorSharding from = source ? *source : replicated;
    if (equivalentShardings(from, onDevice) && from.mesh == onDevice.mesh) continue;
    ir::Value* input = operand;
    if (!(shardsNoDimension(from) && from.mesh.name == global->name)) {
      ir::Op* toReplicated = createReshard(before, input, replicated, op->loc());
      recordReshard(ctx, op, toReplicated, ReshardCause::Site::Operand, i, from, replicated,
                    why + ": operand " + std::to_string(i) + " is first replicated on @" + global->name);
      input = toReplicated->result(0);
    }
    ir::Op* toDevice = createReshard(before, input, onDevice, op->loc());
    recordReshard(ctx, op, toDevice, ReshardCause::Site::Operand, i, replicated, onDevice,
                  why + ": operand " + std::to_string(i) + " is sent to it");
    op->setOperand(i, toDevice->result(0));
  }

  InsertPoint after = InsertPoint::afterOp(op);
  for (unsigned i = 0; i < op->numResults(); ++i) {
    ir::Value* result = op->result(i);
    if (!result->type->isRankedTensor()) continue;
    int64_t rank = result->type->rank();
    TensorSharding replicated = TensorSharding::replicatedOf(global->ref(), rank, /*closed=*/true);
    TensorSharding target = i < results.size() && results[i] && !isSingleDeviceSharding(ctx.meshes, results[i])
                                ? *results[i]
                                : replicated;
    ir::Op* toReplicated = createReshard(after, result, replicated, op->loc());
    result->replaceUsesWithIf(toReplicated->result(0), [&](const ir::Use& u) { return u.user != toReplicated; });
    recordReshard(ctx, op, toReplicated, ReshardCause::Site::Result, i, onDevice, replicated,
                  why + ": result " + std::to_string(i) + " is replicated from it on @" + global->name);
    if (target == replicated) continue;
    ir::Value* value = toReplicated->result(0);
    ir::Op* toTarget = createReshard(after, value, target, op->loc());
    value->replaceUsesWithIf(toTarget->result(0), [&](const ir::Use& u) { return u.user != toTarget; });
    recordReshard(ctx, op, toTarget, ReshardCause::Site::Result, i, replicated, target,
                  why + ": result " + std::to_string(i) + " is then resharded as it was");
  }

  for (unsigned i = 0; i < op->numResults(); ++i) {
    ir::Value* result = op->result(i);
    if (result->type->isRankedTensor())
      util::setSharding(result, onDevice);
    else if (result->type->isToken())
      util::setSharding(result, TensorSharding::replicatedOf(global->ref(), 0, /*closed=*/true));
  }
  return true;
}

}  // namespace shardscope::passes::explicit_reshards
