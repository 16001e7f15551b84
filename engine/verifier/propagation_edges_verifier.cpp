// Propagation edges against their op (see propagation_edges_verifier.h).
#include "verifier/propagation_edges_verifier.h"

#include <string>
#include <vector>

namespace shardscope {

namespace {

using ir::EdgeValueRef;
using verifier_support::problem;

// The operand or result `ref` names, or nullptr when out of range.
const ir::Value* referencedValue(const EdgeValueRef& ref, const ir::Op& op) {
  if (ref.index < 0) return nullptr;
  const auto index = static_cast<uint64_t>(ref.index);
  if (ref.kind == EdgeValueRef::Kind::Result)
    return index < op.numResults() ? op.result(static_cast<unsigned>(index)) : nullptr;
  return index < op.numOperands() ? op.operand(static_cast<unsigned>(index)) : nullptr;
}

VerifyResult verifyValueRef(const EdgeValueRef& ref, const ir::Op& op) {
  const bool result = ref.kind == EdgeValueRef::Kind::Result;
  const int64_t count = result ? op.numResults() : op.numOperands();
  if (ref.index >= 0 && ref.index < count) return std::nullopt;
  return problem(std::string("expected a value ref to have ") +
                 (result ? "a result" : "an operand") + " index in range [0, " +
                 std::to_string(count) + "), got: " + std::to_string(ref.index));
}

// The mesh all `shardings` agree on, as sdy's getCommonMesh: shardings on an
// empty mesh go with any other; two different meshes (or an unknown one)
// leave none.
const Mesh* commonMesh(const std::vector<TensorSharding>& shardings,
                       const verifier_support::MeshTable& meshes) {
  const Mesh* common = nullptr;
  bool first = true;
  for (const TensorSharding& sharding : shardings) {
    const Mesh* mesh = meshes.of(sharding);
    if (first || !common || common->empty()) {
      common = mesh;
      first = false;
      continue;
    }
    if (!mesh || mesh->empty()) continue;
    if (!verifier_support::sameMesh(*mesh, *common)) return nullptr;
  }
  return common;
}

}  // namespace

VerifyResult verifyPropagationEdges(const ir::PropagationEdgesAttr& edges, const ir::Op& op,
                                    const ValueShardingFn& shardingOf,
                                    const verifier_support::MeshTable& meshes) {
  std::vector<TensorSharding> shardings;
  auto addShardingOf = [&](const EdgeValueRef& ref) {
    if (const ir::Value* value = referencedValue(ref, op))
      if (std::optional<TensorSharding> s = shardingOf(value)) shardings.push_back(std::move(*s));
  };
  for (const ir::PropagationStepEdges& step : edges.steps)
    for (const ir::AxisPropagationEdges& entry : step.axisEntries) {
      addShardingOf(entry.source);
      for (const EdgeValueRef& target : entry.targets) addShardingOf(target);
    }
  if (shardings.empty()) return problem("expected propagation edges attr to reference a sharding.");
  const Mesh* mesh = commonMesh(shardings, meshes);
  if (!mesh) return problem("expected a common mesh for propagation edges attr.");

  // The edges of a function data-flow edge stand for the function's
  // arguments and results, not for the op's own operand and result.
  const bool checkIndices = !op.is("sdy.func_data_flow_edge");
  for (const ir::PropagationStepEdges& step : edges.steps)
    for (const ir::AxisPropagationEdges& entry : step.axisEntries) {
      if (!mesh->hasAxis(entry.axis.name))
        return problem("expected axis ref to be in one of the meshes");
      if (!checkIndices) continue;
      if (VerifyResult r = verifyValueRef(entry.source, op)) return r;
      for (const EdgeValueRef& target : entry.targets)
        if (VerifyResult r = verifyValueRef(target, op)) return r;
    }
  return std::nullopt;
}

}  // namespace shardscope
