// MLIR text writer: prints what `sdy_opt` prints (pretty forms for the ops
// it knows, MLIR's generic form for the rest).
#pragma once
#include <ostream>
#include <string>

#include "operation.h"

namespace shardscope::ir {

struct PrintOptions {
  bool genericForm = false;  // every op in generic form
  // -mlir-print-debuginfo: each op's location, `loc(#loc3)`, with the
  // `#loc3 = loc(...)` definitions where mlir-opt puts them
  // (location_aliases.h); block arguments' locations inline. Ops and
  // arguments without one get their place in `Module::fileName`, as MLIR
  // gives them. Only printModule writes them.
  bool debugInfo = false;
};

void printModule(const Module& module, std::ostream& os, const PrintOptions& opts = {});
std::string printModule(const Module& module, const PrintOptions& opts = {});
// One op (with its regions) as it appears inside its function; value names
// are computed within the op's enclosing function.
std::string printOp(const Op& op, const PrintOptions& opts = {});

}  // namespace shardscope::ir
