// Projection of tensor shardings onto the factors of an op sharding rule,
// and back.
//
// Dimension -> factors: a dimension's axes are handed out to its factors
// major to minor. A non-minor-most factor takes axes while they divide what
// is left of it, splitting an axis into sub-axes when only part of it fits;
// when the next axis shares nothing with the remainder, it and every later
// axis become that factor's overflow axes and the later factors are closed.
// The minor-most factor takes whatever remains.
//
// Example: rule `([ij])->([i, j]) {i=2, j=4}`, mesh x=4, y=2, operand
// `[{"x", "y"}]` projects to i = ["x":(1)2], j = ["x":(2)2, "y"]; projecting
// back the result gives `[{"x":(1)2}, {"x":(2)2, "y"}]`.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "propagation/factor_sharding.h"
#include "sharding/mesh.h"
#include "sharding/op_sharding_rule.h"
#include "sharding/tensor_sharding.h"

namespace shardscope::propagation {

// Which tensors an update touched.
struct UpdateTensorShardings {
  std::vector<bool> operands;
  std::vector<bool> results;
  UpdateTensorShardings() = default;
  UpdateTensorShardings(size_t numOperands, size_t numResults)
      : operands(numOperands, false), results(numResults, false) {}
  bool any() const;
};

// Build one tensor's factor row from its sharding (nullopt: unsharded, so
// every factor starts empty and open unless `closedIfMissing`).
TensorFactorShardings projectTensor(const TensorFactorMapping& mapping,
                                    const std::optional<TensorSharding>& sharding,
                                    const std::vector<int64_t>& factorSizes, const Mesh& mesh,
                                    bool closedIfMissing = false);
// The same for a sharding given by pointer (nullptr: unsharded).
TensorFactorShardings projectTensor(const TensorFactorMapping& mapping, const TensorSharding* sharding,
                                    const std::vector<int64_t>& factorSizes, const Mesh& mesh,
                                    bool closedIfMissing = false);

// Turn a factor row back into a tensor sharding on mesh `meshRef`:
// each dimension concatenates its factors' axes (merging consecutive
// sub-axes); overflow axes end the dimension, as does a factor sharded less
// than its size; a dimension is closed when any of its factors is.
// Replicated/unreduced axes are kept; priorities are not.
TensorSharding unprojectTensor(const TensorFactorShardings& row, const TensorFactorMapping& mapping,
                               const std::vector<int64_t>& factorSizes, const MeshRef& meshRef,
                               const Mesh& mesh);

// The whole factor table of one op: a row per operand and per result.
struct ShardingProjection {
  std::vector<TensorFactorShardings> operands;
  std::vector<TensorFactorShardings> results;

  bool operator==(const ShardingProjection&) const = default;
  size_t numOperands() const { return operands.size(); }
  size_t numResults() const { return results.size(); }
  // Tensor `i` counting operands first, then results.
  const TensorFactorShardings& tensor(size_t i) const {
    return i < operands.size() ? operands[i] : results[i - operands.size()];
  }
  TensorFactorShardings& tensor(size_t i) {
    return i < operands.size() ? operands[i] : results[i - operands.size()];
  }
  size_t numTensors() const { return operands.size() + results.size(); }

  static ShardingProjection build(const std::vector<std::optional<TensorSharding>>& operandShardings,
                                  const std::vector<std::optional<TensorSharding>>& resultShardings,
                                  const OpShardingRule& rule, const Mesh& mesh,
                                  bool closedIfMissing = false);

  // Expand factor `factor` to `newAxes` in every tensor whose axes for it
  // are a strict prefix of `newAxes`.
  UpdateTensorShardings expandSharding(int64_t factor, const AxisRefList& newAxes);
};

}  // namespace shardscope::propagation
