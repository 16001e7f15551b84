// Pre-conditions of the import passes.
#include "verifier/import_checks.h"

#include <map>
#include <string>
#include <vector>

namespace shardscope {

namespace {

const ir::Op* enclosingManualComputation(const ir::Op& op) {
  for (const ir::Op* p = op.parentOp(); p; p = p->parentOp())
    if (p->is("sdy.manual_computation")) return p;
  return nullptr;
}

std::vector<int64_t> shapeOf(const ir::Value* v) {
  return v && v->type.isTensor() ? v->type.shape : std::vector<int64_t>{};
}

}  // namespace

bool verifyShardingGroupsForImport(const ir::Module& module, ir::DiagnosticSink& diags) {
  struct GroupInfo {
    const ir::Op* manualParent;
    std::vector<int64_t> shape;
  };
  std::map<int64_t, GroupInfo> groups;
  bool ok = true;
  module.op->walkPreOrder([&](ir::Op& op) {
    if (!ok) return false;
    if (!op.is("sdy.sharding_group")) return true;
    const ir::Attribute* idAttr = op.attr("group_id");
    std::optional<int64_t> id = idAttr ? idAttr->integer() : std::nullopt;
    if (!id) return true;
    const ir::Op* parent = enclosingManualComputation(op);
    std::vector<int64_t> shape = shapeOf(op.numOperands() ? op.operand(0) : nullptr);
    auto [it, inserted] = groups.try_emplace(*id, GroupInfo{parent, shape});
    if (inserted) return true;
    if (it->second.manualParent != parent) {
      diags.error(op.loc(), "ShardingGroupOps values cannot cross ManualComputationOp boundaries "
                            "for groupId: " + std::to_string(*id));
      ok = false;
    } else if (it->second.shape != shape) {
      diags.error(op.loc(), "ShardingGroupOps values must have the same shape for groupId: " +
                                std::to_string(*id));
      ok = false;
    }
    return ok;
  });
  return ok;
}

bool verifyManualAxesCleanupInput(const ir::Module& module, ir::DiagnosticSink& diags) {
  bool ok = true;
  module.op->walkPreOrder([&](ir::Op& op) {
    if (!ok) return false;
    if (!op.is("sdy.manual_computation")) return true;
    auto count = [&](const char* name) -> size_t {
      const ir::Attribute* a = op.attr(name);
      const auto* pv = a ? a->as<TensorShardingPerValue>() : nullptr;
      return pv ? pv->shardings.size() : 0;
    };
    const ir::Attribute* axesAttr = op.attr("manual_axes");
    const auto* axes = axesAttr ? axesAttr->as<ir::ManualAxesAttr>() : nullptr;
    bool hasManualAxes = axes && !axes->axes.empty();
    bool bodyNonEmpty = false;
    if (op.numRegions() && !op.region(0).empty()) {
      const ir::Block& block = op.region(0).front();
      // Anything besides the terminator counts.
      bodyNonEmpty = block.ops().size() > 1 ||
                     (block.ops().size() == 1 && !block.ops().front()->is("sdy.return"));
    }
    if (count("in_shardings") == 0 && count("out_shardings") == 0 && hasManualAxes && bodyNonEmpty) {
      diags.error(op.loc(), "op has manual_axes when there are no in/out shardings and the body is "
                            "not empty. This isn't allowed at this stage, please contact the Shardy "
                            "team or file a bug.");
      ok = false;
    }
    return ok;
  });
  return ok;
}

}  // namespace shardscope
