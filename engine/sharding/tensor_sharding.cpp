// Tensor shardings and per-value shardings.
#include "sharding/tensor_sharding.h"

namespace shardscope {

std::string MeshRef::str() const {
  std::string out;
  print(out);
  return out;
}

void MeshRef::print(std::string& out) const {
  if (inlineMesh) {
    out += "mesh";
    out += inlineMesh->str();
    return;
  }
  out += '@';
  out += name;
}

bool TensorSharding::isFullyReplicated() const {
  for (const DimensionSharding& dim : dims)
    if (!dim.axes.empty()) return false;
  return replicated.empty() && unreduced.empty();
}

AxisRefList TensorSharding::dimAxes() const {
  AxisRefList out;
  for (const DimensionSharding& dim : dims) out.insert(out.end(), dim.axes.begin(), dim.axes.end());
  return out;
}

std::string TensorSharding::strBody() const {
  std::string out;
  printBody(out);
  return out;
}

// Appends into one string: a large module prints thousands of shardings,
// and a string per part made printing them mostly malloc.
void TensorSharding::printBody(std::string& out) const {
  out += '<';
  mesh.print(out);
  out += ", [";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) out += ", ";
    dims[i].print(out);
  }
  out += ']';
  if (!replicated.empty()) {
    out += ", replicated=";
    printAxisList(replicated, out);
  }
  if (!unreduced.empty()) {
    out += ", unreduced=";
    if (!unreducedReduction.empty() && unreducedReduction != "sum") out += unreducedReduction;
    printAxisList(unreduced, out);
  }
  out += '>';
}

std::string TensorSharding::str() const {
  std::string out;
  print(out);
  return out;
}

void TensorSharding::print(std::string& out) const {
  out += "#sdy.sharding";
  printBody(out);
}

TensorSharding TensorSharding::replicatedOf(const MeshRef& mesh, int64_t rank, bool closed) {
  TensorSharding out;
  out.mesh = mesh;
  out.dims.resize(static_cast<size_t>(rank < 0 ? 0 : rank));
  for (DimensionSharding& dim : out.dims) dim.closed = closed;
  return out;
}

std::string TensorShardingPerValue::str() const {
  std::string out;
  print(out);
  return out;
}

void TensorShardingPerValue::print(std::string& out) const {
  out += "#sdy.sharding_per_value<[";
  for (size_t i = 0; i < shardings.size(); ++i) {
    if (i) out += ", ";
    shardings[i].printBody(out);
  }
  out += "]>";
}

int64_t localDimSize(int64_t dimSize, int64_t shards, int64_t* padding) {
  if (padding) *padding = 0;
  if (dimSize < 0 || shards <= 1) return dimSize;
  int64_t local = dimSize / shards + (dimSize % shards != 0 ? 1 : 0);
  if (padding) *padding = local * shards - dimSize;
  return local;
}

std::vector<int64_t> localShape(const std::vector<int64_t>& globalShape,
                                const TensorSharding& sharding, const Mesh& mesh) {
  std::vector<int64_t> out = globalShape;
  for (size_t i = 0; i < out.size() && i < sharding.dims.size(); ++i)
    out[i] = localDimSize(out[i], sharding.dims[i].shardCount(mesh));
  return out;
}

}  // namespace shardscope
