// `-sdy-propagation-pipeline` step by step: the registered passes it runs,
// in order, each with the options it gets from the pipeline's, so that a
// caller can look between them. The GUI's facade (api/propagate.h) keeps the
// module as the propagation pass finds it and records that pass's trace:
//
//   for (const PipelineStep& s : propagationPipelineSteps(options)) {
//     if (s.propagates) ...snapshot the imported module...
//     if (!s.pass->run(module, s.options, ctx)) break;
//   }
#pragma once
#include <vector>

#include "passes/pass.h"

namespace shardscope::passes {

struct PipelineStep {
  const PassInfo* pass = nullptr;
  PassOptions options;
  // The propagation pass: the steps before it import, the ones after export.
  bool propagates = false;
  // A pipeline itself (the export pipeline, last): its own steps are timed.
  bool nested = false;
};

// The steps of `-sdy-propagation-pipeline` given `options` (the pipeline's
// own: keep-sharding-rules, conservative-propagation, dedup-functions-fully,
// ...): import passes, the propagation pass, call export, the export pipeline.
std::vector<PipelineStep> propagationPipelineSteps(const PassOptions& options);

}  // namespace shardscope::passes
