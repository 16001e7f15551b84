#include "api/propagate.h"

#include "passes/pass.h"
#include "passes/propagation_pipeline.h"
#include "propagation/propagation.h"

namespace shardscope::api {

namespace {

using propagation::PropagationLevel;
using propagation::PropagationOptions;

// `outer` seen through the part [from, to) of its bar.
LoadProgress part(const LoadProgress* outer, double from, double to) {
  if (!outer) return {};
  return {[outer, from, to](double f) { outer->at(from + (to - from) * f); },
          [outer] { return outer->stopped(); }};
}

std::shared_ptr<Document> reparse(const Document& input, const LoadProgress* progress = nullptr) {
  auto doc = parseDocument(input.text, input.name, progress);
  doc->path = input.path;
  return doc;
}

// The pass options that give `o` (the command line's spelling of it).
passes::PassOptions passOptionsFor(const PropagationOptions& o) {
  passes::PassOptions p;
  auto flag = [&p](const char* key, bool on) {
    if (on) p.values[key] = "true";
  };
  flag("conservative-propagation", o.conservativePropagation);
  flag("keep-sharding-rules", o.keepShardingRules);
  flag("debug-sharding-origins", o.debugShardingOrigins);
  flag("debug-propagation-edge-sharding", o.debugPropagationEdgeSharding);
  if (o.strategy == propagation::PropagationStrategy::Basic)
    p.values["propagation-strategy"] = "basic";
  else if (o.strategy == propagation::PropagationStrategy::BasicThenAggressive)
    p.values["propagation-strategy"] = "basic-then-aggressive";
  if (!o.runOpPriorityPropagation) p.values["run-op-priority-propagation"] = "false";
  return p;
}

// What a run at `options.level` executes: the pipeline's passes, or the one
// propagation pass of the level.
std::vector<passes::PipelineStep> stepsFor(const PropagationOptions& options) {
  const passes::PassOptions passOptions = passOptionsFor(options);
  if (options.level == PropagationLevel::Pipeline)
    return passes::propagationPipelineSteps(passOptions);
  passes::PipelineStep step;
  step.pass = passes::lookupPass(std::string("sdy-") + levelName(options.level) + "-propagate");
  step.options = passOptions;
  step.propagates = true;
  return {step};
}

// Runs steps[from, to) on `doc`'s module; false (diagnostics in `sink`) when
// one fails or `progress` says stop before one (then nothing is reported).
bool runSteps(Document& doc, const std::vector<passes::PipelineStep>& steps, size_t from, size_t to,
              passes::PassContext& ctx, const LoadProgress* progress = nullptr) {
  for (size_t i = from; i < to; ++i) {
    if (progress) {
      if (progress->stopped()) return false;
      progress->at(double(i - from) / double(to - from));
    }
    if (!steps[i].pass) {
      ctx.diags.error({}, "this build has no propagation pass for the level");
      return false;
    }
    if (!steps[i].pass->run(*doc.module, steps[i].options, ctx) || ctx.diags.hasErrors())
      return false;
  }
  return true;
}

size_t propagationIndex(const std::vector<passes::PipelineStep>& steps) {
  for (size_t i = 0; i < steps.size(); ++i)
    if (steps[i].propagates) return i;
  return steps.size();
}

// A fresh parse of `input` with the steps before propagation run on it.
// Null when a step failed or `progress` said stop (a cancelled document
// when it said so while reading).
std::shared_ptr<Document> startDocument(const Document& input,
                                        const std::vector<passes::PipelineStep>& steps,
                                        ir::DiagnosticSink& sink,
                                        const LoadProgress* progress = nullptr) {
  const LoadProgress reading = part(progress, 0, 0.8), importing = part(progress, 0.8, 1);
  auto doc = reparse(input, progress ? &reading : nullptr);
  if (!doc->module) return doc;
  passes::PassContext ctx{sink};
  if (!runSteps(*doc, steps, 0, propagationIndex(steps), ctx, progress ? &importing : nullptr))
    return nullptr;
  return doc;
}

}  // namespace

const char* levelName(PropagationLevel level) {
  switch (level) {
    case PropagationLevel::Basic:
      return "basic";
    case PropagationLevel::Aggressive:
      return "aggressive";
    case PropagationLevel::OpPriority:
      return "op-priority";
    case PropagationLevel::UserPriority:
      return "user-priority";
    case PropagationLevel::Pipeline:
      return "pipeline";
  }
  return "";
}

const std::vector<PropagationLevel>& propagationLevels() {
  static const std::vector<PropagationLevel> levels = {
      PropagationLevel::Pipeline, PropagationLevel::Basic, PropagationLevel::Aggressive,
      PropagationLevel::OpPriority, PropagationLevel::UserPriority};
  return levels;
}

std::optional<PropagationLevel> levelFromName(std::string_view name) {
  for (PropagationLevel l : propagationLevels())
    if (name == levelName(l)) return l;
  return std::nullopt;
}

std::string levelNames() {
  std::string out;
  const auto& all = propagationLevels();
  for (size_t i = 0; i < all.size(); ++i) {
    if (i) out += i + 1 == all.size() ? " or " : ", ";
    out += levelName(all[i]);
  }
  return out;
}

std::shared_ptr<PropagationRun> propagateDocument(const Document& input,
                                                  const PropagationOptions& options,
                                                  const LoadProgress* progress) {
  auto run = std::make_shared<PropagationRun>();
  run->options = options;
  if (!input.module || input.hasErrors()) {
    run->diagnostics.push_back(
        {ir::Severity::Error, {}, "cannot propagate: the module has errors"});
    return run;
  }
  auto stopped = [&] {
    if (!progress || !progress->stopped()) return false;
    run->cancelled = true;
    run->ok = false;
    run->start.reset();
    run->result.reset();
    run->diagnostics = {{ir::Severity::Note, {}, "propagation cancelled"}};
    return true;
  };
  const std::vector<passes::PipelineStep> steps = stepsFor(options);
  const size_t at = propagationIndex(steps);
  for (size_t i = 0; i < steps.size(); ++i)
    if (i != at && steps[i].pass)
      (i < at ? run->importPasses : run->exportPasses).push_back(steps[i].pass->name);
  // The bar: two reads of the text (with the import passes) take about as
  // long as the propagation and export passes together.
  const LoadProgress first = part(progress, 0, 0.25), second = part(progress, 0.25, 0.5),
                     rest = part(progress, 0.5, 1);
  auto use = [&](const LoadProgress& p) { return progress ? &p : nullptr; };
  // Step 0 for the GUI: its own copy, as the steps are replayed on copies.
  {
    ir::DiagnosticSink startSink;
    run->start = startDocument(input, steps, startSink, use(first));
  }
  if (stopped()) return run;
  ir::DiagnosticSink sink;
  auto doc = startDocument(input, steps, sink, use(second));
  if (stopped()) return run;
  if (doc && !doc->module) {
    run->diagnostics = doc->diagnostics;
    return run;
  }
  if (doc) {
    passes::PassContext ctx{sink};
    ctx.trace = &run->trace;
    run->ok = runSteps(*doc, steps, at, steps.size(), ctx, use(rest));
  }
  if (stopped()) return run;
  if (progress) progress->at(1);
  run->diagnostics = sink.all();
  if (!doc) return run;  // an import pass failed
  for (const auto& d : sink.all()) doc->diagnostics.push_back(d);
  run->result = doc;
  return run;
}

std::shared_ptr<Document> documentAtStep(const Document& input, const PropagationRun& run,
                                         size_t steps, std::string* error) {
  ir::DiagnosticSink sink;
  auto doc = startDocument(input, stepsFor(run.options), sink);
  if (!doc || !doc->module) {
    if (error)
      *error = doc ? "the input does not parse"
                   : "the passes before propagation failed: " +
                         (sink.all().empty() ? std::string() : sink.all().front().message);
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

const ir::Op* stepOp(const ir::Module& module, const propagation::TraceStep& step) {
  const std::vector<ir::Op*> ops = propagation::preOrderOps(const_cast<ir::Module&>(module));
  // The step's op if `op` is where it was recorded (a result sync names
  // func.return but is recorded at its function).
  auto match = [&step](const ir::Op* op) -> const ir::Op* {
    if (step.line != 0 && (op->loc().line != step.line || op->loc().col != step.col))
      return nullptr;
    if (op->name() == step.op) return op;
    if (op->is("func.func") && step.op == "func.return" && op->numRegions() > 0 &&
        !op->region(0).empty()) {
      const ir::Op* ret = op->region(0).blocks().back()->terminator();
      if (ret && ret->is("func.return")) return ret;
    }
    return nullptr;
  };
  if (step.opIndex >= 0 && static_cast<size_t>(step.opIndex) < ops.size())
    if (const ir::Op* op = match(ops[static_cast<size_t>(step.opIndex)])) return op;
  if (step.line == 0) return nullptr;
  for (const ir::Op* op : ops)
    if (const ir::Op* found = match(op)) return found;
  return nullptr;
}

}  // namespace shardscope::api
