// What the op verifiers share (verifier.cpp, collective_verifier.cpp): the
// module's meshes by name, mesh equality as MLIR sees it, and the checks of
// one list of axis refs.
//
// Example: on mesh <["x"=4]>, verifyAxisList of {"x":(1)2, "x":(2)2} gives
// `two consecutive sub-axes can be merged: "x":(1)2, "x":(2)2`.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "ir/mesh_symbols.h"
#include "ir/operation.h"
#include "verifier/verifier.h"

namespace shardscope::verifier_support {

inline VerifyProblem problem(std::string message) { return VerifyProblem{std::move(message), {}}; }
// A problem with `token` (`"a":(1)2`, as written in the source) to point at;
// `occurrence` 2 for the second spelling of a duplicate.
inline VerifyProblem problemAt(std::string message, std::string token, int occurrence = 1) {
  VerifyProblem p{std::move(message), {}};
  p.at.token = std::move(token);
  p.at.occurrence = occurrence;
  return p;
}

// Mesh symbols of the module by name (ir/mesh_symbols.h).
using MeshTable = ir::MeshSymbols;

// Whether two meshes are one MLIR attribute: same axes, and the same device
// ids once iota ids are dropped (as sdy's mesh builder drops them).
bool sameMesh(const Mesh& a, const Mesh& b);

// Checks one list of axis refs (a dimension, the replicated or the unreduced
// axes, a collective's axes): names known to the mesh, no ref seen before,
// no two neighbouring sub-axes that should have been written as one. Adds
// the refs to `seen` and the sub-axes to `subAxes`.
VerifyResult verifyAxisList(const AxisRefList& axes, const Mesh& mesh, std::vector<AxisRef>& seen,
                            std::vector<AxisRef>& subAxes);
// Whether `axes` are in mesh order.
bool sortedInMesh(const AxisRefList& axes, const Mesh& mesh);

}  // namespace shardscope::verifier_support
