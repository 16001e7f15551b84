// Propagation fuzzer: random valid modules (random_module.h) through every
// propagation strategy (basic, aggressive, op-priority, user-priority) and
// the whole pipeline, in both of its call modes (functions copied per call,
// and `dedup-functions-fully`). Each run must end (a watchdog aborts one
// that takes over --step-timeout seconds), report no error, and its output
// must verify and read back (print, read, print gives the same text).
//
// Idempotence of the pipeline P is checked where sdy has it. Its export
// normalises main's in/out shardings after propagation, and a run whose
// normalisation changed something is not a fixed point in sdy either:
//  - -sdy-remove-sub-axes-in-input-output-shardings cuts a sub-axis and the
//    axes after it from main's open argument and result dimensions. A value
//    that held `{"a":(2)2, "b", ?}` (so an add of it and a `{"y", "b"}` value
//    got no sharding, for the conflict) comes out `{}`, closed; run again,
//    nothing conflicts and the add is sharded.
//  - -sdy-update-non-divisible-input-output-shardings drops the axes that do
//    not divide from function arguments, results and call results, but not
//    from the values returned inside. The next run's
//    -sdy-propagate-to-func-results copies the returned value's sharding
//    back onto the callee, -sdy-insert-func-call-reshards reshards the call
//    to what it had, and the normalisation makes the two equal again: every
//    run adds one reshard that changes nothing, and P never settles.
// So, with out_k the output of run k (out_0 the module) and raw_k run k
// with `update-non-divisible-input-output-shardings=false` (which turns off
// both): the first run k <= --settle with raw_k == out_k must be a fixed
// point, P(out_k) == out_k. Usually that is run 1; after a normalisation it
// is typically run 2, whose closed shardings leave nothing to normalise.
//
// Outputs are compared modulo what sdy itself does not keep stable from one
// run to the next (pipeline_output.h):
//  - private function names, renamed in order of first mention. When main
//    and a function it calls both call `f`, -sdy-flatten-call-graph clones f
//    for main's call as `f_0`, the functions recreated from named
//    computations take the names back (main's copy renamed, as the other
//    came first), and -sdy-unflatten-call-graph keeps the copy of the first
//    call in module order, main's: each run adds a `_0` to its name.
//  - sdy.sharding attributes whose shardings are all closed and name no
//    axis, which after the pipeline mean what no sharding means, and the
//    mesh of such shardings. -sdy-insert-func-call-reshards gives a call its
//    callee's result shardings (an unsharded result as `[{}, {}]`) after the
//    caller's own results were set, so the next run's
//    -sdy-propagate-to-func-results copies them onto a function that
//    returns the call's result (`<@mesh_1, [{}, {}]>` where it had
//    `<@mesh, [{}, {}]>`, or none), and then onto that function's calls.
//  - open dimensions of reshards. The export's -sdy-insert-explicit-reshards
//    runs after -sdy-close-shardings and reshards a call's operand to its
//    callee's argument sharding, an unsharded argument as fully open
//    (`[{?}, {?}]`), which the next run closes.
// Every other difference is a finding. --show-normalised prints what the
// normalisation changed in modules that never reach a fixed point.
//
//   propagation_fuzzer --seed 1 --count 25          # what CTest runs
//   propagation_fuzzer --seconds 600 --seed $RANDOM  # scripts/fuzz-propagation.sh
//
// Module i uses seed SEED+i, so a finding is replayed with
// `--seed SEED+i --count 1`; the failing module is printed and, with
// `--save FILE`, written to FILE. `--module FILE` checks that one module
// (a saved finding, or one written by hand) instead of generated ones.
// Exit status 1 on a finding.
#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <chrono>
#include <unistd.h>

#include "ir/parser.h"
#include "ir/printer.h"
#include "passes/pass.h"
#include "passes/propagation_pipeline.h"
#include "pipeline_output.h"
#include "random_module.h"
#include "verifier/verifier.h"

namespace {

using namespace shardscope;

// What the watchdog prints when a step does not end: written before each
// step, read only by the signal handler.
std::string g_watchdogText;

extern "C" void onAlarm(int) {
  static const char kMsg[] = "\npropagation_fuzzer: a step did not finish in time (hang?)\n";
  ssize_t ignored = write(STDERR_FILENO, kMsg, sizeof kMsg - 1);
  ignored = write(STDERR_FILENO, g_watchdogText.data(), g_watchdogText.size());
  (void)ignored;
  _exit(2);
}

struct Strategy {
  const char* pass;
  passes::PassOptions options;
  bool pipeline;
  std::string label() const {
    std::string out = pass;
    for (const auto& [key, value] : options.values) out += " " + key + "=" + value;
    return out;
  }
};
const std::vector<Strategy>& strategies() {
  static const std::vector<Strategy> all = {
      {"sdy-basic-propagate", {}, false},
      {"sdy-aggressive-propagate", {}, false},
      {"sdy-op-priority-propagate", {}, false},
      {"sdy-user-priority-propagate", {}, false},
      {"sdy-propagation-pipeline", {}, true},
      {"sdy-propagation-pipeline", {{{"dedup-functions-fully", "true"}}}, true},
  };
  return all;
}

// Runs `s` on `m`. With `normalise` false, the pipeline's export leaves
// main's in/out shardings as propagation made them (see the header).
bool run(const Strategy& s, ir::Module& m, passes::PassContext& ctx, bool normalise) {
  if (normalise || !s.pipeline) {
    const passes::PassInfo* pass = passes::lookupPass(s.pass);
    return pass && pass->run(m, s.options, ctx);
  }
  for (passes::PipelineStep step : passes::propagationPipelineSteps(s.options)) {
    if (step.nested) step.options.values["update-non-divisible-input-output-shardings"] = "false";
    if (!step.pass->run(m, step.options, ctx) || ctx.diags.hasErrors()) return false;
  }
  return true;
}

// The lines of `a` and `b` that differ, with their numbers (a short diff).
std::string lineDiff(const std::string& a, const std::string& b) {
  auto lines = [](const std::string& s) {
    std::vector<std::string> out;
    size_t start = 0;
    for (size_t nl; (nl = s.find('\n', start)) != std::string::npos; start = nl + 1)
      out.push_back(s.substr(start, nl - start));
    if (start < s.size()) out.push_back(s.substr(start));
    return out;
  };
  const std::vector<std::string> la = lines(a), lb = lines(b);
  std::string out;
  for (size_t i = 0; i < std::max(la.size(), lb.size()); ++i) {
    const std::string* x = i < la.size() ? &la[i] : nullptr;
    const std::string* y = i < lb.size() ? &lb[i] : nullptr;
    if (x && y && *x == *y) continue;
    if (x) out += std::to_string(i + 1) + "< " + *x + "\n";
    if (y) out += std::to_string(i + 1) + "> " + *y + "\n";
  }
  return out;
}

struct Finding {
  std::string what;
  std::string detail;
};

std::unique_ptr<ir::Module> read(const std::string& text, const char* name, std::string& error) {
  ir::DiagnosticSink diags;
  ir::ParseOptions opts;
  opts.fileName = name;
  std::unique_ptr<ir::Module> m = ir::parseModule(text, opts, diags);
  if (m && !diags.hasErrors() && verifyModule(*m, diags)) return m;
  error = diags.formatAll(name);
  return nullptr;
}

// Runs `s` on `text`; the printed result, or a finding.
bool runPass(const std::string& text, const Strategy& s, std::string& printed, Finding& f,
             int timeout, bool normalise = true) {
  std::string error;
  std::unique_ptr<ir::Module> m = read(text, "input", error);
  if (!m) {
    f = {"the input does not read or verify", error};
    return false;
  }
  const std::string name = s.label() + (normalise ? "" : " (without the in/out normalisation)");
  ir::DiagnosticSink diags;
  passes::PassContext ctx{diags, ""};
  g_watchdogText = "pass: " + name + "\n--- module:\n" + text;
  alarm(static_cast<unsigned>(timeout));
  const bool ok = run(s, *m, ctx, normalise);
  alarm(0);
  if (!ok || diags.hasErrors()) {
    f = {name + " failed", diags.formatAll("input")};
    return false;
  }
  ir::DiagnosticSink verifyDiags;
  if (!verifyModule(*m, verifyDiags)) {
    f = {"the output of " + name + " does not verify",
         verifyDiags.formatAll("output") + "--- output:\n" + ir::printModule(*m)};
    return false;
  }
  printed = ir::printModule(*m);
  std::unique_ptr<ir::Module> again = read(printed, "output", error);
  if (!again) {
    f = {"the output of " + name + " does not read back", error + "--- output:\n" + printed};
    return false;
  }
  const std::string reprinted = ir::printModule(*again);
  if (reprinted != printed) {
    f = {"the output of " + name + " prints differently once read back",
         "--- printed:\n" + printed + "--- read back and printed:\n" + reprinted};
    return false;
  }
  return true;
}

// Pipeline runs checked for idempotence: on the module's first run, on a
// later one (the first runs normalised main's in/out shardings), and
// modules whose every run up to --settle normalised something.
long g_idempotentFirst = 0;
long g_idempotentLater = 0;
long g_alwaysNormalised = 0;
// --show-normalised: print what the normalisation changed in the last run
// of such modules (to see why they never reach a fixed point).
bool g_showNormalised = false;
int g_settleRuns = 4;

// The pipeline's idempotence from its output `once` of `text` (see the
// header): the first run k whose normalisations did nothing must be a fixed
// point, P(out_k) == out_k.
bool checkIdempotence(const std::string& text, const Strategy& s, const std::string& once,
                      Finding& f, int timeout) {
  std::string input = text, out = once, lastRaw;
  for (int run = 1; run <= g_settleRuns; ++run) {
    std::string raw, next;
    if (!runPass(input, s, raw, f, timeout, /*normalise=*/false) ||
        !runPass(out, s, next, f, timeout)) {
      f.what += " (on the output of run " + std::to_string(run) + ")";
      return false;
    }
    if (fuzz::comparable(raw) == fuzz::comparable(out)) {
      ++(run == 1 ? g_idempotentFirst : g_idempotentLater);
      if (fuzz::comparable(next) == fuzz::comparable(out)) return true;
      f = {s.label() + " is not idempotent on the output of run " + std::to_string(run),
           "--- run " + std::to_string(run) + ":\n" + out +
               "--- lines that differ once run again on that (in the compared form):\n" +
               lineDiff(fuzz::comparable(out), fuzz::comparable(next))};
      return false;
    }
    lastRaw = std::move(raw);
    input = std::move(out);
    out = std::move(next);
  }
  ++g_alwaysNormalised;
  if (g_showNormalised)
    std::cerr << "normalised in every run: " << s.label() << ", lines the normalisation changed in run "
              << g_settleRuns << ":\n"
              << lineDiff(fuzz::comparable(lastRaw), fuzz::comparable(input));
  return true;
}

bool check(const std::string& text, Finding& f, int timeout) {
  for (const Strategy& s : strategies()) {
    std::string out;
    if (!runPass(text, s, out, f, timeout)) return false;
    if (s.pipeline && !checkIdempotence(text, s, out, f, timeout)) return false;
  }
  return true;
}

int usage() {
  std::cerr << "usage: propagation_fuzzer [--seed N] [--count N] [--seconds S] [--step-timeout S] "
               "[--settle RUNS] [--save FILE] [--print] [--show-normalised] [--module FILE]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t seed = 1;
  long count = -1;
  double seconds = -1;
  int stepTimeout = 120;
  std::string save, moduleFile;
  bool print = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (a == "--print") {
      print = true;
    } else if (a == "--show-normalised") {
      g_showNormalised = true;
    } else if (a == "--seed" && (v = next())) {
      seed = std::strtoull(v, nullptr, 10);
    } else if (a == "--count" && (v = next())) {
      count = std::strtol(v, nullptr, 10);
    } else if (a == "--seconds" && (v = next())) {
      seconds = std::strtod(v, nullptr);
    } else if (a == "--settle" && (v = next())) {
      g_settleRuns = std::max(1, std::atoi(v));
    } else if (a == "--step-timeout" && (v = next())) {
      stepTimeout = std::max(1, std::atoi(v));
    } else if (a == "--save" && (v = next())) {
      save = v;
    } else if (a == "--module" && (v = next())) {
      moduleFile = v;
    } else {
      return usage();
    }
  }
  if (count < 0 && seconds < 0) count = 30;
  std::signal(SIGALRM, onAlarm);
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  if (!moduleFile.empty()) {
    std::ifstream in(moduleFile, std::ios::binary);
    if (!in) {
      std::cerr << "propagation_fuzzer: cannot read " << moduleFile << "\n";
      return 2;
    }
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    Finding f;
    if (!check(text, f, stepTimeout)) {
      std::cerr << "propagation_fuzzer: " << moduleFile << ": " << f.what << "\n" << f.detail << "\n";
      return 1;
    }
    std::cout << "propagation_fuzzer: " << moduleFile << ": no finding\n";
    return 0;
  }
  long done = 0;
  for (uint64_t s = seed;; ++s) {
    if (count >= 0 && done >= count) break;
    if (seconds >= 0 && elapsed() >= seconds) break;
    const std::string text = fuzz::RandomModuleGenerator(s).generate();
    if (print) std::cout << "// seed " << s << "\n" << text << "// -----\n";
    Finding f;
    if (!check(text, f, stepTimeout)) {
      std::cerr << "propagation_fuzzer: seed " << s << ": " << f.what << "\n"
                << f.detail << "\n--- module (replay: --seed " << s << " --count 1):\n"
                << text;
      if (!save.empty()) std::ofstream(save) << text;
      return 1;
    }
    ++done;
  }
  std::cout << "propagation_fuzzer: " << done << " modules from seed " << seed << ", "
            << strategies().size() * static_cast<size_t>(done) << " strategy runs, "
            << g_idempotentFirst << " pipeline outputs checked for idempotence on the first run, "
            << g_idempotentLater << " on a later run (" << g_alwaysNormalised
            << " normalised in every run), no finding ("
            << static_cast<long>(elapsed()) << " s)\n";
  return 0;
}
