// `-sdy-remove-propagation-debug-info`: drop the explain attributes
// (`sdy.propagation_edges`, `sdy.sharding_origins` and their block-argument /
// result variants) from every op and from function arguments and results.
#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {

const char* const kDebugAttrs[] = {util::kPropagationEdgesAttr,        util::kBlockArgPropagationEdgesAttr,
                                   util::kResultPropagationEdgesAttr,  util::kShardingOriginsAttr,
                                   util::kBlockArgShardingOriginsAttr, util::kResultShardingOriginsAttr};

// Remove the debug entries from each dictionary of `func`'s `listName`.
void stripDictList(ir::Op& func, const char* listName) {
  const ir::Attribute* a = func.attr(listName);
  if (!a || !a->array()) return;
  std::vector<ir::Attribute> elems = a->array()->elems;
  bool changed = false;
  for (ir::Attribute& e : elems) {
    const ir::DictionaryAttr* d = e.dict();
    if (!d) continue;
    std::vector<ir::NamedAttribute> kept;
    for (const auto& entry : d->entries) {
      bool debug = false;
      for (const char* n : kDebugAttrs) debug |= entry.first == n;
      if (!debug) kept.push_back(entry);
    }
    if (kept.size() == d->entries.size()) continue;
    e = ir::Attribute::makeDict(std::move(kept));
    changed = true;
  }
  if (!changed) return;
  bool inherent = true;
  for (const ir::Op::Attr& x : func.attrs())
    if (x.name == listName) inherent = x.inherent;
  func.setAttr(listName, ir::Attribute::makeArray(std::move(elems)), inherent);
}

}  // namespace

bool removePropagationDebugInfo(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  module.op->walk([](ir::Op& op) {
    if (util::isFuncOp(op)) {
      stripDictList(op, "arg_attrs");
      stripDictList(op, "res_attrs");
      return;
    }
    for (const char* n : kDebugAttrs) op.removeAttr(n);
  });
  return true;
}

}  // namespace shardscope::passes
