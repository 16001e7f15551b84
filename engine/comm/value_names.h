// Names of values as the writer prints them, for reports: `%arg0` for a
// function argument, `%5` for the sixth op result of its function (counted
// in pre-order, as MLIR numbers them), `%5#1` for a further result.
//
// With skip(), ops inserted after the fact are left out of the numbering.
//
// Functions are numbered the first time one of their values is named; the
// numbers are kept on the ops (OpTags), so naming a value is O(1) after that.
#pragma once
#include <string>
#include <unordered_set>

#include "ir/operation.h"

namespace shardscope::comm {

class ValueNames {
 public:
  std::string name(const ir::Value* v);
  // `%5 = stablehlo.dot_general` (the op's first result and its name), or
  // the name alone for ops without results (`func.return`).
  std::string opLabel(const ir::Op& op);
  // `@main` for a value or op inside func.func @main, else "".
  static std::string functionOf(const ir::Op* op);
  // Leave `op` (a single-operand op such as an inserted sdy.reshard) out of
  // the numbering: the ops after it keep the numbers they had without it,
  // and its result is named after its operand. Call before naming.
  void skip(const ir::Op& op) { skipped_.insert(&op); }

 private:
  void numberFunction(ir::Op& func);
  ir::OpTags firstResult_;  // 1 + number of the op's first result
  std::unordered_set<const ir::Op*> numbered_;
  std::unordered_set<const ir::Op*> skipped_;
};

}  // namespace shardscope::comm
