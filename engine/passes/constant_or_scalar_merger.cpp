// `-sdy-constant-or-scalar-merger`: undo the splitter. Within one region,
// constants with identical attributes (value, sharding, ...) become one, and
// so do broadcasts of the same scalar to the same type with the same
// attributes; the first one (in post-order) is kept.
#include <algorithm>
#include <cstring>
#include <tuple>
#include <unordered_map>

#include "passes/import_passes.h"
#include "passes/pass_utils.h"

namespace shardscope::passes {

namespace {

// Attribute texts by attribute object. The reader keeps one object per
// spelling and propagation one per distinct sharding, so the constants of a
// large module share a few hundred objects: each is spelt once instead of
// once per op (spelling a dense literal or a sharding was most of the
// pass). Each entry holds its attribute alive, so no address is reused for
// another attribute while the pass runs.
class AttrTexts {
 public:
  const std::string& of(const ir::Attribute& a) {
    auto [it, inserted] = texts_.try_emplace(&a.value());
    if (inserted) it->second = {a, a.str()};
    return it->second.second;
  }

 private:
  std::unordered_map<const ir::Attribute::Value*, std::pair<ir::Attribute, std::string>> texts_;
};

// The merge key of `op`: everything two ops must share to be merged (the
// region, a discriminator such as the op name or the operand, the result
// type when given, and all attributes as text, sorted by name), packed into
// one string so that a hash map can hold the candidates.
std::string mergeKey(const ir::Op& op, const ir::Region* region, const void* discriminator,
                     const std::string& extra, AttrTexts& texts) {
  std::vector<std::pair<const std::string*, const std::string*>> entries;
  entries.reserve(op.attrs().size());
  for (const ir::Op::Attr& a : op.attrs()) entries.emplace_back(&a.name.str(), &texts.of(a.value));
  std::sort(entries.begin(), entries.end(),
            [](const auto& x, const auto& y) { return std::tie(*x.first, *x.second) < std::tie(*y.first, *y.second); });
  std::string key(2 * sizeof(void*), '\0');
  std::memcpy(key.data(), &region, sizeof(void*));
  std::memcpy(key.data() + sizeof(void*), &discriminator, sizeof(void*));
  key += extra;
  key += '\n';
  for (auto& [n, v] : entries) {
    key += *n;
    key += '=';
    key += *v;
    key += ';';
  }
  return key;
}

bool isConstant(const ir::Op& op) { return op.is("sdy.constant") || op.is("stablehlo.constant"); }
bool isScalarBroadcast(const ir::Op& op) {
  return op.is("stablehlo.broadcast_in_dim") && op.numOperands() == 1 && util::isScalar(op.operand(0)) &&
         op.numResults() == 1;
}

}  // namespace

bool constantOrScalarMerger(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  // Constants and scalar broadcasts apart: a broadcast's key names its
  // operand and result type instead of the op name.
  std::unordered_map<std::string, ir::Op*> constants, broadcasts;
  AttrTexts texts;
  std::vector<ir::Op*> ops;
  // Only the candidates: the other ops are never touched.
  util::collectPostOrder(*module.op, [](const ir::Op& op) { return isConstant(op) || isScalarBroadcast(op); }, ops);
  for (ir::Op* op : ops) {
    const ir::Region* region = op->parentBlock() ? op->parentBlock()->parentRegion() : nullptr;
    ir::Op* cached = nullptr;
    if (isConstant(*op)) {
      // The op name is part of the key: only like constants merge (names
      // are interned, so the name's address stands for it).
      auto [it, inserted] = constants.try_emplace(mergeKey(*op, region, &op->name(), {}, texts), op);
      if (!inserted) cached = it->second;
    } else if (isScalarBroadcast(*op)) {
      auto [it, inserted] =
          broadcasts.try_emplace(mergeKey(*op, region, op->operand(0), op->result(0)->type->str(), texts), op);
      if (!inserted) cached = it->second;
    }
    if (!cached || cached->numResults() != op->numResults()) continue;
    for (unsigned i = 0; i < op->numResults(); ++i) op->result(i)->replaceAllUsesWith(cached->result(i));
    util::eraseOp(op);
  }
  return true;
}

}  // namespace shardscope::passes
