// References to mesh axes and sub-axes.
#include "sharding/axis_ref.h"

#include <algorithm>

#include "sharding/string_literal.h"

namespace shardscope {

namespace {

// The half-open range [first, last) of pre-sizes covered by `ref` on its axis.
// A full axis of size n covers [1, n); "x":(p)s covers [p, p*s).
struct PreRange {
  int64_t first;
  int64_t last;
};

PreRange rangeOf(const AxisRef& ref, const Mesh& mesh) {
  if (ref.subAxis) return {ref.subAxis->preSize, ref.subAxis->nextPreSize()};
  return {1, std::max<int64_t>(1, mesh.axisSize(ref.name))};
}

}  // namespace

int64_t AxisRef::size(const Mesh& mesh) const {
  if (subAxis) return subAxis->size;
  return mesh.axisSize(name);
}

std::string AxisRef::str() const {
  std::string out;
  print(out);
  return out;
}

void AxisRef::print(std::string& out) const {
  appendQuoted(out, name);
  if (subAxis) {
    out += ":(";
    out += std::to_string(subAxis->preSize);
    out += ')';
    out += std::to_string(subAxis->size);
  }
}

bool AxisRef::contains(const AxisRef& other, const Mesh& mesh) const {
  if (name != other.name) return false;
  if (!subAxis) return true;
  PreRange mine = rangeOf(*this, mesh);
  PreRange theirs = rangeOf(other, mesh);
  return mine.first <= theirs.first && theirs.last <= mine.last;
}

bool AxisRef::overlaps(const AxisRef& other, const Mesh& mesh) const {
  if (name != other.name) return false;
  PreRange a = rangeOf(*this, mesh);
  PreRange b = rangeOf(other, mesh);
  // Size-1 ranges (e.g. an axis of size 1) are empty intervals; treat equal
  // references as overlapping regardless.
  if (*this == other) return true;
  return a.first < b.last && b.first < a.last;
}

bool AxisRef::prefixOf(const AxisRef& other, const Mesh& mesh) const {
  if (name != other.name) return false;
  PreRange mine = rangeOf(*this, mesh);
  PreRange theirs = rangeOf(other, mesh);
  return mine.first == theirs.first && mine.last <= theirs.last;
}

bool AxisRef::strictPrefixOf(const AxisRef& other, const Mesh& mesh) const {
  return prefixOf(other, mesh) && size(mesh) != other.size(mesh);
}

bool AxisRef::canMerge(const AxisRef& other) const {
  return name == other.name && subAxis && other.subAxis &&
         subAxis->nextPreSize() == other.subAxis->preSize;
}

AxisRef AxisRef::merge(const AxisRef& other, const Mesh& mesh) const {
  if (!canMerge(other)) return *this;  // callers check canMerge first
  AxisRef merged{name, SubAxisInfo{subAxis->preSize, subAxis->size * other.subAxis->size}};
  return merged.canonical(mesh);
}

AxisRef AxisRef::canonical(const Mesh& mesh) const {
  if (subAxis && subAxis->preSize == 1 && subAxis->size == mesh.axisSize(name))
    return AxisRef{name, std::nullopt};
  return *this;
}

bool AxisRef::lessInMesh(const AxisRef& other, const Mesh& mesh) const {
  if (name != other.name) {
    int a = mesh.axisIndex(name);
    int b = mesh.axisIndex(other.name);
    if (a != b) return a < b;
    return name < other.name;  // both unknown to the mesh
  }
  PreRange mine = rangeOf(*this, mesh);
  PreRange theirs = rangeOf(other, mesh);
  if (mine.first != theirs.first) return mine.first < theirs.first;
  return mine.last < theirs.last;
}

int64_t axesSize(const AxisRefList& axes, const Mesh& mesh) {
  int64_t total = 1;
  for (const AxisRef& axis : axes) total *= axis.size(mesh);
  return total;
}

AxisRefList mergeAdjacent(const AxisRefList& axes, const Mesh& mesh) {
  AxisRefList out;
  for (const AxisRef& axis : axes) {
    if (!out.empty() && out.back().canMerge(axis))
      out.back() = out.back().merge(axis, mesh);
    else
      out.push_back(axis);
  }
  return out;
}

AxisRefList canonicalAxisSet(AxisRefList axes, const Mesh& mesh) {
  std::stable_sort(axes.begin(), axes.end(),
                   [&](const AxisRef& a, const AxisRef& b) { return a.lessInMesh(b, mesh); });
  return mergeAdjacent(axes, mesh);
}

std::string strAxisList(const AxisRefList& axes) {
  std::string out;
  printAxisList(axes, out);
  return out;
}

void printAxisList(const AxisRefList& axes, std::string& out) {
  out += '{';
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i) out += ", ";
    axes[i].print(out);
  }
  out += '}';
}

}  // namespace shardscope
