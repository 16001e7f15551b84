// `-sdy-constant-or-scalar-merger`: undo the splitter. Within one region,
// constants with identical attributes (value, sharding, ...) become one, and
// so do broadcasts of the same scalar to the same type with the same
// attributes; the first one (in post-order) is kept.
#include <map>

#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {

// All attributes of `op` as text (an attribute dictionary key).
std::string attrKey(const ir::Op& op) {
  std::vector<std::pair<std::string, std::string>> entries;
  for (const ir::Op::Attr& a : op.attrs()) entries.emplace_back(a.name, a.value.str());
  std::sort(entries.begin(), entries.end());
  std::string key;
  for (auto& [n, v] : entries) key += n + "=" + v + ";";
  return key;
}

void collectPostOrder(ir::Op& op, std::vector<ir::Op*>& out) {
  for (const auto& region : op.regions())
    for (const auto& block : region->blocks())
      for (const auto& inner : block->ops()) collectPostOrder(*inner, out);
  out.push_back(&op);
}

}  // namespace

bool constantOrScalarMerger(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  std::map<std::tuple<std::string, const ir::Region*, std::string>, ir::Op*> constants;
  std::map<std::tuple<std::string, const ir::Region*, std::string, const ir::Value*>, ir::Op*> broadcasts;
  std::vector<ir::Op*> ops;
  collectPostOrder(*module.op, ops);
  for (ir::Op* op : ops) {
    const ir::Region* region = op->parentBlock() ? op->parentBlock()->parentRegion() : nullptr;
    ir::Op* cached = nullptr;
    if (op->is("sdy.constant") || op->is("stablehlo.constant")) {
      // The op name is part of the key: only like constants merge.
      auto [it, inserted] = constants.try_emplace({attrKey(*op), region, op->name()}, op);
      if (!inserted) cached = it->second;
    } else if (op->is("stablehlo.broadcast_in_dim") && op->numOperands() == 1 &&
               util::isScalar(op->operand(0)) && op->numResults() == 1) {
      auto [it, inserted] =
          broadcasts.try_emplace({attrKey(*op), region, op->result(0)->type.str(), op->operand(0)}, op);
      if (!inserted) cached = it->second;
    }
    if (!cached || cached->numResults() != op->numResults()) continue;
    for (unsigned i = 0; i < op->numResults(); ++i) op->result(i)->replaceAllUsesWith(cached->result(i));
    util::eraseOp(op);
  }
  return true;
}

}  // namespace shardscope::passes
