// Choosing the axes each factor of an op is computed in when its operands
// and results disagree: a greedy pick among (factor, axes) candidates.
//
// Every tensor proposes, for each factor it maps, its axes for that factor
// and every prefix of them. A candidate scores by the total size of the
// tensors that already hold it (so the op is computed the way its largest
// tensors are sharded and those need no reshard), then by factor kind
// (pass-through > reduction > permutation > need-replication), then by how
// much further it shards its factor. The best candidate is taken, candidates
// of the same factor that do not extend it are dropped, and every other
// candidate is cut where it meets the axes just taken; repeat until none is
// left. A factor that follows another one in some dimension (`[ij]`) may
// only be taken once the one before it is fully sharded.
//
// Example: `stablehlo.add` on tensor<8x8>, mesh "x"=4, lhs [{"x"}, {}], rhs
// [{}, {"x"}], result [{}, {}]. Candidates i:["x"] (from lhs, 64 elements)
// and j:["x"] (from rhs, 64) tie on everything but the factor index, and the
// later factor wins: j takes "x", i:["x"] is cut to nothing, so the add is
// computed as [{}, {"x"}] and only lhs is resharded.
#pragma once
#include <cstdint>
#include <vector>

#include "passes/explicit_reshards/axis_lists.h"
#include "propagation/sharding_projection.h"
#include "sharding/mesh.h"
#include "sharding/op_sharding_rule.h"

namespace shardscope::passes::explicit_reshards {

// One proposal: shard `factor` along `axes`.
struct FactorAxesCandidate {
  int64_t factor = -1;
  AxisRefList axes;
  // Total number of elements of the tensors whose axes for `factor` are
  // `axes` or extend them (these tensors need no reshard for this factor).
  int64_t sourceTensorSize = 0;
  // Pass-through 3, reduction 2, permutation 1, need-replication 0.
  int64_t kindPrecedence = 0;
  // How many ways the candidate shards its factor beyond what the factor
  // already has.
  int64_t furtherShards = 0;

  bool empty() const { return factor < 0; }
};

// Is `a` a worse pick than `b`? (the lexicographic order described above,
// then factor index, then axes).
bool worseCandidate(const FactorAxesCandidate& a, const FactorAxesCandidate& b);

// The greedy choice for every factor of `rule` (see above). `tensorSizes`
// holds the element count of each operand, then each result.
AxesPerFactor chooseFactorAxesGreedily(const propagation::ShardingProjection& projection,
                                       const OpShardingRule& rule, const std::vector<int64_t>& tensorSizes,
                                       const Mesh& mesh);

}  // namespace shardscope::passes::explicit_reshards
