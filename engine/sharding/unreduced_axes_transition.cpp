// Unreduced axis transitions (see the header).
#include "sharding/unreduced_axes_transition.h"

#include <algorithm>
#include <limits>

namespace shardscope {

namespace {

// Pre-size range [first, last) of `ref` on its axis; a full axis runs to its
// size, or to "infinity" when the mesh is unknown.
std::pair<int64_t, int64_t> preRange(const AxisRef& ref, const Mesh* mesh) {
  if (ref.subAxis) return {ref.subAxis->preSize, ref.subAxis->nextPreSize()};
  int64_t size = mesh ? mesh->axisSize(ref.name) : 0;
  return {1, size > 1 ? size : std::numeric_limits<int64_t>::max()};
}

// Same axis and overlapping ranges; a full axis overlaps any part of itself.
bool axesOverlap(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name) return false;
  if (!a.subAxis || !b.subAxis) return true;
  return a.subAxis->preSize < b.subAxis->nextPreSize() &&
         b.subAxis->preSize < a.subAxis->nextPreSize();
}

AxisRef subAxisOf(const std::string& name, int64_t first, int64_t last) {
  return AxisRef{name, SubAxisInfo{first, last / first}};
}

AxisRefList unreducedOf(const std::vector<const TensorSharding*>& shardings) {
  AxisRefList out;
  for (const TensorSharding* s : shardings)
    if (s) out.insert(out.end(), s->unreduced.begin(), s->unreduced.end());
  return out;
}

// The reduction of the first sharding that has an unreduced axis overlapping
// `diff` and whose reduction differs from `expected`, if any.
std::optional<std::string> mismatchedReduction(const std::vector<const TensorSharding*>& shardings,
                                               const AxisRefList& diff,
                                               const std::string& expected) {
  for (const TensorSharding* s : shardings) {
    if (!s) continue;
    bool touches = std::any_of(s->unreduced.begin(), s->unreduced.end(), [&](const AxisRef& axis) {
      return std::any_of(diff.begin(), diff.end(),
                         [&](const AxisRef& d) { return axesOverlap(axis, d); });
    });
    if (touches && s->unreducedReduction != expected) return s->unreducedReduction;
  }
  return std::nullopt;
}

}  // namespace

AxisRefList unreducedAxisDifference(const AxisRefList& a, const AxisRefList& b, const Mesh* mesh) {
  if (a.empty() || a == b) return {};
  AxisRefList out;
  for (const AxisRef& axis : a) {
    // Walk the ranges of `b` on this axis in order, keeping the gaps.
    std::vector<std::pair<int64_t, int64_t>> covers;
    for (const AxisRef& other : b)
      if (axesOverlap(axis, other)) covers.push_back(preRange(other, mesh));
    if (covers.empty()) {
      out.push_back(axis);
      continue;
    }
    std::sort(covers.begin(), covers.end());
    auto [first, last] = preRange(axis, mesh);
    for (const auto& [coverFirst, coverLast] : covers) {
      if (first >= last) break;
      if (coverFirst > first)
        out.push_back(subAxisOf(axis.name, first, std::min(coverFirst, last)));
      first = std::max(first, coverLast);
    }
    if (first < last && last != std::numeric_limits<int64_t>::max())
      out.push_back(subAxisOf(axis.name, first, last));
  }
  return out;
}

std::string checkUnreducedAxesTransition(const std::vector<const TensorSharding*>& operands,
                                         const std::vector<const TensorSharding*>& results,
                                         const UnreducedTransitionRules& rules,
                                         const MeshResolver& meshOf) {
  // One mesh for all shardings, else nothing to compare.
  const Mesh* mesh = nullptr;
  for (const auto* list : {&operands, &results})
    for (const TensorSharding* s : *list) {
      if (!s) continue;
      const Mesh* m = meshOf(s->mesh);
      if (!m) continue;
      if (!mesh)
        mesh = m;
      else if (!(*mesh == *m))
        return "";
    }

  AxisRefList operandAxes = unreducedOf(operands);
  AxisRefList resultAxes = unreducedOf(results);
  AxisRefList introduced = unreducedAxisDifference(resultAxes, operandAxes, mesh);
  AxisRefList removed = unreducedAxisDifference(operandAxes, resultAxes, mesh);

  if (!introduced.empty()) {
    if (!rules.introduce) return "cannot add new unreduced axis '" + introduced.front().name + "'.";
    if (auto kind = mismatchedReduction(results, introduced, *rules.introduce))
      return "cannot introduce '" + *kind + "' unreduced axes. Expected '" + *rules.introduce +
             "'.";
  }
  if (!removed.empty()) {
    if (!rules.remove)
      return "dropped unreduced axis '" + removed.front().name +
             "' without a blessed operation (e.g., sdy.reshard). This is an invalid transition "
             "from "
             "unreduced to reduced.";
    if (auto kind = mismatchedReduction(operands, removed, *rules.remove))
      return "cannot reduce '" + *kind + "' unreduced axes. Expected '" + *rules.remove + "'.";
  }
  // Axes kept from an operand to a result keep their reduction.
  for (const TensorSharding* result : results) {
    if (!result) continue;
    for (const AxisRef& resultAxis : result->unreduced)
      for (const TensorSharding* operand : operands) {
        if (!operand || operand->unreducedReduction == result->unreducedReduction) continue;
        for (const AxisRef& operandAxis : operand->unreduced)
          if (axesOverlap(operandAxis, resultAxis))
            return "cannot change the reduction operator of kept unreduced axes from " +
                   operand->unreducedReduction + " to " + result->unreducedReduction + ".";
      }
  }
  return "";
}

}  // namespace shardscope
