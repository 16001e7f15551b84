// Sub-axis pieces for the reshard planner (see reshard_to_collectives_axes.h).
#include "passes/reshard_to_collectives_axes.h"

#include <algorithm>

#include "propagation/axis_algebra.h"

namespace shardscope::passes::reshard {

AxisRef subAxis(const std::string& name, int64_t preSize, int64_t size) {
  return AxisRef{name, SubAxisInfo{preSize, size}};
}

int64_t endPreSize(const AxisRef& axis, const Mesh& mesh) {
  return axis.subAxis ? axis.subAxis->nextPreSize() : propagation::axisSize(axis, mesh);
}

bool sdyLess(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name) return a.name < b.name;
  if (!a.subAxis) return b.preSize() > 1;
  if (!b.subAxis) return a.preSize() == 1;
  if (a.subAxis->preSize != b.subAxis->preSize) return a.subAxis->preSize < b.subAxis->preSize;
  return a.subAxis->size < b.subAxis->size;
}

std::optional<AxisRef> overlapOf(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name) return std::nullopt;
  if (!a.subAxis) return b;
  if (!b.subAxis) return a;
  int64_t firstPre = std::max(a.subAxis->preSize, b.subAxis->preSize);
  int64_t firstEnd = std::min(a.subAxis->nextPreSize(), b.subAxis->nextPreSize());
  if (firstEnd <= firstPre || !propagation::canCoexist(a, b)) return std::nullopt;
  return subAxis(a.name, firstPre, firstEnd / firstPre);
}

std::optional<AxisRef> suffixWithoutOverlap(const AxisRef& a, const AxisRef& b, const Mesh& mesh) {
  if (!propagation::canCoexist(a, b)) return std::nullopt;
  if (!propagation::overlaps(a, b)) return a;
  int64_t aEnd = endPreSize(a, mesh), bEnd = endPreSize(b, mesh);
  if (aEnd <= bEnd) return std::nullopt;
  return subAxis(a.name, bEnd, aEnd / bEnd);
}

namespace {

// Index of the first axis of `sorted` overlapping `axis`, or sorted.size().
// The axes of `sorted` do not overlap each other, so only the neighbours of
// `axis`'s insertion point can overlap it first.
size_t firstOverlapping(const AxisRef& axis, const std::vector<AxisRef>& sorted) {
  auto after = std::lower_bound(sorted.begin(), sorted.end(), axis, sdyLess);
  if (after != sorted.begin() && propagation::overlaps(axis, *std::prev(after)))
    return static_cast<size_t>(std::prev(after) - sorted.begin());
  if (after != sorted.end() && propagation::overlaps(axis, *after))
    return static_cast<size_t>(after - sorted.begin());
  return sorted.size();
}

std::vector<AxisRef> sortedAxes(const std::vector<AxisSeq>& axesPerDim) {
  std::vector<AxisRef> all;
  for (const AxisSeq& axes : axesPerDim) all.insert(all.end(), axes.begin(), axes.end());
  std::sort(all.begin(), all.end(), sdyLess);
  return all;
}

}  // namespace

void alignSubAxes(AxisSeq& axes, const std::vector<AxisRef>& sortedOthers, const Mesh& mesh) {
  auto it = axes.begin();
  while (it != axes.end()) {
    AxisRef axis = *it;
    size_t other = firstOverlapping(axis, sortedOthers);
    bool finishedAxis = false;
    // Cut `axis` at each boundary of the other side's pieces it straddles,
    // walking those pieces in order while a remainder is left.
    while (other < sortedOthers.size()) {
      const AxisRef& piece = sortedOthers[other];
      if (!propagation::canCoexist(piece, axis) || propagation::contains(piece, axis) ||
          !propagation::overlaps(piece, axis))
        break;
      it = axes.erase(it);
      if (auto before = propagation::prefixWithoutOverlap(axis, piece)) axes.insert(it, *before);
      axes.insert(it, *overlapOf(axis, piece));
      auto after = suffixWithoutOverlap(axis, piece, mesh);
      if (!after) {
        finishedAxis = true;
        break;
      }
      it = axes.insert(it, *after);
      axis = *after;
      ++other;
    }
    if (!finishedAxis) ++it;
  }
}

void alignSubAxes(std::vector<AxisSeq>& axesPerDim, const std::vector<AxisRef>& sortedOthers,
                  const Mesh& mesh) {
  if (sortedOthers.empty()) return;
  for (AxisSeq& axes : axesPerDim) alignSubAxes(axes, sortedOthers, mesh);
}

void alignSubAxes(std::vector<AxisSeq>& in, std::vector<AxisSeq>& out, const Mesh& mesh) {
  std::vector<AxisRef> sortedIn = sortedAxes(in);
  std::vector<AxisRef> sortedOut = sortedAxes(out);
  alignSubAxes(in, sortedOut, mesh);
  alignSubAxes(out, sortedIn, mesh);
}

}  // namespace shardscope::passes::reshard
