// The mesh an op's explicit reshards are computed on.
//
// The operand and result shardings must agree on the mesh's axes (device
// order may differ; a mesh without axes, e.g. `<[]>`, agrees with any);
// otherwise, or when no tensor has a sharding, or the mesh is maximal (one
// device), the op gets no reshards. Among meshes with the same axes but
// other device orders, the one most sharded tensors use wins; tensors on
// another device order are then resharded onto it.
//
// Example: `@mesh = <["x"=2]>`, `@mesh_rev = <["x"=2], device_ids=[1, 0]>`,
// operands on @mesh_rev, @mesh_rev and the result on @mesh: the op is
// computed on @mesh_rev and its result is resharded back to @mesh.
#pragma once
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/mesh_symbols.h"
#include "ir/operation.h"
#include "sharding/mesh.h"
#include "sharding/tensor_sharding.h"

namespace shardscope::passes::explicit_reshards {

// The module's mesh symbols (ir/mesh_symbols.h).
using MeshTable = ir::MeshSymbols;

struct OpMesh {
  std::string name;  // the `sdy.mesh` symbol, without '@'
  const Mesh* mesh = nullptr;
  MeshRef ref() const { return MeshRef{name, std::nullopt}; }
};

using OptionalShardings = std::vector<std::optional<TensorSharding>>;

// sdy's common mesh of a set of shardings, device ids ignored (an iota
// mesh preferred): nullopt when none has a mesh or two disagree.
std::optional<OpMesh> commonMesh(const MeshTable& meshes, const OptionalShardings& operands,
                                 const OptionalShardings& results);

// The mesh the op is computed on (see above), or nullopt.
std::optional<OpMesh> meshForOp(const MeshTable& meshes, const OptionalShardings& operands,
                                const OptionalShardings& results);

// Does `sharding` shard no dimension (a missing sharding shards none)?
bool shardsNoDimension(const std::optional<TensorSharding>& sharding);

// sdy's isEquivalent of two shardings: the same dimension axes and
// unreduced axes (open/closed and replicated axes aside); a missing first
// sharding is equivalent to any that shards no dimension.
bool equivalentShardings(const std::optional<TensorSharding>& a, const std::optional<TensorSharding>& b);

// Is `sharding` on a maximal (single-device) mesh?
bool isSingleDeviceSharding(const MeshTable& meshes, const std::optional<TensorSharding>& sharding);

}  // namespace shardscope::passes::explicit_reshards
