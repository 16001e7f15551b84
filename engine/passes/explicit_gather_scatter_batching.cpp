// `-sdy-explicit-gather-scatter-batching`: a gather or scatter that indexes
// dimension 0 of its operand with an iota over dimension 0 of its indices is
// a batched gather/scatter written the old way. Spelling that batch
// dimension out (operand/start-indices batching dims) lets propagation see
// it as one factor instead of a conflict between operand and indices.
//
//   %iota = stablehlo.iota dim = 0 : tensor<4x1xi32>
//   %idx = stablehlo.concatenate %iota, %offset, dim = 1 : ... -> tensor<4x2xi32>
//   "stablehlo.gather"(%operand, %idx) <{dimension_numbers = #stablehlo.gather<
//       offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1],
//       index_vector_dim = 1>, ...}>
// becomes
//   "stablehlo.gather"(%operand, %offset) <{dimension_numbers = #stablehlo.gather<
//       offset_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0],
//       start_index_map = [1], index_vector_dim = 1>, ...}>
//
// The iota may be reached through reshapes, broadcasts, clamps and selects.
// The component is dropped from a concatenation of the index components, or
// sliced out of the indices. Rewrites run through the greedy driver
// (canonicalize.h), which also erases what becomes dead and gathers constants.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "passes/canonicalize.h"
#include "passes/pass.h"

namespace shardscope::passes {

namespace {

using ir::Attribute;
using ir::Op;
using ir::Type;
using ir::Value;

// The integer list `key` of a dimension-numbers struct ([] when absent).
std::vector<int64_t> listParam(const ir::StructAttr& dims, std::string_view key) {
  const Attribute* a = dims.get(key);
  if (!a) return {};
  return ir::intListOf(*a).value_or(std::vector<int64_t>{});
}

std::optional<int64_t> intParam(const ir::StructAttr& dims, std::string_view key) {
  const Attribute* a = dims.get(key);
  return a ? a->integer() : std::nullopt;
}

Attribute intArray(const std::vector<int64_t>& values) {
  std::vector<Attribute> elems;
  for (int64_t v : values) elems.emplace_back(ir::IntegerAttr{v, "i64"});
  return Attribute::makeArray(std::move(elems));
}

// A dimension-numbers struct in the order StableHLO prints its fields;
// empty lists are left out, as StableHLO prints them.
Attribute dimensionNumbers(const std::string& name,
                           const std::vector<std::pair<std::string, std::vector<int64_t>>>& lists,
                           int64_t indexVectorDim) {
  std::vector<ir::NamedAttribute> params;
  for (const auto& [key, values] : lists)
    if (!values.empty()) params.emplace_back(key, intArray(values));
  params.emplace_back("index_vector_dim", Attribute(ir::IntegerAttr{indexVectorDim, "i64"}));
  return Attribute::makeStruct(name, std::move(params));
}

// Follows reshapes, broadcasts, clamps (their operand) and selects (the
// branch that is an iota, else the true branch) back to where `v` comes from.
Value* throughShapeOps(Value* v) {
  while (Op* def = v->definingOp) {
    Value* next = nullptr;
    if ((def->is("stablehlo.reshape") || def->is("stablehlo.broadcast_in_dim")) &&
        def->numOperands() == 1) {
      next = def->operand(0);
    } else if (def->is("stablehlo.clamp") && def->numOperands() == 3) {
      next = def->operand(1);  // min, operand, max
    } else if (def->is("stablehlo.select") && def->numOperands() == 3) {
      Value* onFalse = def->operand(2);
      next = onFalse->definingOp && onFalse->definingOp->is("stablehlo.iota") ? onFalse
                                                                              : def->operand(1);
    }
    if (!next) break;
    v = next;
  }
  return v;
}

// The concatenation along `dim` that defines `v`, or nullptr.
Op* concatenationAlong(Value* v, int64_t dim) {
  Op* def = v->definingOp;
  if (!def || !def->is("stablehlo.concatenate")) return nullptr;
  const Attribute* d = def->attr("dimension");
  return d && d->integer() == dim ? def : nullptr;
}

// Whether index component `component` of `indices` counts 0, 1, 2, ...
// along dimension 0: it comes from an iota over dimension 0, directly or as
// that operand of a concatenation of the components.
bool componentIsIota(Value* indices, int64_t indexVectorDim, int64_t component) {
  Value* candidate = indices;
  if (Op* concat = indices->definingOp; concat && concat->is("stablehlo.concatenate")) {
    const Attribute* d = concat->attr("dimension");
    if (!d || d->integer() != indexVectorDim || component >= concat->numOperands()) return false;
    candidate = concat->operand(static_cast<unsigned>(component));
  }
  Op* iota = throughShapeOps(candidate)->definingOp;
  if (!iota || !iota->is("stablehlo.iota")) return false;
  const Attribute* dim = iota->attr("iota_dimension");
  return dim && dim->integer() == 0;
}

// `indices` without index component `removed` (along `indexVectorDim`):
// the other operands of the concatenation that built them, or slices.
Value* withoutComponent(Op& user, Value* indices, int64_t indexVectorDim, int64_t removed,
                        canonical::Rewriter& rewriter) {
  const Type& type = indices->type;
  const int64_t total = type.shape[static_cast<size_t>(indexVectorDim)];
  Type reduced = type;
  reduced.shape[static_cast<size_t>(indexVectorDim)] -= 1;
  auto concatenate = [&](const std::vector<Value*>& parts) {
    auto concat = std::make_unique<Op>("stablehlo.concatenate", user.loc());
    for (Value* p : parts) concat->addOperand(p);
    concat->addResult(reduced);
    concat->setAttr("dimension", ir::IntegerAttr{indexVectorDim, "i64"}, true);
    return rewriter.insertBefore(&user, std::move(concat))->result(0);
  };
  if (Op* concat = concatenationAlong(indices, indexVectorDim);
      concat && concat->numOperands() == total) {
    std::vector<Value*> parts(concat->operands().begin(), concat->operands().end());
    parts.erase(parts.begin() + removed);
    return parts.size() == 1 ? parts.front() : concatenate(parts);
  }
  std::vector<Value*> parts;
  auto slice = [&](int64_t from, int64_t to) {
    if (from >= to) return;
    ir::DenseArrayAttr starts, limits, strides;
    starts.values.assign(type.shape.size(), 0);
    limits.values = type.shape;
    strides.values.assign(type.shape.size(), 1);
    starts.values[static_cast<size_t>(indexVectorDim)] = from;
    limits.values[static_cast<size_t>(indexVectorDim)] = to;
    Type sliced = type;
    sliced.shape[static_cast<size_t>(indexVectorDim)] = to - from;
    auto op = std::make_unique<Op>("stablehlo.slice", user.loc());
    op->addOperand(indices);
    op->addResult(sliced);
    op->setAttr("start_indices", starts, true);
    op->setAttr("limit_indices", limits, true);
    op->setAttr("strides", strides, true);
    parts.push_back(rewriter.insertBefore(&user, std::move(op))->result(0));
  };
  slice(0, removed);
  slice(removed + 1, total);
  return parts.size() == 1 ? parts.front() : concatenate(parts);
}

// What the gather and scatter rewrites share: the names of their fields.
struct Spelling {
  const char* dimsAttr;         // "dimension_numbers"
  const char* structName;       // "stablehlo.gather"
  const char* windowDims;       // offset_dims / update_window_dims
  const char* collapsedDims;    // collapsed_slice_dims / inserted_window_dims
  const char* operandBatching;  // operand_batching_dims / input_batching_dims
  const char* indicesBatching;  // start_indices_batching_dims / scatter_indices_batching_dims
  const char* indexMap;         // start_index_map / scatter_dims_to_operand_dims
};

constexpr Spelling kGather{"dimension_numbers",     "stablehlo.gather",
                           "offset_dims",           "collapsed_slice_dims",
                           "operand_batching_dims", "start_indices_batching_dims",
                           "start_index_map"};
constexpr Spelling kScatter{"scatter_dimension_numbers",   "stablehlo.scatter",
                            "update_window_dims",          "inserted_window_dims",
                            "input_batching_dims",         "scatter_indices_batching_dims",
                            "scatter_dims_to_operand_dims"};

// Makes dimension 0 of `operand` and of the indices (operand `indicesIndex`
// of `op`) an explicit batching dimension when the indices hold an iota for it.
bool makeBatchDimExplicit(Op& op, const Spelling& names, const Value* operand,
                          unsigned indicesIndex, canonical::Rewriter& rewriter) {
  const Attribute* dimsAttr = op.attr(names.dimsAttr);
  const ir::StructAttr* dims = dimsAttr ? dimsAttr->structAttr() : nullptr;
  if (!dims || indicesIndex >= op.numOperands()) return false;
  if (!listParam(*dims, names.operandBatching).empty()) return false;  // explicit already
  Value* indices = op.operand(indicesIndex);
  const Type& operandType = operand->type;
  const Type& indicesType = indices->type;
  if (!operandType.isRankedTensor() || !indicesType.isRankedTensor()) return false;
  if (operandType.rank() == 0 || indicesType.rank() == 0) return false;
  std::optional<int64_t> indexVectorDim = intParam(*dims, "index_vector_dim");
  if (!indexVectorDim || *indexVectorDim < 0) return false;
  // With one index component there would be none left.
  if (*indexVectorDim >= indicesType.rank() ||
      indicesType.shape[static_cast<size_t>(*indexVectorDim)] <= 1)
    return false;
  if (indicesType.shape[0] != operandType.shape[0]) return false;
  std::vector<int64_t> indexMap = listParam(*dims, names.indexMap);
  auto mapped = std::find(indexMap.begin(), indexMap.end(), 0);
  if (mapped == indexMap.end()) return false;
  const int64_t component = mapped - indexMap.begin();
  if (!componentIsIota(indices, *indexVectorDim, component)) return false;
  indexMap.erase(mapped);
  // A batching dimension has a slice of size 1: it must be a collapsed one.
  std::vector<int64_t> collapsed = listParam(*dims, names.collapsedDims);
  auto collapsedZero = std::find(collapsed.begin(), collapsed.end(), 0);
  if (collapsedZero == collapsed.end()) return false;
  collapsed.erase(collapsedZero);

  Value* newIndices = withoutComponent(op, indices, *indexVectorDim, component, rewriter);
  op.setAttr(names.dimsAttr,
             dimensionNumbers(names.structName,
                              {{names.windowDims, listParam(*dims, names.windowDims)},
                               {names.collapsedDims, collapsed},
                               {names.operandBatching, {0}},
                               {names.indicesBatching, {0}},
                               {names.indexMap, indexMap}},
                              *indexVectorDim),
             true);
  rewriter.setOperand(&op, indicesIndex, newIndices);
  return true;
}

bool explicitGatherBatching(Op& op, canonical::Rewriter& rewriter) {
  if (op.numOperands() != 2) return false;
  return makeBatchDimExplicit(op, kGather, op.operand(0), 1, rewriter);
}

// Scatter operands: the inputs, the indices, as many updates as inputs.
bool explicitScatterBatching(Op& op, canonical::Rewriter& rewriter) {
  if (op.numOperands() < 3 || op.numOperands() % 2 == 0) return false;
  const unsigned inputs = (op.numOperands() - 1) / 2;
  return makeBatchDimExplicit(op, kScatter, op.operand(0), inputs, rewriter);
}

bool explicitGatherScatterBatching(ir::Module& module, ir::DiagnosticSink& diags) {
  (void)diags;
  static const std::vector<canonical::Pattern> patterns = {
      {"stablehlo.gather", explicitGatherBatching},
      {"stablehlo.scatter", explicitScatterBatching},
  };
  canonical::GreedyConfig config;
  config.cseConstants = true;  // what MLIR's greedy driver does by default
  return canonical::applyPatternsGreedily(module, patterns, config);
}

}  // namespace

void registerExplicitGatherScatterBatchingPass(std::vector<PassInfo>& out) {
  out.push_back(passWithoutOptions(
      "sdy-explicit-gather-scatter-batching",
      "Make implicit batch dimensions of gathers and scatters explicit batching dimensions",
      explicitGatherScatterBatching));
}

}  // namespace shardscope::passes
