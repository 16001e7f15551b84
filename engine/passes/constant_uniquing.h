// What MLIR's greedy rewrite driver does with constants before it tries any
// pattern (its `cseConstants`): every constant-like op (stablehlo.constant,
// arith.constant, chlo.constant) moves to the start of the entry block of the nearest
// region isolated from above (a function, manual or named computation body),
// and a constant equal to one already there (same op, value and type) is
// replaced by it. Constants met one after another are moved to the front one
// after another, so their order is reversed unless they led the block:
//
//   %0 = stablehlo.add %arg0, %arg0        %c_0 = stablehlo.constant dense<2.0>
//   %c = stablehlo.constant dense<1.0>  -> %c = stablehlo.constant dense<1.0>
//   %c_0 = stablehlo.constant dense<2.0>   %0 = stablehlo.add %arg0, %arg0
#pragma once
#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "ir/operation.h"

namespace shardscope::passes {

bool isConstantLike(const ir::Op& op);

class ConstantUniquer {
 public:
  // Erases an op replaced by an equal constant (its uses already moved).
  using EraseFn = std::function<void(ir::Op*)>;
  explicit ConstantUniquer(EraseFn erase) : erase_(std::move(erase)) {}

  // Takes `op` over when it is constant-like (moving it or merging it into
  // an equal one, see above) and returns true; false for any other op.
  bool insertKnownConstant(ir::Op& op);
  // Forget `op` (it is being erased).
  void forget(const ir::Op* op);

 private:
  using Key = std::tuple<const ir::Region*, std::string, std::string, std::string>;
  EraseFn erase_;
  std::map<Key, ir::Op*> unique_;
  std::set<const ir::Op*> owned_;
};

}  // namespace shardscope::passes
