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
  // "true"/"1" are true, "false"/"0" false (and the spellings of
  // checkPassOptions); anything else gives `fallback`.
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
  std::string tracePath = {};
  // When set, passes and pipeline steps append their wall time here.
  std::vector<PassTiming>* timings = nullptr;
  // When set, the propagation passes record their steps here (the GUI's
  // trace of a run, also through the propagation pipeline).
  propagation::PropagationTrace* trace = nullptr;
  // When set, -sdy-insert-explicit-reshards records here why it inserted
  // each op (for the communication report).
  ReshardCauses* reshardCauses = nullptr;
  // Inside -sdy-propagation-pipeline with a dump directory: the dump index
  // its nested steps use (module_dump.h); standalone passes start at 0.
  std::optional<int> moduleDumpIndex = {};
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

// Why MLIR would refuse the options given to a pass, in its words:
//   shardscope-opt: for the --conservative-propagation option: 'maybe' is
//     invalid value for boolean argument! Try 0 or 1          (`parser`)
//   <unknown>:0: error: failed to add `sdy-basic-propagate` with options
//     `conservative-propagation=maybe`                          (`error`)
struct PassOptionError {
  std::string parser;  // what LLVM's option parser prints first
  std::string error;   // the error MLIR then reports (at an unknown location)
};
// Checks `options` (parsed from `text`) against what `pass` declares: every
// key must be one of its options, and a value must suit its option: a
// boolean (true/false/1/0, also TRUE/True/FALSE/False, or no value), a whole
// number, or one of an option's choices (propagation-strategy). `program`
// names the tool in the parser's message.
std::optional<PassOptionError> checkPassOptions(const PassInfo& pass, const PassOptions& options,
                                                const std::string& text, const std::string& program);

// Parse `a=1 b="x y"` (the text inside a pass's quotes) into options.
// Returns false with `error` set on malformed text.
bool parsePassOptions(const std::string& text, PassOptions& out, std::string& error);

}  // namespace shardscope::passes
