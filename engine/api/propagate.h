// Running sharding propagation for the GUI: propagate a document's module
// (a fresh parse of its text, the document itself is never changed) exactly
// as the command line does, record the step trace, and rebuild the module
// as it was after N steps, for stepping through (animating) a run.
//
// A level is what `shardscope --propagate LEVEL` and the GUI's level chooser
// name: "pipeline" runs `shardscope-opt -sdy-propagation-pipeline` (import
// passes: data-flow edges, calls as named computations, constants split, ...;
// user-priority propagation; export passes), the others run that strategy
// alone as `-sdy-<level>-propagate` does.
//
//   auto run = propagateDocument(*doc, options);  // options.level = Pipeline
//   run->start   // after the import passes: the trace's op indices refer to it
//   documentAtStep(*doc, *run, 3)  // start + the first 3 steps
//   run->result  // after the export passes: what shardscope-opt prints
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/document.h"
#include "propagation/propagation_options.h"
#include "propagation/propagation_trace.h"

namespace shardscope::api {

struct PropagationRun {
  propagation::PropagationOptions options;
  propagation::PropagationTrace trace;
  // The module propagation started from (step 0): the input after the
  // pipeline's import passes, or the input itself for a single strategy.
  // The trace's op indices and value references refer to it. Text and
  // source locations are the input's.
  std::shared_ptr<Document> start;
  // The module after the whole run: for the pipeline also after its export
  // passes (data-flow edges sunk, shardings closed, ...), printed it is what
  // `shardscope-opt -sdy-propagation-pipeline` prints. Text and the source
  // locations of the input's ops are the input's; only the module differs.
  std::shared_ptr<Document> result;
  // The passes run before and after propagation (pipeline only), in order.
  std::vector<std::string> importPasses, exportPasses;
  // Diagnostics of the run (iteration guard, invalid input, a failed pass).
  std::vector<ir::Diagnostic> diagnostics;
  bool ok = false;
  // Stopped by the progress's cancelRequested (ok is false, one note says so).
  bool cancelled = false;
};

// Propagate `doc` with `options` (options.level chooses the level). Needs a
// module without errors; otherwise `ok` is false and `diagnostics` says why.
// `progress` (may be null) hears how far the run is (the two parses of the
// text, then pass by pass) and can stop it: while a text is read, and
// between two passes (a pass, propagation included, runs to its end).
std::shared_ptr<PropagationRun> propagateDocument(const Document& doc,
                                                  const propagation::PropagationOptions& options,
                                                  const LoadProgress* progress = nullptr);

// The document as it was after the first `steps` steps of `run`: a fresh
// copy of `run.start` (0) with the steps' shardings applied (up to
// trace.steps.size(): all of them, before any export pass; the final module
// is `run.result`). `input` is the document the run was made from. Returns
// nullptr on failure.
std::shared_ptr<Document> documentAtStep(const Document& input, const PropagationRun& run,
                                         size_t steps, std::string* error = nullptr);

// The op a step worked on in `module`: `run.start` or a module from
// documentAtStep (by pre-order index), or `run.result` (the op at the same
// source location and of the same name, when the export passes kept it).
// nullptr when there is none (e.g. the closing normalization step).
const ir::Op* stepOp(const ir::Module& module, const propagation::TraceStep& step);

// "pipeline", "basic", "aggressive", "op-priority", "user-priority".
const char* levelName(propagation::PropagationLevel level);
// The level called `name` (a levelName), if any.
std::optional<propagation::PropagationLevel> levelFromName(std::string_view name);
// Every level, the GUI's default (the pipeline) first, then by strength.
const std::vector<propagation::PropagationLevel>& propagationLevels();
// "pipeline, basic, aggressive, op-priority or user-priority" (for messages).
std::string levelNames();

}  // namespace shardscope::api
