// The mesh of an op's explicit reshards (see op_mesh.h).
#include "passes/explicit_reshards/op_mesh.h"

#include <map>

#include "passes/pass_utils.h"

namespace shardscope::passes::explicit_reshards {

namespace {

bool sameAxes(const Mesh& a, const Mesh& b) { return a.isMaximal() == b.isMaximal() && a.axes == b.axes; }

template <typename Fn>
void forEachSharding(const OptionalShardings& operands, const OptionalShardings& results, Fn fn) {
  for (const auto& s : operands)
    if (s) fn(*s);
  for (const auto& s : results)
    if (s) fn(*s);
}

}  // namespace

bool shardsNoDimension(const std::optional<TensorSharding>& sharding) {
  if (!sharding) return true;
  for (const DimensionSharding& d : sharding->dims)
    if (!d.axes.empty()) return false;
  return true;
}

bool equivalentShardings(const std::optional<TensorSharding>& a, const std::optional<TensorSharding>& b) {
  if (!a) return shardsNoDimension(b);
  return util::isEquivalent(a, b);
}

bool isSingleDeviceSharding(const MeshTable& meshes, const std::optional<TensorSharding>& sharding) {
  if (!sharding) return false;
  const Mesh* mesh = meshes.of(*sharding);
  return mesh && mesh->isMaximal();
}

std::optional<OpMesh> commonMesh(const MeshTable& meshes, const OptionalShardings& operands,
                                 const OptionalShardings& results) {
  OpMesh found;
  bool conflict = false;
  forEachSharding(operands, results, [&](const TensorSharding& s) {
    const Mesh* other = meshes.of(s);
    if (conflict || !other) return;
    if (!found.mesh || found.mesh->empty()) {
      found = OpMesh{s.mesh.name, other};
      return;
    }
    if (other->empty()) return;
    if (!sameAxes(*other, *found.mesh)) {
      conflict = true;
      return;
    }
    if (other->deviceIds.empty()) found = OpMesh{s.mesh.name, other};
  });
  if (conflict || !found.mesh) return std::nullopt;
  return found;
}

std::optional<OpMesh> meshForOp(const MeshTable& meshes, const OptionalShardings& operands,
                                const OptionalShardings& results) {
  std::optional<OpMesh> common = commonMesh(meshes, operands, results);
  if (!common || common->mesh->isMaximal()) return std::nullopt;
  OpMesh best = *common;
  int64_t bestCount = 0;
  std::map<std::string, int64_t> counts;
  forEachSharding(operands, results, [&](const TensorSharding& s) {
    if (shardsNoDimension(s)) return;
    const Mesh* mesh = meshes.of(s);
    if (!mesh) return;
    int64_t n = ++counts[s.mesh.name];
    if (n > bestCount) {
      bestCount = n;
      best = OpMesh{s.mesh.name, mesh};
    }
  });
  return best;
}

}  // namespace shardscope::passes::explicit_reshards
