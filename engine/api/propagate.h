// Running sharding propagation for the GUI: propagate a document's module
// (a fresh parse of its text, the document itself is never changed) and
// record the step trace; rebuild the module as it was after N steps, for
// stepping through (animating) a run.
#pragma once
#include <memory>
#include <string>

#include "api/document.h"
#include "propagation/propagation_options.h"
#include "propagation/propagation_trace.h"

namespace shardscope::api {

struct PropagationRun {
  propagation::PropagationOptions options;
  propagation::PropagationTrace trace;
  // The module after the whole run (same text and source locations as the
  // input document; only the shardings differ).
  std::shared_ptr<Document> result;
  // Diagnostics of the run (iteration guard, invalid input).
  std::vector<ir::Diagnostic> diagnostics;
  bool ok = false;
};

// Propagate `doc` with `options`. Needs a module without errors; otherwise
// `ok` is false and `diagnostics` says why.
std::shared_ptr<PropagationRun> propagateDocument(const Document& doc,
                                                  const propagation::PropagationOptions& options);

// The document as it was after the first `steps` steps of `run` (0: the
// input; trace.steps.size(): the result). Returns nullptr on failure.
std::shared_ptr<Document> documentAtStep(const Document& input, const PropagationRun& run,
                                         size_t steps, std::string* error = nullptr);

// "basic", "aggressive", "op-priority", "user-priority".
const char* levelName(propagation::PropagationLevel level);

}  // namespace shardscope::api
