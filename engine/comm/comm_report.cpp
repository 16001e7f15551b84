// The communication report (see comm_report.h).
#include "comm/comm_report.h"

#include <unordered_map>

#include "comm/ring_cost.h"
#include "passes/pass_utils.h"
#include "passes/reshard_to_collectives_axes.h"
#include "propagation/axis_algebra.h"

namespace shardscope::comm {

namespace {

using passes::CollectiveKind;

std::optional<CollectiveKind> kindOf(const ir::Op& op) { return ir::collectiveKindOf(op); }

bool isCommunication(const ir::Op& op) { return op.is("sdy.reshard") || kindOf(op).has_value(); }

// The start of the chain of reshards, collectives and barriers `v` ends.
const ir::Value* chainStart(const ir::Value* v) {
  while (v && v->definingOp && v->definingOp->numOperands() == 1 &&
         (isCommunication(*v->definingOp) || v->definingOp->is("sdy.propagation_barrier")))
    v = v->definingOp->operand(0);
  return v;
}

// The end of the chain `v` starts: followed while its only user is a reshard
// or a collective.
const ir::Value* chainEnd(const ir::Value* v) {
  while (v && v->hasOneUse() && isCommunication(*v->uses().front().user) &&
         v->uses().front().user->numResults() == 1)
    v = v->uses().front().user->result(0);
  return v;
}

// `a` past its common major part with `b` ("x" past "x":(1)2 is "x":(2)2).
AxisRefList beyondCommonPrefix(const AxisRefList& a, const AxisRefList& b, const Mesh& mesh) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  AxisRefList rest(a.begin() + static_cast<std::ptrdiff_t>(i), a.end());
  if (!rest.empty() && i < b.size() && propagation::strictPrefixOf(b[i], rest.front()))
    if (auto tail = passes::reshard::suffixWithoutOverlap(rest.front(), b[i], mesh)) rest.front() = *tail;
  return rest;
}

AxisRefList axesLeaving(const TensorSharding& from, const TensorSharding& to, const Mesh& mesh) {
  AxisRefList out;
  for (size_t d = 0; d < from.dims.size(); ++d) {
    AxisRefList rest = beyondCommonPrefix(from.dims[d].axes, d < to.dims.size() ? to.dims[d].axes : AxisRefList{}, mesh);
    out.insert(out.end(), rest.begin(), rest.end());
  }
  return out;
}

AxisRefList axesOfChangedDims(const TensorSharding& from, const TensorSharding& to) {
  AxisRefList out;
  for (size_t d = 0; d < to.dims.size(); ++d)
    if (d >= from.dims.size() || from.dims[d].axes != to.dims[d].axes)
      out.insert(out.end(), to.dims[d].axes.begin(), to.dims[d].axes.end());
  return out;
}

AxisRefList axesMissingFrom(const AxisRefList& a, const AxisRefList& b) {
  AxisRefList out;
  for (const AxisRef& x : a)
    if (std::find(b.begin(), b.end(), x) == b.end()) out.push_back(x);
  return out;
}

// The axes a collective of `kind` works on, read from the shardings it
// moves between (the same for every spelling of its attributes).
AxisRefList collectiveAxes(CollectiveKind kind, const ir::Op* op, const TensorSharding& in,
                           const TensorSharding& out, const Mesh& mesh) {
  switch (kind) {
    case CollectiveKind::AllGather:
    case CollectiveKind::AllToAll: return axesLeaving(in, out, mesh);
    case CollectiveKind::AllSlice:
    case CollectiveKind::ReduceScatter: return axesLeaving(out, in, mesh);
    case CollectiveKind::CollectivePermute: return axesOfChangedDims(in, out);
    case CollectiveKind::ShardedToUnreduced:
    case CollectiveKind::ReplicatedToUnreduced: return axesMissingFrom(out.unreduced, in.unreduced);
    case CollectiveKind::AllReduce:
      if (op)
        if (const ir::Attribute* a = op->attr("reduction_axes"))
          if (const auto* l = a->as<ir::AxisRefListAttr>()) return l->axes;
      return axesMissingFrom(in.unreduced, out.unreduced);
  }
  return {};
}

int64_t product(const std::vector<int64_t>& shape) {
  int64_t p = 1;
  for (int64_t d : shape) p *= d < 0 ? 0 : d;
  return p;
}

class ReportBuilder {
 public:
  ReportBuilder(ir::Module& module, const CommOptions& options)
      : module_(module), causes_(options.reshardCauses) {
    report_.chip = options.chip;
    if (options.nameAsBeforeReshards && causes_)
      for (const passes::ReshardCause& c : *causes_)
        if (c.inserted) names_.skip(*c.inserted);
    indexCauses();
  }

  CommReport build() {
    std::vector<ir::Op*> ops;
    module_.op->walk([&](ir::Op& op) {
      if (isCommunication(op) && op.numOperands() == 1 && op.numResults() == 1) ops.push_back(&op);
    });
    for (ir::Op* op : ops) {
      if (op->is("sdy.reshard"))
        addPlanned(*op);
      else
        addCollective(*op, *kindOf(*op));
    }
    std::unordered_map<std::string, size_t> byFunction;
    for (const CollectiveRecord& r : report_.collectives) {
      report_.total.add(r);
      auto [it, inserted] = byFunction.emplace(r.function, report_.perFunction.size());
      if (inserted) report_.perFunction.push_back({r.function, {}});
      report_.perFunction[it->second].second.add(r);
    }
    return std::move(report_);
  }

 private:
  void add(CollectiveKind kind, const ir::Op& op, bool planned, const TensorSharding& in,
           const TensorSharding& out, AxisRefList axes, const Mesh& mesh) {
    CollectiveRecord r;
    r.kind = kind;
    r.op = op.name();
    r.planned = planned;
    r.value = names_.name(op.result(0));
    r.function = ValueNames::functionOf(&op);
    r.line = op.loc().line;
    r.column = op.loc().col;
    r.groupSize = kind == CollectiveKind::CollectivePermute ? 1 : propagation::totalSize(axes, mesh);
    r.axes = std::move(axes);
    const ir::Type& type = op.result(0)->type;
    r.elementType = type.elementType;
    r.globalShape = type.shape;
    r.inSharding = in;
    r.outSharding = out;
    r.inShape = localShape(type.shape, in, mesh);
    r.outShape = localShape(type.shape, out, mesh);
    const double element = static_cast<double>(elementBytes(type.elementType).value_or(0));
    r.bytesPerDevice = bytesReceivedPerDevice(kind, r.groupSize, element * static_cast<double>(product(r.inShape)),
                                              element * static_cast<double>(product(r.outShape)));
    r.seconds = estimateSeconds(kind, r.groupSize, r.bytesPerDevice, report_.chip);
    const ir::Value* start = chainStart(op.operand(0));
    const ir::Value* end = chainEnd(op.result(0));
    r.cause = explainCollective(kind, r.axes, start, end, names_, recordedCause(kind, op, start, end), &module_);
    r.from = start;
    if (end && !end->uses().empty()) {
      r.to = end->uses().front().user;
      r.toOperand = end->uses().front().index;
    }
    report_.collectives.push_back(std::move(r));
  }

  // What -sdy-insert-explicit-reshards recorded for the op this collective
  // comes from: the all-reduce itself, or the reshard that stood between
  // `start` and `end`, found by the op it served (the inserted reshard may be
  // gone, lowered to collectives). The target sharding must agree, so that a
  // record whose op was erased since cannot be taken for another's.
  const passes::ReshardCause* recordedCause(CollectiveKind kind, const ir::Op& op, const ir::Value* start,
                                            const ir::Value* end) {
    if (!causes_) return nullptr;
    if (kind == CollectiveKind::AllReduce) {
      auto it = allReduceByInserted_.find(&op);
      return it == allReduceByInserted_.end() ? nullptr : it->second;
    }
    // The first record (in recording order) on either edge whose target
    // sharding agrees: a record is looked up by the edge it sits on, so the
    // report stays linear in the collectives at a million ops.
    std::optional<TensorSharding> target = end ? passes::util::getSharding(const_cast<ir::Value*>(end)) : std::nullopt;
    const passes::ReshardCause* best = nullptr;
    auto consider = [&](const ir::Op* at, passes::ReshardCause::Site site, unsigned index) {
      auto it = reshardsBySite_.find({at, site, index});
      if (it == reshardsBySite_.end()) return;
      for (const passes::ReshardCause* c : it->second) {
        if (best && best < c) return;  // later than one already found
        if (passes::util::isEquivalent(c->to, target)) {
          best = c;
          return;
        }
      }
    };
    if (end && !end->uses().empty())
      consider(end->uses().front().user, passes::ReshardCause::Site::Operand, end->uses().front().index);
    // (A record without an op matches a block argument's null defining op,
    // as the scan over every record this replaces did.)
    if (start) consider(start->definingOp, passes::ReshardCause::Site::Result, start->index);
    return best;
  }

  // The records by the op they were inserted for and the edge they sit on,
  // each list in recording order (pointers into *causes_ compare in that
  // order); an all-reduce's record by the all-reduce, the first one kept.
  void indexCauses() {
    if (!causes_) return;
    for (const passes::ReshardCause& c : *causes_) {
      if (c.kind == passes::ReshardCause::Kind::AllReduce && c.inserted)
        allReduceByInserted_.emplace(c.inserted, &c);
      if (c.kind == passes::ReshardCause::Kind::Reshard)
        reshardsBySite_[{c.op, c.site, c.index}].push_back(&c);
    }
  }

  void addCollective(const ir::Op& op, CollectiveKind kind) {
    const ir::Attribute* attr = op.attr("out_sharding");
    if (!attr || !attr->as<TensorSharding>()) return;
    const TensorSharding& out = *attr->as<TensorSharding>();
    const Mesh* mesh = module_.meshOf(out);
    if (!mesh) return;
    // The operand's sharding (a missing one reads as replicated, as the
    // verifier of all_slice / all_reduce allows).
    TensorSharding in = passes::util::getSharding(op.operand(0))
                            .value_or(TensorSharding::replicatedOf(out.mesh, out.rank(), true));
    add(kind, op, false, in, out, collectiveAxes(kind, &op, in, out, *mesh), *mesh);
  }

  // The collectives a reshard stands for, as -sdy-reshard-to-collectives
  // would insert them.
  void addPlanned(const ir::Op& reshard) {
    std::optional<passes::ReshardLowering> lowering = passes::planReshardOp(module_, reshard);
    if (!lowering) return;
    const Mesh* mesh = module_.meshOf(lowering->in);
    if (!mesh) return;
    TensorSharding current = lowering->in;
    for (passes::PlannedCollective& c : lowering->plan) {
      AxisRefList axes;
      if (c.kind == CollectiveKind::AllToAll) {
        axes = c.param.axes;
      } else if (c.kind == CollectiveKind::CollectivePermute) {
        axes = axesOfChangedDims(current, c.out);
      } else {
        for (const AxisRefList& dim : c.axesPerDim) axes.insert(axes.end(), dim.begin(), dim.end());
      }
      add(c.kind, reshard, true, current, c.out, std::move(axes), *mesh);
      current = c.out;
    }
  }

  ir::Module& module_;
  const passes::ReshardCauses* causes_;
  struct SiteKey {
    const ir::Op* op;
    passes::ReshardCause::Site site;
    unsigned index;
    bool operator==(const SiteKey& o) const { return op == o.op && site == o.site && index == o.index; }
  };
  struct SiteHash {
    size_t operator()(const SiteKey& k) const {
      return std::hash<const void*>()(k.op) ^ (size_t(k.index) * 2 + size_t(k.site)) * 0x9e3779b97f4a7c15ULL;
    }
  };
  std::unordered_map<const ir::Op*, const passes::ReshardCause*> allReduceByInserted_;
  std::unordered_map<SiteKey, std::vector<const passes::ReshardCause*>, SiteHash> reshardsBySite_;
  CommReport report_;
  ValueNames names_;
};

}  // namespace

CommReport analyzeCommunication(ir::Module& module, const CommOptions& options) {
  return ReportBuilder(module, options).build();
}

}  // namespace shardscope::comm
