// SSA dominance inside a function: a value must be defined before it is
// used. The reader accepts forward references (the module body is a graph
// region, where they are fine), so the verifier checks function bodies:
//
//   %1 = stablehlo.add %0, %arg0 : tensor<8xf32>    <- error: operand #0 does not dominate this use
//   %0 = stablehlo.abs %arg0 : tensor<8xf32>        <- note: operand defined here (op in the same block)
//
// Only definitions in a block enclosing the use are checked (what single-block
// regions, all that StableHLO and sdy use, can get wrong).
#pragma once
#include <vector>

#include "ir/operation.h"
#include "verifier/verifier.h"

namespace shardscope::verifier {

// An error at the using op, with a note at the definition.
struct DominanceError {
  const ir::Op* use = nullptr;
  std::string message;
  VerifyNote note;
};

// The first use inside `root` (a function) of a value defined after it, or
// by the op using it; nullopt when there is none.
std::optional<DominanceError> firstNonDominatingUse(const ir::Op& root);

}  // namespace shardscope::verifier
