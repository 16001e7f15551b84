// `-sdy-resolve-single-device-sharding`: an op whose results live on one
// device (a sharding on a maximal mesh, `<[], device_ids=[3]>`) runs only
// there. It is wrapped in a `stablehlo.if` on "this device is that one"; the
// other devices produce zeros (tokens for token results), and an all-reduce
// (sum) over every axis of the module's mesh hands the value to all devices.
//
//   %1 = sdy.reshard %0 <@dev3, []>
//   %2 = stablehlo.custom_call @F(%1) {sdy.sharding = <[<@dev3, []>]>}
//   %3 = sdy.reshard %2 <@mesh, [{}, {}]>
//     ->
//   %id = stablehlo.partition_id, converted to i64, compared EQ with 3
//   %r = "stablehlo.if"(%eq) ({ %2 = stablehlo.custom_call @F(%0) ...}, { zeros })
//   %3 = sdy.all_reduce {"x", ...} %r out_sharding=<@mesh, [{}, {}]>
//
// Operand reshards onto the single device are bypassed inside the branch
// (and erased once unused); a reshard of the result to the replicated
// sharding the all-reduce produces is folded into it. The device id comes
// from stablehlo.replica_id when replica-count > 1, else partition_id.
#include <algorithm>

#include "ir/attribute.h"
#include "passes/export_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {

const Mesh* meshOf(const ir::Module& module, const TensorSharding& s) {
  return s.mesh.inlineMesh ? &*s.mesh.inlineMesh : module.lookupMesh(s.mesh.name);
}

// The device of a sharding on a maximal mesh.
std::optional<int64_t> singleDeviceOf(const ir::Module& module,
                                      const std::optional<TensorSharding>& s) {
  if (!s) return std::nullopt;
  const Mesh* mesh = meshOf(module, *s);
  if (!mesh || !mesh->isMaximal()) return std::nullopt;
  return mesh->deviceIds.front();
}

bool isSingleDeviceSharding(const ir::Module& module, const std::optional<TensorSharding>& s) {
  return singleDeviceOf(module, s).has_value();
}

// The first `sdy.mesh` with axes: where the all-reduce gathers the value.
ir::Op* globalMesh(ir::Module& module) {
  for (auto& op : module.body().ops())
    if (op->is("sdy.mesh"))
      if (const ir::Attribute* a = op->attr("mesh"))
        if (const Mesh* m = a->as<Mesh>(); m && !m->isMaximal() && !m->axes.empty())
          return op.get();
  return nullptr;
}

// `stablehlo.constant` holding zeros of type `t`.
std::unique_ptr<ir::Op> zerosOf(const ir::Type& t, ir::SourceLoc loc) {
  auto op = std::make_unique<ir::Op>("stablehlo.constant", loc);
  std::string body =
      t.elementType == "i1" ? "<false>" : ir::canonicalDenseBody("<0>", t.elementType);
  op->setAttr("value", ir::OpaqueAttr{"dense" + body + " : " + t.str()}, true);
  op->addResult(t);
  return op;
}

std::unique_ptr<ir::Op> newOp(const char* name, ir::SourceLoc loc, std::vector<ir::Value*> operands,
                              std::vector<ir::Type> results) {
  auto op = std::make_unique<ir::Op>(name, loc);
  for (ir::Value* v : operands) op->addOperand(v);
  for (const ir::Type& t : results) op->addResult(t);
  return op;
}

class Resolver {
 public:
  Resolver(ir::Module& module, ir::DiagnosticSink& diags, ir::Op& mesh, int64_t replicaCount)
      : module_(module), diags_(diags), replicaCount_(replicaCount) {
    meshName_ = util::symNameOf(mesh);
    for (const MeshAxis& axis : mesh.attr("mesh")->as<Mesh>()->axes)
      meshAxes_.push_back(AxisRef{axis.name, {}});
  }

  // The device all single-device results of `op` agree on, if any (an error
  // when they disagree, or when another result is sharded).
  std::optional<int64_t> deviceOf(const ir::Op& op, bool& ok) {
    std::optional<int64_t> device;
    bool shardedElsewhere = false;
    for (unsigned i = 0; i < op.numResults(); ++i) {
      if (!op.result(i)->type->isTensor()) continue;
      std::optional<TensorSharding> s = util::getSharding(op.result(i));
      if (!s) continue;
      if (std::optional<int64_t> d = singleDeviceOf(module_, s)) {
        if (device && *device != *d) {
          diags_.error(op.loc(), "'" + op.name() + "' op has results on different single devices");
          ok = false;
          return std::nullopt;
        }
        device = d;
      } else if (!s->dimAxes().empty()) {  // sdy's "fully replicated" looks at dimensions only
        shardedElsewhere = true;
      }
    }
    if (device && shardedElsewhere) {
      diags_.error(op.loc(), "'" + op.name() + "' op mixes single-device and sharded results");
      ok = false;
      return std::nullopt;
    }
    return device;
  }

  void resolve(ir::Op* op, int64_t device) {
    ir::Block* block = op->parentBlock();
    ir::SourceLoc loc = op->loc();
    auto before = [&](std::unique_ptr<ir::Op> o) { return block->insertBefore(op, std::move(o)); };

    // Is this the device?
    ir::Type u32 = ir::Type::tensor({}, "ui32"), i64 = ir::Type::tensor({}, "i64");
    ir::Op* id = before(newOp(replicaCount_ > 1 ? "stablehlo.replica_id" : "stablehlo.partition_id",
                              loc, {}, {u32}));
    ir::Op* id64 = before(newOp("stablehlo.convert", loc, {id->result(0)}, {i64}));
    auto target = newOp("stablehlo.constant", loc, {}, {i64});
    target->setAttr("value", ir::OpaqueAttr{"dense<" + std::to_string(device) + "> : tensor<i64>"},
                    true);
    ir::Op* targetOp = before(std::move(target));
    ir::Op* isTarget =
        before(newOp("stablehlo.compare", loc, {id64->result(0), targetOp->result(0)},
                     {ir::Type::tensor({}, "i1")}));
    isTarget->setAttr("comparison_direction",
                      ir::EnumAttr{"stablehlo", "comparison_direction", "EQ"}, true);

    std::vector<ir::Type> types;
    for (ir::Value* r : op->resultRange()) types.push_back(r->type);
    ir::Op* ifOp = before(newOp("stablehlo.if", loc, {isTarget->result(0)}, types));

    // Then: the op itself, reading past reshards onto the device.
    ir::Block& thenBlock = ifOp->addRegion().addBlock();
    util::ValueMap map;
    std::unique_ptr<ir::Op> clone = util::cloneOp(*op, map);
    clone->removeAttr(util::kShardingAttr);
    std::vector<ir::Op*> operandReshards;
    for (unsigned i = 0; i < clone->numOperands(); ++i) {
      ir::Op* def = clone->operand(i)->definingOp;
      if (def && def->is("sdy.reshard") &&
          isSingleDeviceSharding(module_, util::getSharding(def->result(0)))) {
        clone->setOperand(i, def->operand(0));
        // Once per reshard: an op may read one twice (`select %p, %0, %0`),
        // and erasing it twice below frees it twice.
        if (std::find(operandReshards.begin(), operandReshards.end(), def) == operandReshards.end())
          operandReshards.push_back(def);
      }
    }
    ir::Op* inner = thenBlock.append(std::move(clone));
    thenBlock.append(newOp("stablehlo.return", loc, inner->results(), {}));

    // Else: zeros.
    ir::Block& elseBlock = ifOp->addRegion().addBlock();
    std::vector<ir::Value*> zeros;
    for (const ir::Type& t : types) {
      ir::Op* z = t.isTensor() ? elseBlock.append(zerosOf(t, loc))
                               : elseBlock.append(newOp("stablehlo.create_token", loc, {}, {t}));
      zeros.push_back(z->result(0));
    }
    elseBlock.append(newOp("stablehlo.return", loc, zeros, {}));

    // Everyone gets the value.
    ir::Op* after = ifOp;
    for (unsigned i = 0; i < op->numResults(); ++i) {
      ir::Value* result = op->result(i);
      if (!types[i].isTensor()) {
        result->replaceAllUsesWith(ifOp->result(i));
        continue;
      }
      TensorSharding replicated = TensorSharding::replicatedOf(
          MeshRef{meshName_, std::nullopt}, types[i].shape.size(), /*closed=*/true);
      auto allReduce = newOp("sdy.all_reduce", loc, {ifOp->result(i)}, {types[i]});
      allReduce->setAttr("reduction_axes", ir::AxisRefListAttr{meshAxes_}, true);
      allReduce->setAttr("out_sharding", replicated, true);
      after = block->insertAfter(after, std::move(allReduce));
      std::vector<ir::Op*> users;
      for (const ir::Use& use : result->uses()) users.push_back(use.user);
      for (ir::Op* user : users) {
        if (user->is("sdy.reshard") && util::getSharding(user->result(0)) == replicated) {
          user->result(0)->replaceAllUsesWith(after->result(0));
          util::eraseOp(user);
        }
      }
      result->replaceAllUsesWith(after->result(0));
    }
    util::eraseOp(op);
    for (ir::Op* reshard : operandReshards)
      if (reshard->result(0)->uses().empty()) util::eraseOp(reshard);
  }

 private:
  ir::Module& module_;
  ir::DiagnosticSink& diags_;
  int64_t replicaCount_;
  std::string meshName_;
  AxisRefList meshAxes_;
};

}  // namespace

bool resolveSingleDeviceSharding(ir::Module& module, ir::DiagnosticSink& diags,
                                 int64_t replicaCount, int64_t partitionCount) {
  ir::Op* mesh = globalMesh(module);
  if (!mesh) return true;
  if (replicaCount > 1 && partitionCount > 1) {
    diags.error(
        module.op->loc(),
        "single-device ops cannot be resolved with both replica-count and partition-count above 1");
    return false;
  }
  Resolver resolver(module, diags, *mesh, replicaCount);
  bool ok = true;
  for (ir::Op* func : module.functions()) {
    std::vector<std::pair<ir::Op*, int64_t>> singleDeviceOps;
    func->walk([&](ir::Op& op) {
      if (&op == func || op.name().rfind("sdy.", 0) == 0) return;
      if (std::optional<int64_t> device = resolver.deviceOf(op, ok))
        singleDeviceOps.push_back({&op, *device});
    });
    for (auto [op, device] : singleDeviceOps) resolver.resolve(op, device);
  }
  return ok;
}

}  // namespace shardscope::passes
