// Shared verifier helpers (see verifier_support.h).
#include "verifier/verifier_support.h"

#include <algorithm>

namespace shardscope::verifier_support {

namespace {

// Device ids with iota ids dropped, as sdy's mesh builder does.
std::vector<int64_t> effectiveDeviceIds(const Mesh& mesh) {
  if (!mesh.axes.empty() && !mesh.hasCustomDeviceIds() &&
      static_cast<int64_t>(mesh.deviceIds.size()) == mesh.totalSize())
    return {};
  return mesh.deviceIds;
}

}  // namespace

bool sameMesh(const Mesh& a, const Mesh& b) {
  return a.axes == b.axes && effectiveDeviceIds(a) == effectiveDeviceIds(b);
}

VerifyResult verifyAxisList(const AxisRefList& axes, const Mesh& mesh, std::vector<AxisRef>& seen,
                            std::vector<AxisRef>& subAxes) {
  const AxisRef* previous = nullptr;
  for (const AxisRef& axis : axes) {
    if (!mesh.hasAxis(axis.name))
      return problemAt("unknown axis name: \"" + axis.name + "\"", axis.str());
    if (std::find(seen.begin(), seen.end(), axis) != seen.end())
      return problemAt("duplicate axis ref: " + axis.str(), axis.str(), 2);
    seen.push_back(axis);
    if (axis.isSubAxis()) {
      subAxes.push_back(axis);
      if (previous && previous->canMerge(axis))
        return problemAt("two consecutive sub-axes can be merged: " + previous->str() + ", " +
                             axis.str(),
                         axis.str());
    }
    previous = &axis;
  }
  return std::nullopt;
}

bool sortedInMesh(const AxisRefList& axes, const Mesh& mesh) {
  for (size_t i = 1; i < axes.size(); ++i)
    if (axes[i].lessInMesh(axes[i - 1], mesh)) return false;
  return true;
}

}  // namespace shardscope::verifier_support
