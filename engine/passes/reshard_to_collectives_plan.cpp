// The collectives of one reshard (planReshard, see reshard_to_collectives.h).
//
// The plan keeps the *difference* between the current sharding and the
// target as two lists of axes per dimension: `in_[d]` (axes the current
// sharding has in dimension d past the part it shares with the target) and
// `out_[d]` (axes the target wants there past that shared part). Every
// collective shrinks that difference; the plan is done when both are empty
// and the devices are in the target's order. `current_[d]` is the whole
// current dimension (shared part included): each collective's out_sharding.
//
// Example (mesh x=2, y=2, z=2, tensor<4x10>): in [{}, {"x", "z"}] to
// [{"x", "y", "z"}, {}]:
//   in_ = [[], [x, z]], out_ = [[x, y, z], []]
//   all-slice y on dim 0           -> current [{"y"}, {"x", "z"}]
//   collective-permute             -> current [{"x"}, {"y", "z"}]
//   all-to-all {"y", "z"}: 1->0    -> current [{"x", "y", "z"}, {}]
//
// The order of attempts and the choice of axes follow the reference
// implementation step by step, since the printed collectives must match
// sdy_opt's; the comments say why each step helps.
#include <algorithm>
#include <functional>
#include <numeric>

#include "passes/reshard_to_collectives.h"
#include "passes/reshard_to_collectives_axes.h"
#include "propagation/axis_algebra.h"

namespace shardscope::passes {

const char* collectiveKindName(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::AllGather: return "all-gather";
    case CollectiveKind::AllSlice: return "all-slice";
    case CollectiveKind::AllToAll: return "all-to-all";
    case CollectiveKind::CollectivePermute: return "collective-permute";
    case CollectiveKind::AllReduce: return "all-reduce";
    case CollectiveKind::ReduceScatter: return "reduce-scatter";
    case CollectiveKind::ShardedToUnreduced: return "sharded-to-unreduced";
    case CollectiveKind::ReplicatedToUnreduced: return "replicated-to-unreduced";
  }
  return "";
}

namespace {

using reshard::AxisSeq;
using reshard::appendMerged;

bool divides(int64_t a, int64_t b) { return a % b == 0 || b % a == 0; }

// Where an axis of the target sits: dimension and position in `out_[dim]`.
struct TargetSlot {
  int64_t dim;
  int64_t index;
};

class ReshardPlanner {
 public:
  ReshardPlanner(const TensorSharding& in, const TensorSharding& out, const Mesh& mesh,
                 const std::vector<int64_t>& shape)
      : mesh_(mesh),
        shape_(shape),
        curMesh_(in.mesh),
        outMesh_(out.mesh),
        unreduced_(out.unreduced),
        rank_(in.rank()),
        capacity_(static_cast<size_t>(in.rank()), 1) {
    for (const DimensionSharding& d : in.dims) {
      in_.emplace_back(d.axes.begin(), d.axes.end());
      current_.push_back(d.axes);
    }
    for (const DimensionSharding& d : out.dims) out_.emplace_back(d.axes.begin(), d.axes.end());
    // With both sides cut into the same pieces, equal pieces are equal keys.
    reshard::alignSubAxes(in_, out_, mesh_);
    // The shared major part of each dimension never moves.
    for (int64_t d = 0; d < rank_; ++d) {
      AxisSeq& i = in_[d];
      AxisSeq& o = out_[d];
      while (!i.empty() && !o.empty() && i.front() == o.front()) {
        i.pop_front();
        o.pop_front();
      }
    }
    for (const AxisSeq& axes : in_)
      for (const AxisRef& a : axes) inSetAdd(a);
    indexTargets();
  }

  std::vector<PlannedCollective> plan() {
    // With axis sizes that divide each other (powers of two), one round
    // suffices: slicing, permuting and all-to-alls place every target axis,
    // and the gather removes what is left. Other sizes may need a second.
    for (int round = 0; round < 2 && !done(); ++round) {
      tryAllSlice();
      tryCollectivePermute();
      // Axes that land at their final place in the target dimension first,
      // so that several all-to-alls into one dimension arrive in order.
      tryAllToAlls(/*allowOutOfOrder=*/false);
      tryAllToAlls(/*allowOutOfOrder=*/true);
      tryAllGather();
    }
    return std::move(plan_);
  }

 private:
  // ---- state helpers -------------------------------------------------------

  int64_t size(const AxisRef& a) const { return propagation::axisSize(a, mesh_); }
  template <typename C>
  int64_t sizeOf(const C& axes) const {
    int64_t p = 1;
    for (const AxisRef& a : axes) p *= size(a);
    return p;
  }

  bool done() const {
    if (!(curMesh_ == outMesh_)) return false;
    for (int64_t d = 0; d < rank_; ++d)
      if (!in_[d].empty() || !out_[d].empty()) return false;
    return true;
  }

  bool inSetHas(const AxisRef& a) const { return std::find(inSet_.begin(), inSet_.end(), a) != inSet_.end(); }
  void inSetAdd(const AxisRef& a) {
    if (!inSetHas(a)) inSet_.push_back(a);
  }
  void inSetRemove(const AxisRef& a) {
    auto it = std::find(inSet_.begin(), inSet_.end(), a);
    if (it != inSet_.end()) inSet_.erase(it);
  }

  // The slot of `a` among the target's axes, as of the last indexTargets()
  // (the index is refreshed where the reference refreshes it, not after each
  // change, since which collective comes next depends on it).
  const TargetSlot* targetOf(const AxisRef& a) const {
    for (const auto& [axis, slot] : targets_)
      if (axis == a) return &slot;
    return nullptr;
  }
  void indexTargets() {
    targets_.clear();
    for (int64_t d = 0; d < rank_; ++d) {
      int64_t i = 0;
      for (const AxisRef& a : out_[d]) {
        if (!targetOf(a)) targets_.push_back({a, TargetSlot{d, i}});
        ++i;
      }
    }
  }

  TensorSharding currentSharding() const {
    TensorSharding s;
    s.mesh = curMesh_;
    for (const AxisRefList& axes : current_) s.dims.push_back(DimensionSharding{axes, true, std::nullopt});
    s.unreduced = unreduced_;
    return s;
  }

  // Drop the axes of `seq` from `from` to its end off the minor end of
  // `current` (a piece of a larger current axis leaves what precedes it).
  void dropFromCurrent(AxisRefList& current, const AxisSeq& seq, AxisSeq::const_iterator from) {
    for (auto it = seq.end(); it != from;) {
      --it;
      if (current.empty()) return;
      if (auto prefix = propagation::prefixWithoutOverlap(current.back(), *it))
        current.back() = *prefix;
      else
        current.pop_back();
    }
  }

  // The part of `axis` that fits in `capacity` (which it then reduces), and
  // the rest of it when it had to be cut; nothing when the sizes do not
  // divide each other.
  struct Fit {
    std::optional<AxisRef> within;
    std::optional<AxisRef> rest;
  };
  Fit fitInto(const AxisRef& axis, int64_t& capacity) const {
    int64_t s = size(axis);
    if (capacity <= 1 || !divides(s, capacity)) return {};
    if (capacity >= s) {
      capacity /= s;
      return {axis, std::nullopt};
    }
    AxisRef within = reshard::subAxis(axis.name, axis.preSize(), capacity);
    AxisRef rest = reshard::subAxis(axis.name, axis.preSize() * capacity, s / capacity);
    capacity = 1;
    return {within, rest};
  }

  // Hand axes from `available(d)` to the dimensions with capacity left, in
  // dimension order, at the front or the back of `in_[d]`.
  void spread(bool atFront, const std::function<AxisSeq&(int64_t)>& available,
              const std::function<void(const AxisRef&, int64_t)>& taken = nullptr) {
    std::vector<AxisRef> cut;
    for (int64_t d = 0; d < rank_; ++d) {
      AxisSeq& in = in_[d];
      int64_t& capacity = capacity_[d];
      auto insertAt = atFront ? in.begin() : in.end();
      AxisSeq& avail = available(d);
      auto it = avail.begin();
      while (it != avail.end() && capacity > 1) {
        Fit fit = fitInto(*it, capacity);
        if (!fit.within) {
          ++it;
          continue;
        }
        it = avail.erase(it);
        in.insert(insertAt, *fit.within);
        inSetAdd(*fit.within);
        if (taken) taken(*fit.within, d);
        if (fit.rest) {
          cut.push_back(*fit.within);
          avail.push_front(*fit.rest);
        }
      }
    }
    // A cut axis may now straddle target pieces: cut those to match.
    std::sort(cut.begin(), cut.end(), reshard::sdyLess);
    reshard::alignSubAxes(out_, cut, mesh_);
  }
  void spread(AxisSeq& available, bool atFront,
              const std::function<void(const AxisRef&, int64_t)>& taken = nullptr) {
    spread(atFront, [&](int64_t) -> AxisSeq& { return available; }, taken);
  }

  void emit(CollectiveKind kind, std::vector<AxisRefList> axesPerDim = {}, AllToAllParam param = {}) {
    plan_.push_back(PlannedCollective{kind, std::move(axesPerDim), std::move(param), currentSharding()});
  }

  // ---- all-slice -----------------------------------------------------------

  // Target axes of dimension `tgt` that can be sliced at `src` now so that
  // one all-to-all later moves them to `tgt` together with `src`'s minor
  // axes, in order (slicing them at `tgt` would need a permute afterwards).
  // Returns the range of `out_[tgt]` to slice, and takes the size moving to
  // `tgt` from its capacity.
  std::optional<std::pair<AxisSeq::iterator, AxisSeq::iterator>> slicesForAllToAll(int64_t src) {
    AxisSeq& srcIn = in_[src];
    if (srcIn.empty() || !out_[src].empty()) return std::nullopt;
    const TargetSlot* slot = targetOf(srcIn.back());
    if (!slot) return std::nullopt;
    int64_t tgt = slot->dim;
    if (!in_[tgt].empty()) return std::nullopt;
    AxisSeq& tgtOut = out_[tgt];
    auto found = std::find(tgtOut.begin(), tgtOut.end(), srcIn.back());
    if (found == tgtOut.end()) return std::nullopt;
    auto start = std::next(found);
    if (start == tgtOut.end() || inSetHas(*start)) return std::nullopt;

    // The minor axes of `src` that already match the target in order.
    auto inRev = srcIn.rbegin();
    auto outRev = std::make_reverse_iterator(start);
    int64_t matchedSize = 1;
    while (inRev != srcIn.rend() && outRev != tgtOut.rend() && *inRev == *outRev) {
      matchedSize *= size(*inRev);
      ++inRev;
      ++outRev;
    }
    // Any other target axis of `tgt` left in `src` would arrive out of order.
    for (; inRev != srcIn.rend(); ++inRev)
      if (const TargetSlot* s = targetOf(*inRev); s && s->dim == tgt) return std::nullopt;

    auto end = start;
    int64_t slicedSize = 1;
    while (end != tgtOut.end() && !inSetHas(*end)) slicedSize *= size(*end++);
    // Slicing must divide `src` evenly (no padding).
    int64_t shards = sizeOf(current_[src]) * slicedSize;
    if (src >= static_cast<int64_t>(shape_.size()) || shape_[src] <= 0 || shape_[src] % shards != 0)
      return std::nullopt;
    capacity_[tgt] /= matchedSize * slicedSize;
    return std::make_pair(start, end);
  }

  // Slicing axes per dimension, or nothing when no axis can be sliced.
  // A dimension's capacity is how much more the target shards it than the
  // current sharding does; slicing more would need an all-to-all to undo.
  std::optional<std::vector<AxisRefList>> slicingAxes() {
    std::vector<AxisRefList> slicing(static_cast<size_t>(rank_));
    bool any = false;
    for (int64_t d = 0; d < rank_; ++d) {
      int64_t inSize = sizeOf(in_[d]), outSize = sizeOf(out_[d]);
      capacity_[d] = outSize / std::gcd(inSize, outSize);
    }

    // 1. Slices at a source dimension for a later all-to-all.
    for (int64_t src = 0; src < rank_; ++src) {
      auto range = slicesForAllToAll(src);
      if (!range) continue;
      any = true;
      for (auto it = range->first; it != range->second; ++it) {
        in_[src].push_back(*it);
        inSetAdd(*it);
        appendMerged(slicing[src], *it, mesh_);
        appendMerged(current_[src], *it, mesh_);
      }
    }

    // 2. Target axes sliced in their own dimension, while capacity lasts.
    AxisSeq leftover;
    for (int64_t d = 0; d < rank_; ++d) {
      AxisSeq& in = in_[d];
      AxisSeq& out = out_[d];
      auto it = out.begin();
      while (it != out.end()) {
        AxisRef axis = *it;
        if (inSetHas(axis)) {  // the current sharding has it elsewhere
          ++it;
          continue;
        }
        Fit fit = fitInto(axis, capacity_[d]);
        if (!fit.within) {
          leftover.push_back(axis);
          ++it;
          continue;
        }
        any = true;
        appendMerged(slicing[d], *fit.within, mesh_);
        appendMerged(current_[d], *fit.within, mesh_);
        if (in.empty() && it == out.begin()) {
          it = out.erase(it);  // it is where the target wants it
        } else {
          inSetAdd(*fit.within);
          in.push_back(*fit.within);
          *it = *fit.within;
          ++it;
        }
        if (fit.rest) {
          out.insert(it, *fit.rest);
          leftover.push_back(*fit.rest);
        }
      }
    }

    // 3. What is left, in the first dimension with capacity.
    spread(leftover, /*atFront=*/false, [&](const AxisRef& axis, int64_t d) {
      any = true;
      appendMerged(slicing[static_cast<size_t>(d)], axis, mesh_);
      appendMerged(current_[static_cast<size_t>(d)], axis, mesh_);
    });
    indexTargets();
    if (!any) return std::nullopt;
    return slicing;
  }

  void tryAllSlice() {
    if (auto slicing = slicingAxes()) emit(CollectiveKind::AllSlice, std::move(*slicing));
  }

  // ---- collective-permute --------------------------------------------------

  // Whether a permute brings the plan closer: an axis can be swapped for a
  // target axis of a dividing size in place (front of a dimension, or any
  // axis to gather for any axis to slice), or axes bound for one target
  // dimension are out of order or not contiguous, or an axis to gather sits
  // after one bound elsewhere in a dimension the target leaves empty.
  bool permuteHelps() const {
    std::optional<AxisRef> toGather, toSlice;
    for (int64_t d = 0; d < rank_; ++d) {
      const AxisSeq& in = in_[d];
      const AxisSeq& out = out_[d];
      if (!in.empty() && !out.empty() && divides(size(in.front()), size(out.front()))) return true;
      for (const AxisRef& o : out)
        if (!inSetHas(o)) toSlice = o;
      std::optional<int64_t> lastDim;
      int64_t lastIndex = 0;
      std::vector<bool> seen(static_cast<size_t>(rank_), false);
      for (const AxisRef& a : in) {
        std::optional<int64_t> dim;
        if (const TargetSlot* slot = targetOf(a)) {
          dim = slot->dim;
          if ((slot->dim == d || seen[static_cast<size_t>(slot->dim)]) &&
              (lastDim != dim || slot->index != lastIndex + 1))
            return true;
          seen[static_cast<size_t>(slot->dim)] = true;
          lastIndex = slot->index;
        } else if (lastDim && out.empty()) {
          return true;
        } else {
          toGather = a;
        }
        lastDim = dim;
      }
    }
    return toSlice && toGather && divides(size(*toSlice), size(*toGather));
  }

  // Rebuild every dimension at the same sharded size: first the target's
  // axes where they belong, then other target axes wherever there is room
  // (at the minor end, ready for an all-to-all), then the axes to gather
  // back in their dimension, then anywhere (at the major end, so that they
  // are gathered after the others have moved on).
  void permute() {
    AxisSeq spareTargets;
    std::vector<AxisSeq> spareCurrent(static_cast<size_t>(rank_));
    inSet_.clear();
    for (int64_t d = 0; d < rank_; ++d) {
      AxisSeq& in = in_[d];
      AxisSeq& out = out_[d];
      AxisRefList& current = current_[d];
      int64_t& capacity = capacity_[d];
      capacity = sizeOf(in);
      int64_t used = capacity;
      dropFromCurrent(current, in, in.begin());
      while (capacity > 1 && !out.empty()) {
        Fit fit = fitInto(out.front(), capacity);
        if (!fit.within) break;
        out.pop_front();
        appendMerged(current, *fit.within, mesh_);
        if (fit.rest) out.push_front(*fit.rest);
      }
      spareTargets.insert(spareTargets.end(), out.begin(), out.end());

      // The current axes displaced by the target's (the first `used` of
      // them) go first, the rest keep their place after them.
      used /= capacity;
      in.remove_if([&](const AxisRef& a) { return targetOf(a) != nullptr; });
      AxisSeq& spare = spareCurrent[static_cast<size_t>(d)];
      while (used > 1 && !in.empty()) {
        Fit fit = fitInto(in.front(), used);
        if (!fit.within) break;
        in.pop_front();
        spare.push_back(*fit.within);
        if (fit.rest) in.push_front(*fit.rest);
      }
      spare.splice(spare.begin(), in);
    }
    spread(spareTargets, /*atFront=*/false);
    spread(/*atFront=*/true, [&](int64_t d) -> AxisSeq& { return spareCurrent[static_cast<size_t>(d)]; });
    AxisSeq allSpare;
    for (AxisSeq& s : spareCurrent) allSpare.splice(allSpare.end(), s);
    spread(allSpare, /*atFront=*/true);
    indexTargets();
    for (int64_t d = 0; d < rank_; ++d)
      for (const AxisRef& a : in_[d]) appendMerged(current_[d], a, mesh_);
  }

  void tryCollectivePermute() {
    if (permuteHelps()) {
      permute();
    } else if (curMesh_ == outMesh_) {
      return;
    }
    // Also when only the device order differs (a mesh with other device ids).
    curMesh_ = outMesh_;
    emit(CollectiveKind::CollectivePermute);
  }

  // ---- all-to-all ----------------------------------------------------------

  // The minor axes of `src` all bound for one other dimension, moved there.
  std::optional<AllToAllParam> allToAllFrom(int64_t src, bool allowOutOfOrder) {
    AxisSeq& srcIn = in_[src];
    auto rev = srcIn.rbegin();
    std::optional<int64_t> tgt;
    size_t count = 0;
    for (; rev != srcIn.rend(); ++rev) {
      const TargetSlot* slot = targetOf(*rev);
      if (!slot || slot->dim == src || (tgt && slot->dim != *tgt)) break;
      tgt = slot->dim;
      ++count;
    }
    if (!tgt) return std::nullopt;
    auto start = rev.base();
    AxisSeq& tgtOut = out_[*tgt];
    if (!allowOutOfOrder &&
        (tgtOut.size() < count || !std::equal(start, srcIn.end(), tgtOut.begin())))
      return std::nullopt;

    AllToAllParam param{{}, src, *tgt};
    dropFromCurrent(current_[src], srcIn, start);
    AxisSeq& tgtIn = in_[*tgt];
    for (auto it = start; it != srcIn.end();) {
      AxisRef axis = *it;
      appendMerged(param.axes, axis, mesh_);
      appendMerged(current_[*tgt], axis, mesh_);
      it = srcIn.erase(it);
      inSetRemove(axis);
      if (tgtIn.empty() && !tgtOut.empty() && tgtOut.front() == axis) {
        tgtOut.pop_front();
      } else {
        tgtIn.push_back(axis);
        inSetAdd(axis);
      }
    }
    return param;
  }

  void tryAllToAlls(bool allowOutOfOrder) {
    for (int64_t src = 0; src < rank_; ++src)
      while (auto param = allToAllFrom(src, allowOutOfOrder))
        emit(CollectiveKind::AllToAll, {}, std::move(*param));
  }

  // ---- all-gather ----------------------------------------------------------

  // The axes to gather in dimension `d`. Like the reference, a dimension
  // whose minor-most remaining axis is not wanted by the target is gathered
  // whole (only that axis leaves the set of current axes); one whose
  // minor-most axis is wanted is left for a later round.
  AxisRefList gatheringAxes(int64_t d) {
    AxisSeq& in = in_[d];
    if (in.empty() || targetOf(in.back())) return {};
    inSetRemove(in.back());
    dropFromCurrent(current_[d], in, in.begin());
    AxisRefList gathering;
    for (const AxisRef& a : in) appendMerged(gathering, a, mesh_);
    in.clear();
    return gathering;
  }

  void tryAllGather() {
    std::vector<AxisRefList> gathering(static_cast<size_t>(rank_));
    bool any = false;
    for (int64_t d = 0; d < rank_; ++d) {
      gathering[d] = gatheringAxes(d);
      any |= !gathering[d].empty();
    }
    if (any) emit(CollectiveKind::AllGather, std::move(gathering));
  }

  const Mesh& mesh_;
  const std::vector<int64_t>& shape_;
  MeshRef curMesh_, outMesh_;
  AxisRefList unreduced_;
  int64_t rank_;
  std::vector<AxisSeq> in_, out_;
  std::vector<AxisRefList> current_;
  std::vector<int64_t> capacity_;
  std::vector<AxisRef> inSet_;
  std::vector<std::pair<AxisRef, TargetSlot>> targets_;
  std::vector<PlannedCollective> plan_;
};

}  // namespace

std::vector<PlannedCollective> planReshard(const TensorSharding& in, const TensorSharding& out,
                                           const Mesh& mesh, const std::vector<int64_t>& shape) {
  if (in.rank() != out.rank()) return {};
  return ReshardPlanner(in, out, mesh, shape).plan();
}

}  // namespace shardscope::passes
