// Propagation directions (see factor_propagation.h).
#include "propagation/factor_propagation.h"

namespace shardscope::propagation {

const char* directionName(PropagationDirection d) {
  switch (d) {
    case PropagationDirection::None: return "NONE";
    case PropagationDirection::Forward: return "FORWARD";
    case PropagationDirection::Backward: return "BACKWARD";
    case PropagationDirection::Both: return "BOTH";
  }
  return "NONE";
}

std::optional<PropagationDirection> parseDirection(const std::string& text) {
  if (text == "NONE") return PropagationDirection::None;
  if (text == "FORWARD") return PropagationDirection::Forward;
  if (text == "BACKWARD") return PropagationDirection::Backward;
  if (text == "BOTH") return PropagationDirection::Both;
  return std::nullopt;
}

}  // namespace shardscope::propagation
