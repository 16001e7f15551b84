// Rules of gather and scatter, which share a structure: an input (operand),
// indices, and "slices" (gather's result, scatter's updates). Each slices
// dim is either an offset dim (a window into an input dim) or a batch dim
// (one per index); collapsed / inserted input dims and the index vector dim
// get factors of their own.
#include <functional>

#include "rules/rule_families.h"
#include "rules/stablehlo_attrs.h"

namespace shardscope::rules::detail {

namespace {

struct IndexedDims {
  std::vector<int64_t> offsetDims;           // slices dims that are windows
  std::vector<int64_t> collapsedDims;        // input dims absent from the slices
  std::vector<int64_t> inputBatchingDims;    // explicit batch dims, input side
  std::vector<int64_t> indicesBatchingDims;  // ... and the matching indices dims
  int64_t indexVectorDim = 0;
};

// (inputDim, indicesDim, slicesDim, size, type, blocked): how each family
// spreads one factor over its operands and results.
using AddFactorFn = std::function<void(int64_t, int64_t, int64_t, int64_t, FactorType, bool)>;

// `implicitBatchType`: the type of a batch dim only indices and slices have
// (gather: pass-through; scatter: reduction when the update computation is a
// plain combiner, else need-replication).
void addIndexedFactors(bool isScatter, FactorType implicitBatchType,
                       const std::vector<int64_t>& input, const std::vector<int64_t>& slices,
                       const std::vector<int64_t>& indices, const IndexedDims& dn,
                       const AddFactorFn& add) {
  auto inputSize = [&](int64_t d) {
    return d >= 0 && d < static_cast<int64_t>(input.size()) ? input[static_cast<size_t>(d)]
                                                             : int64_t{1};
  };
  int64_t inputDim = 0;
  int64_t batchPos = 0;
  for (int64_t slicesDim = 0; slicesDim < static_cast<int64_t>(slices.size()); ++slicesDim) {
    int64_t slicesSize = slices[static_cast<size_t>(slicesDim)];
    if (contains(dn.offsetDims, slicesDim)) {
      while (contains(dn.collapsedDims, inputDim) || contains(dn.inputBatchingDims, inputDim))
        ++inputDim;
      int64_t inSize = inputSize(inputDim);
      if (inSize == slicesSize) {
        // Whole dim taken: input and slices share it.
        add(inputDim, kNullDim, slicesDim, inSize, FactorType::Passthrough, false);
      } else if (isScatter) {
        add(inputDim, kNullDim, kNullDim, inSize, FactorType::NeedReplication, false);
        add(kNullDim, kNullDim, slicesDim, slicesSize, FactorType::NeedReplication, false);
      } else if (slicesSize == 1) {
        // A sharded input dim read one element at a time: all-reduce the result.
        add(inputDim, kNullDim, kNullDim, inSize, FactorType::Reduction, false);
        add(kNullDim, kNullDim, slicesDim, slicesSize, FactorType::NeedReplication, false);
      } else {
        add(inputDim, kNullDim, slicesDim, inSize, FactorType::NeedReplication, true);
      }
      ++inputDim;
      continue;
    }
    // A batch dim: its indices dim skips the index vector dim.
    int64_t indicesDim = batchPos < dn.indexVectorDim ? batchPos : batchPos + 1;
    ++batchPos;
    int64_t inputBatchDim = kNullDim;
    for (size_t k = 0; k < dn.indicesBatchingDims.size() && k < dn.inputBatchingDims.size(); ++k)
      if (dn.indicesBatchingDims[k] == indicesDim) inputBatchDim = dn.inputBatchingDims[k];
    FactorType type = FactorType::Passthrough;
    if (isScatter && inputBatchDim == kNullDim) type = implicitBatchType;
    add(inputBatchDim, indicesDim, slicesDim, slicesSize, type, false);
  }

  for (int64_t dim : dn.collapsedDims) {
    int64_t size = inputSize(dim);
    // Gather: sharding a collapsed dim means an all-reduce, pointless for size 1.
    FactorType type = isScatter ? FactorType::Passthrough
                                : (size == 1 ? FactorType::NeedReplication : FactorType::Reduction);
    add(dim, kNullDim, kNullDim, size, type, false);
  }

  if (dn.indexVectorDim >= 0 && dn.indexVectorDim < static_cast<int64_t>(indices.size()))
    add(kNullDim, dn.indexVectorDim, kNullDim, indices[static_cast<size_t>(dn.indexVectorDim)],
        FactorType::NeedReplication, false);
}

std::optional<IndexedDims> readDims(const ir::Op& op, const char* attrName, bool isScatter) {
  const ir::Attribute* attr = op.attr(attrName);
  std::optional<StructParams> p = attr ? StructParams::from(*attr) : std::nullopt;
  if (!p) return std::nullopt;
  IndexedDims dn;
  dn.offsetDims = p->list(isScatter ? "update_window_dims" : "offset_dims");
  dn.collapsedDims = p->list(isScatter ? "inserted_window_dims" : "collapsed_slice_dims");
  dn.inputBatchingDims = p->list(isScatter ? "input_batching_dims" : "operand_batching_dims");
  dn.indicesBatchingDims =
      p->list(isScatter ? "scatter_indices_batching_dims" : "start_indices_batching_dims");
  dn.indexVectorDim = p->integer("index_vector_dim").value_or(0);
  return dn;
}

// Does every result of the update computation combine the matching pair of
// block arguments with one and the same add / multiply / max / min (or
// and / or on i1)? Only then can a scatter's implicit batch dims be reduced.
bool hasCommonCombiner(const ir::Op& scatter, size_t numInputs) {
  if (scatter.numRegions() == 0 || scatter.region(0).empty()) return false;
  const ir::Block& block = scatter.region(0).front();
  if (block.numArguments() != 2 * numInputs) return false;
  const ir::Op* ret = block.terminator();
  if (!ret || !ret->is("stablehlo.return") || ret->numOperands() != numInputs) return false;
  std::string combiner;
  for (unsigned k = 0; k < numInputs; ++k) {
    const ir::Value* v = ret->operand(k);
    const ir::Op* def = v ? v->definingOp : nullptr;
    if (!def || def->numOperands() != 2 || !v->type->isRankedTensor()) return false;
    const std::string& n = def->name();
    bool arithmetic = n == "stablehlo.add" || n == "stablehlo.multiply" ||
                      n == "stablehlo.maximum" || n == "stablehlo.minimum";
    bool logical = v->type->elementType == "i1" && (n == "stablehlo.and" || n == "stablehlo.or");
    if (!arithmetic && !logical) return false;
    if (combiner.empty()) combiner = n;
    else if (combiner != n) return false;
    auto isArg = [&](const ir::Value* a, unsigned index) {
      return a && a->ownerBlock == &block && a->index == index;
    };
    const ir::Value* a = def->operand(0);
    const ir::Value* b = def->operand(1);
    if (!(isArg(a, k) && isArg(b, k + static_cast<unsigned>(numInputs))) &&
        !(isArg(a, k + static_cast<unsigned>(numInputs)) && isArg(b, k)))
      return false;
  }
  return true;
}

}  // namespace

// gather (operand, start_indices) -> slices.
//   operand 3x4x2x5, indices 2x3x3, offset_dims [2, 3, 4], collapsed [0],
//   start_index_map [1, 0, 3], index_vector_dim 2, slice_sizes [1, 2, 2, 1]:
//   ([o, k, l, m], [i, j, p])->([i, j, k, l, n]) {i=2, j=3, k=4, l=2, m=5, n=1, o=3, p=3}
//   reduction={m, o} need_replication={k, n, p} blocked_propagation={k}
RuleResult gatherRule(const ir::Op& op, const RuleContext&) {
  std::optional<IndexedDims> dn = readDims(op, "dimension_numbers", false);
  if (!dn) return std::nullopt;
  OpShardingRuleBuilder builder(op);
  addIndexedFactors(false, FactorType::Passthrough, operandShape(op, 0), resultShape(op, 0),
                    operandShape(op, 1), *dn,
                    [&](int64_t inputDim, int64_t indicesDim, int64_t slicesDim, int64_t size,
                        FactorType type, bool blocked) {
                      builder.addFactor({inputDim, indicesDim}, {slicesDim}, size, type, blocked);
                    });
  return std::move(builder).build();
}

// scatter (N inputs, indices, N updates) -> N results shaped like the inputs.
//   input 3x4x2, indices 2x3x2, updates 2x3x2x2, update_window_dims [2, 3],
//   inserted [0], index_vector_dim 2, combiner add:
//   ([n, k, m], [i, j, o], [i, j, l, m])->([n, k, m]) {i=2, j=3, k=4, l=2, m=2, n=3, o=2}
//   reduction={i, j} need_replication={k, l, o}
RuleResult scatterRule(const ir::Op& op, const RuleContext&) {
  if (op.numOperands() < 3 || op.numOperands() % 2 == 0) return std::nullopt;
  size_t numInputs = (op.numOperands() - 1) / 2;
  std::optional<IndexedDims> dn = readDims(op, "scatter_dimension_numbers", true);
  if (!dn) dn = readDims(op, "dimension_numbers", true);
  if (!dn) return std::nullopt;
  FactorType implicitBatch =
      hasCommonCombiner(op, numInputs) ? FactorType::Reduction : FactorType::NeedReplication;
  OpShardingRuleBuilder builder(op);
  auto indicesIndex = static_cast<unsigned>(numInputs);
  addIndexedFactors(true, implicitBatch, operandShape(op, 0), operandShape(op, indicesIndex + 1),
                    operandShape(op, indicesIndex), *dn,
                    [&](int64_t inputDim, int64_t indicesDim, int64_t slicesDim, int64_t size,
                        FactorType type, bool blocked) {
                      std::vector<int64_t> operandDims(numInputs, inputDim);
                      operandDims.push_back(indicesDim);
                      operandDims.insert(operandDims.end(), numInputs, slicesDim);
                      builder.addFactor(operandDims, std::vector<int64_t>(numInputs, inputDim),
                                        size, type, blocked);
                    });
  return std::move(builder).build();
}

}  // namespace shardscope::rules::detail
