// `-sdy-insert-explicit-reshards` (see explicit_reshards/explicit_reshards_pass.h).
//
// Each function is walked in post-order (an op's regions before the op), and
// ops the pass inserts are not visited again. Per op, in this order:
//   - data-flow ops (while, case, ...), calls: their edges (edge_reshards.h);
//   - an `sdy.reshard` that only adds unreduced axes becomes the unreduced
//     collectives (unreduced_collectives.h);
//   - operands with unreduced axes the op's results do not keep are
//     all-reduced;
//   - single-device ops (single_device_ops.h);
//   - ops with a (non-custom) sharding rule on one mesh: reshard_insertion.h.
// Last, the function's results are resharded to its result shardings.
#include "passes/explicit_reshards/explicit_reshards_pass.h"

#include "passes/explicit_reshards/edge_reshards.h"
#include "passes/explicit_reshards/insert_point.h"
#include "passes/explicit_reshards/op_mesh.h"
#include "passes/explicit_reshards/reshard_insertion.h"
#include "passes/explicit_reshards/single_device_ops.h"
#include "passes/explicit_reshards/unreduced_collectives.h"
#include "passes/import_passes.h"
#include "passes/pass_utils.h"
#include "propagation/op_sharding_rule_cache.h"
#include "propagation/value_shardings.h"
#include "rules/op_sharding_rule_registry.h"

namespace shardscope::passes {

const char* reshardCauseKindName(ReshardCause::Kind kind) {
  switch (kind) {
    case ReshardCause::Kind::Reshard:
      return "reshard";
    case ReshardCause::Kind::AllReduce:
      return "all-reduce";
    case ReshardCause::Kind::ReplicatedToUnreduced:
      return "replicated-to-unreduced";
    case ReshardCause::Kind::ShardedToUnreduced:
      return "sharded-to-unreduced";
  }
  return "reshard";
}

namespace {

using namespace explicit_reshards;

class ExplicitReshards {
 public:
  ExplicitReshards(ir::Module& module, ir::DiagnosticSink& diags, const InsertExplicitReshardsOptions& options,
                   ReshardCauses* causes)
      : diags_(diags), options_(options), ctx_{module, MeshTable(module), causes} {}

  bool runOnFunction(ir::Op* func) {
    if (!checkSignature(*func)) return false;
    if (func->numRegions() == 0 || func->region(0).empty()) return true;
    walkPostOrder(func->region(0));
    if (failed_) return false;
    reshardFuncResults(func, options_.enableFullVersion, ctx_);
    return true;
  }

 private:
  // Function arguments and results cannot live on a single device.
  bool checkSignature(const ir::Op& func) {
    const size_t numArgs = util::funcArgTypes(func).size();
    const size_t numResults = util::funcResultTypes(func).size();
    for (unsigned i = 0; i < numArgs; ++i) {
      if (isSingleDeviceSharding(ctx_.meshes, util::funcArgSharding(func, i))) {
        diags_.error(func.loc(), "'func.func' op function argument " + std::to_string(i) +
                                     " cannot have a single-device (maximal) sharding attribute");
        return false;
      }
    }
    for (unsigned i = 0; i < numResults; ++i) {
      if (isSingleDeviceSharding(ctx_.meshes, util::funcResultSharding(func, i))) {
        diags_.error(func.loc(), "'func.func' op function result " + std::to_string(i) +
                                     " cannot have a single-device (maximal) sharding attribute");
        return false;
      }
    }
    return true;
  }

  // Regions first, then the op; the next op is fixed before an op is
  // visited, so ops inserted around it are not visited.
  void walkPostOrder(ir::Region& region) {
    for (const auto& block : region.blocks()) {
      ir::OpList& ops = block->ops();
      for (auto it = ops.begin(); it != ops.end() && !failed_;) {
        ir::Op* op = it->get();
        ++it;
        for (const auto& inner : op->regions()) walkPostOrder(*inner);
        if (!failed_) visit(op);
      }
    }
  }

  bool fullVersionFor(const ir::Op& op) const {
    if (options_.enableFullVersion || op.is("mhlo.ragged_dot") || util::isCallOp(op)) return true;
    // A concatenate whose operands differ from its result is resharded in
    // any case (when they all agree, even on the concatenated dimension,
    // it is left alone).
    if (op.is("stablehlo.concatenate") && op.numResults() > 0) {
      std::optional<TensorSharding> result = shardingOf(op.result(0));
      for (ir::Value* operand : op.operands())
        if (shardingOf(operand) != result) return true;
    }
    return false;
  }

  // Operands holding unreduced axes the op's results do not keep.
  void allReduceUnkeptOperands(ir::Op* op) {
    if (op->numResults() == 0) return;
    std::optional<TensorSharding> first;
    bool firstRead = false;
    InsertPoint at = InsertPoint::beforeOp(op);
    for (unsigned i = 0; i < op->numOperands(); ++i) {
      // Most operands have no unreduced axes: look before copying.
      std::optional<ir::Attribute> keep;
      const TensorSharding* s = propagation::getShardingRef(op->operand(i), keep);
      if (!s || s->unreduced.empty()) continue;
      if (!firstRead) {
        first = shardingOf(op->result(0));
        firstRead = true;
      }
      allReduceUnkeptUnreducedAxes({op, i}, *s, first, at, ctx_);
    }
  }

  void visit(ir::Op* op) {
    if (util::isTerminator(*op)) return;
    bool fullVersion = fullVersionFor(*op);
    if (util::isShardableDataFlowOp(*op)) {
      reshardDataFlowEdges(op, fullVersion, ctx_);
      return;
    }
    if (util::isCallOp(*op)) {
      reshardCallArguments(op, ctx_);
      return;
    }
    if (op->is("sdy.reshard") && reshardToUnreducedCollectives(op, ctx_)) return;

    allReduceUnkeptOperands(op);

    // Most ops end at the second test below, after their results' shardings
    // were copied for it. Both tests are first made on the shardings in
    // place: no result on a single device, and nothing that needs a rule.
    if (!fullVersion && !op->is("stablehlo.dot") && !op->is("stablehlo.dot_general")) {
      bool untouched = true;
      for (unsigned i = 0; i < op->numResults() && untouched; ++i) {
        std::optional<ir::Attribute> keep;
        const TensorSharding* s = propagation::getShardingRef(op->result(i), keep);
        if (!s) continue;
        const Mesh* mesh = ctx_.meshes.of(*s);
        untouched = !(mesh && mesh->isMaximal()) && (i != 0 || s->unreduced.empty());
      }
      if (untouched) return;
    }

    OptionalShardings results;
    for (ir::Value* v : op->resultRange()) results.push_back(shardingOf(v));

    if (isSingleDeviceOp(ctx_.meshes, results)) {
      if (!reshardSingleDeviceOp(op, results, diags_, ctx_)) failed_ = true;
      return;
    }

    // Without the full version, an op only changes when it is a dot (see
    // dot_result_reshard.h) or its results keep axes unreduced (the
    // all-reduce of its reduction factors): skip building its rule otherwise.
    if (!fullVersion && !op->is("stablehlo.dot") && !op->is("stablehlo.dot_general") &&
        (results.empty() || !results[0] || results[0]->unreduced.empty()))
      return;

    OptionalShardings operands;
    for (ir::Value* v : op->operands()) operands.push_back(shardingBypassingBarriers(v));

    // A rule on the op (e.g. a user's custom one) wins; otherwise ops alike
    // share the registry's rule through the cache.
    const OpShardingRule* rule = rules::existingOpShardingRule(*op);
    std::optional<ir::Attribute> created;
    if (!rule) {
      created = rules_.ruleFor(*op, /*conservativePropagation=*/false, nullptr);
      rule = created ? created->as<OpShardingRule>() : nullptr;
    }
    if (!rule || rule->isCustom) return;
    if (rule->operands.size() != operands.size() || rule->results.size() != results.size()) return;
    std::optional<OpMesh> mesh = meshForOp(ctx_.meshes, operands, results);
    if (!mesh) return;
    insertReshardsForOp(op, *rule, *mesh, operands, results, fullVersion, ctx_);
  }

  ir::DiagnosticSink& diags_;
  InsertExplicitReshardsOptions options_;
  ReshardContext ctx_;
  propagation::OpShardingRuleCache rules_;
  bool failed_ = false;
};

}  // namespace

bool insertExplicitReshards(ir::Module& module, ir::DiagnosticSink& diags,
                            const InsertExplicitReshardsOptions& options, ReshardCauses* causes) {
  ExplicitReshards pass(module, diags, options, causes);
  for (ir::Op* func : module.functions())
    if (!pass.runOnFunction(func)) return false;
  return true;
}

bool insertExplicitReshards(ir::Module& module, ir::DiagnosticSink& diags) {
  return insertExplicitReshards(module, diags, InsertExplicitReshardsOptions{}, nullptr);
}

}  // namespace shardscope::passes
