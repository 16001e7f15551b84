// The module's `sdy.mesh` symbols by name, read once.
//
// Passes and the verifier ask for the mesh of nearly every sharding they
// meet; `ir::Module::lookupMesh` walks the module each time.
//
// Example: for
//   sdy.mesh @empty = <[]>
//   sdy.mesh @mesh = <["x"=2, "y"=4]>
//   sdy.mesh @single = <[], device_ids=[3]>
// `named("mesh")` is <["x"=2, "y"=4]>, `of(#sdy.sharding<@mesh, [{"x"}]>)`
// the same mesh, `of(#sdy.sharding<mesh<["a"=2]>, [{}]>)` the inline mesh,
// and `firstWithAxes()` is ("mesh", <["x"=2, "y"=4]>): the module's
// "global" mesh (`@empty` has no axes, `@single` is maximal).
#pragma once
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "ir/operation.h"
#include "sharding/mesh.h"
#include "sharding/tensor_sharding.h"

namespace shardscope::ir {

class MeshSymbols {
 public:
  explicit MeshSymbols(const Module& module);
  // The mesh of the symbol `name` (without '@'), or nullptr.
  const Mesh* named(const std::string& name) const;
  // The mesh a reference or a sharding refers to (inline or by name), or nullptr.
  const Mesh* of(const MeshRef& ref) const;
  const Mesh* of(const TensorSharding& sharding) const { return of(sharding.mesh); }
  // The first mesh in the module with axes that is not maximal, with its name.
  std::optional<std::pair<std::string, const Mesh*>> firstWithAxes() const { return firstWithAxes_; }

 private:
  std::unordered_map<std::string, const Mesh*> byName_;
  std::optional<std::pair<std::string, const Mesh*>> firstWithAxes_;
};

}  // namespace shardscope::ir
