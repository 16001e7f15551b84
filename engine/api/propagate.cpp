#include "api/propagate.h"

#include "ir/parser.h"
#include "propagation/propagation.h"

namespace shardscope::api {

namespace {
std::shared_ptr<Document> reparse(const Document& input) {
  auto doc = parseDocument(input.text, input.name);
  doc->path = input.path;
  return doc;
}
}  // namespace

const char* levelName(propagation::PropagationLevel level) {
  switch (level) {
    case propagation::PropagationLevel::Basic:
      return "basic";
    case propagation::PropagationLevel::Aggressive:
      return "aggressive";
    case propagation::PropagationLevel::OpPriority:
      return "op-priority";
    case propagation::PropagationLevel::UserPriority:
      return "user-priority";
  }
  return "";
}

std::shared_ptr<PropagationRun> propagateDocument(const Document& input,
                                                  const propagation::PropagationOptions& options) {
  auto run = std::make_shared<PropagationRun>();
  run->options = options;
  if (!input.module || input.hasErrors()) {
    run->diagnostics.push_back(
        {ir::Severity::Error, {}, "cannot propagate: the module has errors"});
    return run;
  }
  auto doc = reparse(input);
  if (!doc->module) {
    run->diagnostics = doc->diagnostics;
    return run;
  }
  ir::DiagnosticSink sink;
  run->ok = propagation::propagate(*doc->module, options, sink, &run->trace);
  run->diagnostics = sink.all();
  for (const auto& d : sink.all()) doc->diagnostics.push_back(d);
  run->result = doc;
  return run;
}

std::shared_ptr<Document> documentAtStep(const Document& input, const PropagationRun& run,
                                         size_t steps, std::string* error) {
  auto doc = reparse(input);
  if (!doc->module) {
    if (error) *error = "the input does not parse";
    return nullptr;
  }
  propagation::PropagationTrace prefix;
  prefix.version = run.trace.version;
  const size_t n = std::min(steps, run.trace.steps.size());
  prefix.steps.assign(run.trace.steps.begin(),
                      run.trace.steps.begin() + static_cast<std::ptrdiff_t>(n));
  if (!propagation::replayTrace(*doc->module, prefix, error)) return nullptr;
  return doc;
}

}  // namespace shardscope::api
