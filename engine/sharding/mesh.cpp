// Logical device meshes.
#include "sharding/mesh.h"

#include <string>

#include "sharding/string_literal.h"

namespace shardscope {

int64_t Mesh::totalSize() const {
  int64_t total = 1;
  for (const MeshAxis& axis : axes) total *= axis.size;
  return total;
}

int Mesh::axisIndex(const std::string& name) const {
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i].name == name) return static_cast<int>(i);
  return -1;
}

int64_t Mesh::axisSize(const std::string& name) const {
  int index = axisIndex(name);
  return index < 0 ? -1 : axes[static_cast<size_t>(index)].size;
}

bool Mesh::hasCustomDeviceIds() const {
  for (size_t i = 0; i < deviceIds.size(); ++i)
    if (deviceIds[i] != static_cast<int64_t>(i)) return true;
  return false;
}

int64_t Mesh::deviceIdAt(int64_t i) const {
  if (deviceIds.empty()) return i;
  if (i < 0 || i >= static_cast<int64_t>(deviceIds.size())) return -1;
  return deviceIds[static_cast<size_t>(i)];
}

std::string Mesh::str() const {
  std::string out = "<[";
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i) out += ", ";
    appendQuoted(out, axes[i].name);
    out += '=';
    out += std::to_string(axes[i].size);
  }
  out += ']';
  // A maximal mesh always shows its single id; otherwise ids are shown only
  // when they are not the default iota order.
  if ((axes.empty() && !deviceIds.empty()) || hasCustomDeviceIds()) {
    out += ", device_ids=[";
    for (size_t i = 0; i < deviceIds.size(); ++i) {
      if (i) out += ", ";
      out += std::to_string(deviceIds[i]);
    }
    out += ']';
  }
  out += '>';
  return out;
}

}  // namespace shardscope
