// Axis list operations for explicit reshards (see axis_lists.h).
#include "passes/explicit_reshards/axis_lists.h"

#include <algorithm>
#include <optional>

#include "propagation/axis_algebra.h"

namespace shardscope::passes::explicit_reshards {

namespace prop = shardscope::propagation;

bool axisLess(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name) return a.name < b.name;
  if (!a.subAxis) return b.preSize() > 1;
  if (!b.subAxis) return a.preSize() == 1;
  if (a.subAxis->preSize != b.subAxis->preSize) return a.subAxis->preSize < b.subAxis->preSize;
  return a.subAxis->size < b.subAxis->size;
}

bool axisListLess(const AxisRefList& a, const AxisRefList& b) {
  if (a.size() != b.size()) return a.size() < b.size();
  for (size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i])) return axisLess(a[i], b[i]);
  return false;
}

bool isStrictListPrefix(const AxisRefList& a, const AxisRefList& b) {
  return prop::isStrictPrefix(a, b);
}

bool cutAtOverlap(AxisRefList& axes, const AxisRefList& others) {
  for (size_t i = 0; i < axes.size(); ++i) {
    std::optional<AxisRef> prefix = prop::prefixWithoutOverlap(axes[i], others);
    if (prefix && *prefix == axes[i]) continue;
    axes.resize(i);
    if (prefix) axes.push_back(*prefix);
    return true;
  }
  return false;
}

namespace {

// The part of `a` after `b` when they overlap, or nullopt.
std::optional<AxisRef> suffixWithoutOverlap(const AxisRef& a, const AxisRef& b, const Mesh& mesh) {
  if (!prop::canCoexist(a, b)) return std::nullopt;
  if (!prop::overlaps(a, b)) return a;
  int64_t aNext = a.preSize() * a.size(mesh);
  int64_t bNext = b.preSize() * b.size(mesh);
  if (aNext <= bNext) return std::nullopt;
  return prop::makeSubAxis(a.name, bNext, aNext / bNext, mesh);
}

}  // namespace

AxisRefList axisSetDiff(const AxisRefList& a, const AxisRefList& b, const Mesh& mesh) {
  if (a.empty() || a == b) return {};
  if (b.empty()) return a;
  AxisRefList result;
  for (const AxisRef& whole : a) {
    std::optional<AxisRef> rest = whole;
    while (rest) {
      // The overlapping axis of `b` that starts first along the axis.
      const AxisRef* first = nullptr;
      for (const AxisRef& other : b)
        if (prop::overlaps(*rest, other) && (!first || other.preSize() < first->preSize())) first = &other;
      if (!first) {
        result.push_back(*rest);
        break;
      }
      if (std::optional<AxisRef> prefix = prop::prefixWithoutOverlap(*rest, *first))
        result.push_back(*prefix);
      rest = suffixWithoutOverlap(*rest, *first, mesh);
    }
  }
  return result;
}

void sortAndMerge(AxisRefList& axes, const Mesh& mesh) { axes = canonicalAxisSet(std::move(axes), mesh); }

AxisRefList commonListPrefix(const AxisRefList& a, const AxisRefList& b) {
  AxisRefList out;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] == b[i]) {
      out.push_back(a[i]);
      continue;
    }
    if (std::optional<AxisRef> common = prop::greatestCommonPrefix(a[i], b[i])) out.push_back(*common);
    break;
  }
  return out;
}

}  // namespace shardscope::passes::explicit_reshards
