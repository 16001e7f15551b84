// Propagation edges: printing and the checks made while reading them.
#include "ir/propagation_edges.h"

#include <algorithm>
#include <set>

namespace shardscope::ir {

void EdgeValueRef::print(std::string& out) const {
  out += kind == Kind::Operand ? "operand-" : "result-";
  out += std::to_string(index);
}

void PropagationEdgesAttr::print(std::string& out) const {
  out += "#sdy.propagation_edges<[";
  for (size_t s = 0; s < steps.size(); ++s) {
    if (s) out += ", ";
    out += "{step-";
    out += std::to_string(steps[s].stepIndex);
    out += " = [";
    const std::vector<AxisPropagationEdges>& entries = steps[s].axisEntries;
    for (size_t e = 0; e < entries.size(); ++e) {
      if (e) out += ", ";
      out += '{';
      entries[e].axis.print(out);
      out += " = ";
      entries[e].source.print(out);
      out += " -> [";
      for (size_t t = 0; t < entries[e].targets.size(); ++t) {
        if (t) out += ", ";
        entries[e].targets[t].print(out);
      }
      out += "]}";
    }
    out += "]}";
  }
  out += "]>";
}

std::string PropagationEdgesAttr::problem() const {
  std::set<int64_t> seenSteps;
  for (const PropagationStepEdges& step : steps) {
    if (step.stepIndex < 0)
      return "propagation edges have negative step index: " + std::to_string(step.stepIndex);
    if (!seenSteps.insert(step.stepIndex).second)
      return "propagation edges have duplicate step index: " + std::to_string(step.stepIndex);
    for (const AxisPropagationEdges& entry : step.axisEntries) {
      for (size_t t = 0; t < entry.targets.size(); ++t) {
        if (entry.targets[t] == entry.source)
          return "propagation edges have a source that is the same as a target";
        if (std::find(entry.targets.begin(), entry.targets.begin() + static_cast<long>(t),
                      entry.targets[t]) != entry.targets.begin() + static_cast<long>(t))
          return "propagation edges have duplicate targets for step index: " +
                 std::to_string(step.stepIndex) + " and axis: " + entry.axis.name;
      }
    }
  }
  return "";
}

}  // namespace shardscope::ir
