// Plain-words narration of one propagation step, for the trace panel and
// for teaching:
//
//   dot_general %3 (line 12) — op-priority stage 2, aggressive
//   factor k (contracting, reduction): axis "a" from operand-0 (%arg0) to
//     operand-1 (%arg1)
//   factor j (rhs non-contracting, pass-through): axis "b" not propagated:
//     tensors hold incompatible axes for this factor
//   %3 is now [{"a", ?}, {?}]
//
// Factor names and kinds come from the step's rule text; op-specific roles
// (dot_general batching / contracting / non-contracting) where the op name
// tells them. Works for every op; an index (optional) names the updated
// values.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "propagation/propagation_trace.h"
#include "sharding/tensor_sharding.h"

namespace shardscope::explain {

class TraceIndex;

struct FactorNarration {
  int64_t factor = 0;
  std::string name;       // "k"
  std::string kinds;      // "contracting, reduction"
  std::string direction;  // "BOTH", ... ("" when not recorded)
  bool moved = false;     // an axis moved along it
  bool conflict = false;  // tensors still disagree
  // "factor k (contracting, reduction): axis "a" from operand-0 (%arg0) to operand-1 (%arg1)"
  std::string sentence;
};

struct StepNarration {
  std::string headline;  // `dot_general %3 (line 12)`
  std::string context;   // `step 4 · user priority 0 · op-priority stage 2 · aggressive · fixed point 3`
  std::vector<FactorNarration> factors;  // factors that moved or conflict
  std::vector<std::string> updates;      // `%3 is now [{"a", ?}, {?}]`
  // What is said when no factor moved or conflicts ("no factor moved an
  // axis", or why a step without an op rule wrote shardings).
  std::string noFactorNote = "no factor moved an axis";
  // Headline, context, one line per factor, one per update.
  std::string text() const;
};

// `op` short name, the first result's value (or the op's first tensor) and the line.
std::string stepHeadline(const propagation::TraceStep& step);
// Narrate `step`. With `index`, updates name their values (`%3`); without,
// they are named by the trace rows where possible.
StepNarration narrateStep(const propagation::TraceStep& step, const TraceIndex* index = nullptr);
// The same as one text.
std::string narration(const propagation::TraceStep& step, const TraceIndex* index = nullptr);

// `[{"a", ?}, {}]` plus ` replicated={"b"}` / ` unreduced={"c"}` (no mesh).
std::string shardingDimsText(const TensorSharding& sharding);
// `operand-0 (%arg0)` or `operand-0` when the row has no name.
std::string tensorDisplay(const propagation::TraceStep& step, const std::string& tensor);

}  // namespace shardscope::explain
