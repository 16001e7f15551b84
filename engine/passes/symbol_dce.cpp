// `-symbol-dce`: erase private top-level symbols (functions) that no live
// symbol refers to. Public symbols are live; a symbol referenced (by a call's
// callee or any other `@name` attribute) from a live symbol is live.
#include <set>

#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {

bool isPrivate(const ir::Op& op) {
  const ir::Attribute* a = op.attr("sym_visibility");
  return a && a->string() && *a->string() == "private";
}

void collectRefs(const ir::Attribute& attr, std::set<std::string>& out) {
  if (auto* ref = attr.as<ir::SymbolRefAttr>()) {
    if (!ref->path.empty()) out.insert(ref->root());
  } else if (const ir::ArrayAttr* arr = attr.array()) {
    for (const ir::Attribute& e : arr->elems) collectRefs(e, out);
  } else if (const ir::DictionaryAttr* d = attr.dict()) {
    for (const auto& [n, v] : d->entries) collectRefs(v, out);
  } else if (const ir::StructAttr* s = attr.structAttr()) {
    for (const auto& [n, v] : s->params) collectRefs(v, out);
  }
}

}  // namespace

bool symbolDce(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  // Only private symbols can die: without one, the walks of every live
  // symbol below would find nothing to erase (the pipeline runs this pass
  // five times, each a walk of the whole module).
  bool anyPrivate = false;
  for (auto& op : module.body().ops())
    if (isPrivate(*op) && !util::symNameOf(*op).empty()) {
      anyPrivate = true;
      break;
    }
  if (!anyPrivate) return true;
  std::set<std::string> live;
  std::vector<ir::Op*> work;
  for (auto& op : module.body().ops()) {
    std::string name = util::symNameOf(*op);
    if (name.empty() || !isPrivate(*op)) {
      if (!name.empty()) live.insert(name);
      work.push_back(op.get());
    }
  }
  while (!work.empty()) {
    ir::Op* top = work.back();
    work.pop_back();
    std::set<std::string> refs;
    top->walk([&](ir::Op& op) {
      for (const ir::Op::Attr& a : op.attrs())
        if (a.name != "sym_name") collectRefs(a.value, refs);
    });
    for (const std::string& r : refs) {
      if (live.count(r)) continue;
      live.insert(r);
      if (ir::Op* sym = module.lookupSymbol(r)) work.push_back(sym);
    }
  }
  std::vector<ir::Op*> dead;
  for (auto& op : module.body().ops()) {
    std::string name = util::symNameOf(*op);
    if (!name.empty() && isPrivate(*op) && !live.count(name)) dead.push_back(op.get());
  }
  for (ir::Op* op : dead) {
    util::eraseOp(op);
  }
  return true;
}

}  // namespace shardscope::passes
