// Value names for reports (see value_names.h).
#include "comm/value_names.h"

namespace shardscope::comm {

namespace {

ir::Op* enclosingFunction(const ir::Op* op) {
  if (!op) return nullptr;
  if (op->is("func.func")) return const_cast<ir::Op*>(op);
  return op->parentOfName("func.func");
}

std::string symbolOf(const ir::Op& func) {
  const ir::Attribute* a = func.attr("sym_name");
  return a && a->string() ? *a->string() : std::string();
}

}  // namespace

std::string ValueNames::functionOf(const ir::Op* op) {
  const ir::Op* f = enclosingFunction(op);
  return f ? "@" + symbolOf(*f) : std::string();
}

void ValueNames::numberFunction(ir::Op& func) {
  if (!numbered_.insert(&func).second) return;
  uint32_t next = 0;
  func.walk([&](ir::Op& op) {
    if (&op == &func || op.numResults() == 0 || skipped_.count(&op)) return;
    firstResult_.set(op, next + 1);
    ++next;  // an op's results share one number: %3:2 gives %3#0, %3#1
  });
}

std::string ValueNames::name(const ir::Value* v) {
  if (!v) return "?";
  if (v->isBlockArgument()) {
    const ir::Op* owner = v->ownerOp();
    if (owner && owner->is("func.func")) return "%arg" + std::to_string(v->index);
    if (!v->sourceName.empty()) return v->sourceName.front() == '%' ? v->sourceName : "%" + v->sourceName;
    return "%arg" + std::to_string(v->index);
  }
  const ir::Op* op = v->definingOp;
  // A skipped op (one inserted later) stands for the value it reshards.
  for (int hops = 0; op && skipped_.count(op) && op->numOperands() > 0 && hops < 64; ++hops) {
    v = op->operand(0);
    if (!v) return "?";
    if (v->isBlockArgument()) return name(v);
    op = v->definingOp;
  }
  ir::Op* func = enclosingFunction(op);
  if (!func) return v->sourceName.empty() ? "%?" : v->sourceName;
  numberFunction(*func);
  uint32_t first = firstResult_.get(*op);
  if (first == 0) return "%?";
  std::string n = "%" + std::to_string(first - 1);
  if (op->numResults() > 1) n += "#" + std::to_string(v->index);
  return n;
}

std::string ValueNames::opLabel(const ir::Op& op) {
  if (op.numResults() == 0) return op.name();
  return name(op.result(0)) + " = " + op.name();
}

}  // namespace shardscope::comm
