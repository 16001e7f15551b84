// Axis arithmetic used by propagation (see axis_algebra.h).
#include "propagation/axis_algebra.h"

#include <algorithm>

namespace shardscope::propagation {

namespace {

int64_t preOf(const AxisRef& a) { return a.subAxis ? a.subAxis->preSize : 1; }

// Whether nested or disjoint ranges [minPre, ...) can live on one axis.
bool rangesCompatible(int64_t minPre, int64_t maxPre, int64_t minNext, int64_t maxNext) {
  if (minNext > maxPre)  // the ranges intersect: they must nest evenly
    return minNext % maxPre == 0 && maxPre % minPre == 0 && maxNext % minNext == 0;
  return maxPre % minNext == 0;  // disjoint: the later one starts on a boundary
}

}  // namespace

int64_t axisSize(const AxisRef& axis, const Mesh& mesh) {
  if (axis.subAxis) return axis.subAxis->size;
  int64_t s = mesh.axisSize(axis.name);
  return s < 0 ? 1 : s;
}

int64_t totalSize(const AxisRefList& axes, const Mesh& mesh) {
  int64_t p = 1;
  for (const AxisRef& a : axes) p *= axisSize(a, mesh);
  return p;
}

bool contains(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name) return false;
  if (!a.subAxis) return true;
  if (!b.subAxis) return false;
  return a.subAxis->preSize <= b.subAxis->preSize &&
         a.subAxis->nextPreSize() >= b.subAxis->nextPreSize();
}

bool prefixOf(const AxisRef& a, const AxisRef& b) { return contains(b, a) && preOf(a) == preOf(b); }

bool strictPrefixOf(const AxisRef& a, const AxisRef& b) { return !(a == b) && prefixOf(a, b); }

bool overlaps(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name) return false;
  if (!a.subAxis || !b.subAxis) return true;
  return a.subAxis->preSize < b.subAxis->nextPreSize() &&
         b.subAxis->preSize < a.subAxis->nextPreSize();
}

bool canCoexist(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name || !a.subAxis || !b.subAxis) return true;
  // Copies: std::minmax returns references, which must not bind temporaries.
  int64_t aPre = a.subAxis->preSize, bPre = b.subAxis->preSize;
  int64_t aNext = a.subAxis->nextPreSize(), bNext = b.subAxis->nextPreSize();
  int64_t minPre = std::min(aPre, bPre), maxPre = std::max(aPre, bPre);
  int64_t minNext = std::min(aNext, bNext), maxNext = std::max(aNext, bNext);
  return rangesCompatible(minPre, maxPre, minNext, maxNext);
}

std::optional<AxisRef> prefixWithoutOverlap(const AxisRef& a, const AxisRef& b) {
  if (!canCoexist(a, b)) return std::nullopt;
  if (!overlaps(a, b)) return a;
  int64_t aPre = preOf(a), bPre = preOf(b);
  if (aPre >= bPre) return std::nullopt;
  return AxisRef{a.name, SubAxisInfo{aPre, bPre / aPre}};
}

std::optional<AxisRef> prefixWithoutOverlap(const AxisRef& a, const AxisRefList& others) {
  std::optional<AxisRef> result = a;
  for (const AxisRef& o : others) {
    result = prefixWithoutOverlap(*result, o);
    if (!result) return std::nullopt;
  }
  return result;
}

namespace {
// Where `a` ends along its axis: the next pre-size, or the axis size.
int64_t endOf(const AxisRef& a, const Mesh& mesh) {
  return a.subAxis ? a.subAxis->nextPreSize() : mesh.axisSize(a.name);
}
}  // namespace

bool suffixOf(const AxisRef& a, const AxisRef& b, const Mesh& mesh) {
  return contains(b, a) && endOf(a, mesh) == endOf(b, mesh);
}

bool anyOverlap(const AxisRefList& a, const AxisRefList& b) {
  for (const AxisRef& x : a)
    for (const AxisRef& y : b)
      if (overlaps(x, y)) return true;
  return false;
}

std::optional<AxisRef> greatestCommonPrefix(const AxisRef& a, const AxisRef& b) {
  if (!canCoexist(a, b)) return std::nullopt;
  if (prefixOf(a, b)) return a;
  if (prefixOf(b, a)) return b;
  return std::nullopt;
}

PrefixStatus listPrefixStatus(const AxisRefList& first, const AxisRefList& second) {
  if (first.empty() && second.empty()) return PrefixStatus::Equal;
  if (first.empty()) return PrefixStatus::StrictPrefix;
  if (first.size() > second.size()) return PrefixStatus::NotAPrefix;
  size_t n = first.size();
  for (size_t i = 0; i + 1 < n; ++i)
    if (!(first[i] == second[i])) return PrefixStatus::NotAPrefix;
  if (first.size() == second.size() && first.back() == second.back()) return PrefixStatus::Equal;
  if (prefixOf(first[n - 1], second[n - 1])) return PrefixStatus::StrictPrefix;
  return PrefixStatus::NotAPrefix;
}

AxisRef makeSubAxis(const std::string& name, int64_t preSize, int64_t size, const Mesh& mesh) {
  if (preSize == 1 && size == mesh.axisSize(name)) return AxisRef{name, std::nullopt};
  return AxisRef{name, SubAxisInfo{preSize, size}};
}

void appendOrMerge(AxisRefList& list, const AxisRef& axis, const Mesh& mesh) {
  if (!list.empty()) {
    AxisRef& last = list.back();
    if (last.name == axis.name && last.subAxis && axis.subAxis &&
        last.subAxis->nextPreSize() == axis.subAxis->preSize) {
      last = makeSubAxis(last.name, last.subAxis->preSize, last.subAxis->size * axis.subAxis->size,
                         mesh);
      return;
    }
  }
  list.push_back(axis);
}

}  // namespace shardscope::propagation
