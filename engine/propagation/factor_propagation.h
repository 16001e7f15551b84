// The strategy interface: given an op's factor table, decide which axes
// each factor gains on which tensors.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "propagation/sharding_projection.h"
#include "sharding/mesh.h"

namespace shardscope::propagation {

// Which way shardings may flow along one factor of one op.
enum class PropagationDirection { None, Forward, Backward, Both };

// "NONE", "FORWARD", "BACKWARD", "BOTH" (as in `allowed_direction=`).
const char* directionName(PropagationDirection d);
std::optional<PropagationDirection> parseDirection(const std::string& text);
// Both directions allowed by either / by both. Inline: the driver asks for
// every factor of every op visit. The enumerators are bit sets (Forward 1,
// Backward 2, Both = Forward | Backward).
static_assert(static_cast<int>(PropagationDirection::Forward) == 1 &&
              static_cast<int>(PropagationDirection::Backward) == 2 &&
              static_cast<int>(PropagationDirection::Both) == 3);
inline PropagationDirection unionOf(PropagationDirection a, PropagationDirection b) {
  return static_cast<PropagationDirection>(static_cast<int>(a) | static_cast<int>(b));
}
inline PropagationDirection intersectionOf(PropagationDirection a, PropagationDirection b) {
  return static_cast<PropagationDirection>(static_cast<int>(a) & static_cast<int>(b));
}

// Direction for factor `i` of the op being propagated.
using DirectionAlongFactor = std::function<PropagationDirection(int64_t factor)>;

// What a strategy gets besides the table.
struct FactorPropagationContext {
  const std::vector<int64_t>& factorSizes;
  const Mesh& mesh;
  DirectionAlongFactor direction;
  bool conservative = false;
  // The op is elementwise (aggressive propagation orders and caps by it).
  bool elementwise = false;
};

// A strategy updates `projection` in place and reports the tensors it
// changed. Implementations hold no state.
class FactorPropagation {
 public:
  virtual ~FactorPropagation() = default;
  virtual const char* name() const = 0;
  virtual UpdateTensorShardings propagate(ShardingProjection& projection,
                                          const FactorPropagationContext& ctx) const = 0;
};

}  // namespace shardscope::propagation
