// Passes over a module, registered by their sdy_opt names
// (`-sdy-basic-propagate="conservative-propagation=true"`).
#pragma once
#include <functional>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/diagnostics.h"
#include "ir/operation.h"

namespace shardscope::propagation {
struct PropagationTrace;
}

namespace shardscope::passes {

// The `key=value` options given to one pass on the command line.
struct PassOptions {
  std::map<std::string, std::string> values;
  bool has(const std::string& key) const { return values.count(key) != 0; }
  std::string get(const std::string& key, const std::string& fallback = "") const;
  // "true"/"1" are true, "false"/"0" false; anything else gives `fallback`.
  bool getBool(const std::string& key, bool fallback = false) const;
  // A whole number; `fallback` when absent, nullopt when not a number.
  std::optional<int64_t> getInt(const std::string& key, int64_t fallback) const;
};

// What a pass gets besides the module.
// Wall-clock time of one pass (or pipeline step), for `--mlir-timing`.
struct PassTiming {
  std::string name;
  double seconds = 0;
  int depth = 0;  // 0: a pass on the command line; 1: a step of a pipeline
};

struct ReshardCause;  // passes/explicit_reshards/reshard_cause.h
using ReshardCauses = std::vector<ReshardCause>;

struct PassContext {
  ir::DiagnosticSink& diags;
  // Where `--trace=FILE` output should go (empty: no trace).
  std::string tracePath;
  // When set, passes and pipeline steps append their wall time here.
  std::vector<PassTiming>* timings = nullptr;
  // When set, the propagation passes record their steps here (the GUI's
  // trace of a run, also through the propagation pipeline).
  propagation::PropagationTrace* trace = nullptr;
  // When set, -sdy-insert-explicit-reshards records here why it inserted
  // each op (for the communication report).
  ReshardCauses* reshardCauses = nullptr;
};

// Runs the pass; returns false when it failed (diagnostics say why).
using PassFn = std::function<bool(ir::Module&, const PassOptions&, PassContext&)>;

struct PassInfo {
  std::string name;                  // without the leading '-': "sdy-basic-propagate"
  std::string summary;               // one line for --help
  std::vector<std::string> options;  // accepted option keys
  PassFn run;
};

// A pass without options that only needs the module and the diagnostics.
PassInfo passWithoutOptions(std::string name, std::string summary,
                            bool (*fn)(ir::Module&, ir::DiagnosticSink&));

// Runs the registered pass `name` as a step of a pipeline (its time goes to
// `ctx.timings` at depth 1). A pass this build does not have is skipped.
// Returns false when the pass failed or reported an error.
bool runPipelineStep(const std::string& name, const PassOptions& options, ir::Module& module,
                     PassContext& ctx);

// Every pass the engine knows, in registration order.
const std::vector<PassInfo>& allPasses();
const PassInfo* lookupPass(const std::string& name);

// Parse `a=1 b="x y"` (the text inside a pass's quotes) into options.
// Returns false with `error` set on malformed text.
bool parsePassOptions(const std::string& text, PassOptions& out, std::string& error);

}  // namespace shardscope::passes
