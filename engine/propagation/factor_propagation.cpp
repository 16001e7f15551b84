// Propagation directions (see factor_propagation.h).
#include "propagation/factor_propagation.h"

namespace shardscope::propagation {

namespace {
int bits(PropagationDirection d) {
  switch (d) {
    case PropagationDirection::None: return 0;
    case PropagationDirection::Forward: return 1;
    case PropagationDirection::Backward: return 2;
    case PropagationDirection::Both: return 3;
  }
  return 0;
}
PropagationDirection fromBits(int b) {
  switch (b) {
    case 1: return PropagationDirection::Forward;
    case 2: return PropagationDirection::Backward;
    case 3: return PropagationDirection::Both;
    default: return PropagationDirection::None;
  }
}
}  // namespace

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

PropagationDirection unionOf(PropagationDirection a, PropagationDirection b) {
  return fromBits(bits(a) | bits(b));
}
PropagationDirection intersectionOf(PropagationDirection a, PropagationDirection b) {
  return fromBits(bits(a) & bits(b));
}

}  // namespace shardscope::propagation
