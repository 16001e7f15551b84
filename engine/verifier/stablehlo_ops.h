// StableHLO op constraints that the engine relies on and that the reader
// alone does not enforce: the sharding rules index shapes by these numbers,
// and a module breaking them must be refused, not propagated through.
//
//   %0 = stablehlo.transpose %arg0, dims = [5, 9] : (tensor<8x16xf32>) -> ...
//   error: attribute permutation must be a permutation of [0, 1] but got 5, 9
//   error: 'stablehlo.transpose' op failed to infer returned types
//
// Messages are StableHLO's own (its verifiers report most of them at the
// op's location without the `'op' op` prefix).
#pragma once
#include <string>
#include <vector>

#include "ir/operation.h"

namespace shardscope::verifier {

// The errors StableHLO reports for `op`, in order (empty when it is fine or
// not an op checked here): reshape element counts, transpose permutations,
// dot_general dimension numbers.
std::vector<std::string> stablehloOpErrors(const ir::Op& op);

}  // namespace shardscope::verifier
