// Canonicalization patterns of `sdy.reshard` (see canonicalize.h).
//
// - A reshard of a reshard used nowhere else reshards the original value
//   directly: the intermediate layout is never materialised.
// - Common reshards: a reshard of a value that an earlier reshard in the
//   same block already brings to an equivalent layout reuses that one, also
//   when the two are separated by reshapes and transposes (the earlier
//   result is reshaped/transposed the same way). For example
//     %0 = sdy.reshard %arg0 <@mesh, [{"a"}, {}]> : tensor<8x4xf32>
//     %1 = stablehlo.reshape %arg0 : (tensor<8x4xf32>) -> tensor<32xf32>
//     %2 = sdy.reshard %1 <@mesh, [{"a"}]> : tensor<32xf32>
//   makes %2 a reshape of %0: "a" splits the elements at the same linear
//   stride in both layouts.
#include <cmath>
#include <functional>
#include <unordered_set>

#include "passes/canonicalize.h"
#include "passes/pass_utils.h"

namespace shardscope::passes::canonical {

namespace {

const TensorSharding* reshardSharding(const ir::Op& op) {
  const ir::Attribute* a = op.attr("sharding");
  return a ? a->as<TensorSharding>() : nullptr;
}

bool reshardOfReshard(ir::Op& op, Rewriter& rewriter) {
  ir::Op* inner = op.numOperands() ? op.operand(0)->definingOp : nullptr;
  if (!inner || !inner->is("sdy.reshard") || !inner->result(0)->hasOneUse()) return false;
  op.setOperand(0, inner->operand(0));
  rewriter.revisit(inner);  // now dead
  rewriter.revisit(&op);
  return true;
}

// ---- Equivalence across reshapes ---------------------------------------------

// Where an axis splits the elements of a tensor laid out row-major: its
// stride in elements.
struct AxisStride {
  AxisRef axis;
  double stride;
};

// The stride of every axis of `sharding` on `shape`, smallest first, with
// neighbouring sub-axes of one axis that continue each other merged.
std::vector<AxisStride> axisStrides(const TensorSharding& sharding,
                                    const std::vector<int64_t>& shape, const Mesh& mesh) {
  std::vector<AxisStride> strides;
  double elementsBelow = 1.0;  // elements in the dimensions minor to `dim`
  for (size_t dim = shape.size(); dim-- > 0;) {
    const AxisRefList& axes = sharding.dims[dim].axes;
    const int64_t shards = axesSize(axes, mesh);
    const int64_t perShard = shards > 0 ? (shape[dim] + shards - 1) / shards : shape[dim];
    double stride = elementsBelow * static_cast<double>(perShard);
    for (size_t j = axes.size(); j-- > 0;) {
      strides.push_back({axes[j], stride});
      stride *= static_cast<double>(axes[j].size(mesh));
    }
    elementsBelow *= static_cast<double>(shape[dim]);
  }
  std::stable_sort(strides.begin(), strides.end(),
                   [](const AxisStride& a, const AxisStride& b) { return a.stride < b.stride; });
  auto near = [](double a, double b) { return std::abs(a - b) < 1e-6; };
  std::vector<AxisStride> merged;
  for (const AxisStride& entry : strides) {
    if (!merged.empty()) {
      AxisStride& back = merged.back();
      const AxisRef& minor = back.axis;
      const AxisRef& major = entry.axis;
      // `major` continues `minor` on the same axis, right where it ends.
      if (minor.name == major.name && major.preSize() * major.size(mesh) == minor.preSize() &&
          near(entry.stride, back.stride * static_cast<double>(minor.size(mesh)))) {
        const int64_t pre = std::min(minor.preSize(), major.preSize());
        const int64_t size = minor.size(mesh) * major.size(mesh);
        back.axis = (pre == 1 && size == mesh.axisSize(minor.name))
                        ? AxisRef{minor.name, std::nullopt}
                        : AxisRef{minor.name, SubAxisInfo{pre, size}};
        continue;
      }
    }
    merged.push_back(entry);
  }
  return merged;
}

// Whether the two layouts put every device's elements in the same places of
// the row-major element sequence (sdy's isShardingEquivalentAcrossReshapes).
bool equivalentAcrossReshapes(const TensorSharding& a, const ir::Type& typeA,
                              const TensorSharding& b, const ir::Type& typeB, const Mesh* mesh) {
  if (a == b && typeA == typeB) return true;
  if (!(a.mesh == b.mesh) || a.replicated != b.replicated) return false;
  if (!typeA.isRankedTensor() || !typeB.isRankedTensor() || !mesh) return false;
  if (a.rank() != typeA.rank() || b.rank() != typeB.rank()) return false;
  std::vector<AxisStride> sa = axisStrides(a, typeA.shape, *mesh);
  std::vector<AxisStride> sb = axisStrides(b, typeB.shape, *mesh);
  if (sa.size() != sb.size()) return false;
  for (size_t i = 0; i < sa.size(); ++i)
    if (!(sa[i].axis == sb[i].axis) || std::abs(sa[i].stride - sb[i].stride) >= 1e-6) return false;
  return true;
}

// ---- Common reshards ----------------------------------------------------------

bool isLayoutOnly(const ir::Op& op) {
  return (op.is("stablehlo.reshape") || op.is("stablehlo.transpose")) && op.numOperands() == 1 &&
         op.numResults() == 1;
}

// The value `v` was reshaped/transposed from.
ir::Value* layoutRoot(ir::Value* v) {
  while (v->definingOp && isLayoutOnly(*v->definingOp)) v = v->definingOp->operand(0);
  return v;
}

// `sharding` (of `v`) carried back through the transposes (and rank-keeping
// reshapes) that produced `v`, to compare with reshards found on the path.
TensorSharding shardingBeforeTransposes(TensorSharding sharding, ir::Value* v) {
  while (ir::Op* def = v->definingOp) {
    if (def->is("stablehlo.transpose")) {
      std::optional<std::vector<int64_t>> perm;
      if (const ir::Attribute* p = def->attr("permutation")) perm = ir::intListOf(*p);
      if (!perm || perm->size() != sharding.dims.size()) break;
      std::vector<DimensionSharding> dims(perm->size());
      for (size_t resultDim = 0; resultDim < perm->size(); ++resultDim)
        dims[static_cast<size_t>((*perm)[resultDim])] = sharding.dims[resultDim];
      sharding.dims = std::move(dims);
      v = def->operand(0);
      continue;
    }
    if (def->is("stablehlo.reshape") && def->numOperands() == 1 &&
        def->operand(0)->type->rank() == v->type->rank()) {
      v = def->operand(0);
      continue;
    }
    break;
  }
  return sharding;
}

// An earlier reshard in `current`'s block, reached from `root` through
// reshapes only, that gives an equivalent layout; or nullptr.
ir::Value* findEarlierReshard(ir::Value* root, const TensorSharding& target,
                              const ir::Type& targetType, const ir::Op& current,
                              const Rewriter& rewriter) {
  std::vector<ir::Value*> worklist = {root};
  std::unordered_set<ir::Value*> visited;
  const Mesh* mesh = rewriter.meshOf(target);
  while (!worklist.empty()) {
    ir::Value* v = worklist.back();
    worklist.pop_back();
    if (!visited.insert(v).second) continue;
    for (const ir::Use& use : v->uses()) {
      ir::Op* user = use.user;
      if (user == &current) continue;
      if (user->is("sdy.reshard")) {
        const TensorSharding* s = reshardSharding(*user);
        if (s && user->parentBlock() == current.parentBlock() &&
            util::isBeforeInBlock(user, &current) &&
            equivalentAcrossReshapes(*s, user->result(0)->type, target, targetType, mesh))
          return user->result(0);
      } else if (user->is("stablehlo.reshape") && isLayoutOnly(*user)) {
        worklist.push_back(user->result(0));
      }
    }
  }
  return nullptr;
}

// Repeats on `start` the reshapes and transposes that lead from `root` to
// `target`, each right after its new operand; returns the last result.
ir::Value* replayLayoutPath(ir::Value* root, ir::Value* target, ir::Value* start,
                            Rewriter& rewriter) {
  if (target == root) return start;
  ir::Op* def = target->definingOp;
  ir::Value* input = replayLayoutPath(root, def->operand(0), start, rewriter);
  util::ValueMap map;
  map[def->operand(0)] = input;
  std::unique_ptr<ir::Op> copy = util::cloneOp(*def, map);
  ir::Op* placed = input->definingOp
                       ? rewriter.insertAfter(input->definingOp, std::move(copy))
                       : rewriter.insertBefore(input->ownerBlock->ops().front().get(), std::move(copy));
  return placed->result(0);
}

bool reuseEarlierReshard(ir::Op& op, Rewriter& rewriter) {
  const TensorSharding* sharding = reshardSharding(op);
  if (!sharding || op.numOperands() != 1) return false;
  ir::Value* input = op.operand(0);
  ir::Value* root = layoutRoot(input);
  TensorSharding target = shardingBeforeTransposes(*sharding, input);
  ir::Value* earlier = findEarlierReshard(root, target, op.result(0)->type, op, rewriter);
  if (!earlier) return false;
  if (!(earlier->type == root->type)) {
    auto reshape = std::make_unique<ir::Op>("stablehlo.reshape", op.loc());
    reshape->addOperand(earlier);
    reshape->addResult(root->type);
    earlier = rewriter.insertAfter(earlier->definingOp, std::move(reshape))->result(0);
  }
  rewriter.replaceOp(&op, replayLayoutPath(root, input, earlier, rewriter));
  return true;
}

}  // namespace

void addReshardPatterns(std::vector<Pattern>& out) {
  out.push_back({"sdy.reshard", reuseEarlierReshard});
  out.push_back({"sdy.reshard", reshardOfReshard, kReshardLabel});
}

}  // namespace shardscope::passes::canonical
