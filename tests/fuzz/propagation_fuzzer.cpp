// Propagation fuzzer: random valid modules (random_module.h) through every
// propagation strategy and the whole pipeline. For each strategy the run
// must end (a watchdog aborts one that takes over --step-timeout seconds),
// report no error, and its output must verify and read back (print, read,
// print gives the same text). The pipeline must also be idempotent: run on
// its own printed output, it prints the same text again, whenever every
// sharding of that output divides its dimensions evenly. (With one that
// does not, sdy itself is not: -sdy-propagate-to-func-results copies a
// return value's sharding onto its function's result, and
// -sdy-update-non-divisible-input-output-shardings then strips the axes that
// do not divide from the function and its calls but not from the value, so
// a second run finds a call that disagrees with its callee and reshards it.)
//
//   propagation_fuzzer --seed 1 --count 30          # what CTest runs
//   propagation_fuzzer --seconds 600 --seed $RANDOM  # scripts/fuzz-propagation.sh
//
// Module i uses seed SEED+i, so a finding is replayed with
// `--seed SEED+i --count 1`; the failing module is printed and, with
// `--save FILE`, written to FILE. Exit status 1 on a finding.
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <chrono>
#include <unistd.h>

#include "ir/parser.h"
#include "ir/printer.h"
#include "passes/pass.h"
#include "passes/pass_utils.h"
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
  bool pipeline;
};
const Strategy kStrategies[] = {
    {"sdy-basic-propagate", false},       {"sdy-aggressive-propagate", false},
    {"sdy-op-priority-propagate", false}, {"sdy-user-priority-propagate", false},
    {"sdy-propagation-pipeline", true},
};

// Whether `sharding` of a value of `type` shards each dimension evenly.
bool divides(const ir::Module& m, const std::optional<TensorSharding>& sharding,
             const ir::Type& type) {
  if (!sharding || !type.isRankedTensor() || !type.hasStaticShape()) return true;
  const Mesh* mesh = m.meshOf(*sharding);
  if (!mesh) return true;
  for (size_t d = 0; d < sharding->dims.size() && d < type.shape.size(); ++d) {
    const int64_t shards = sharding->dims[d].shardCount(*mesh);
    if (shards > 0 && type.shape[d] % shards != 0) return false;
  }
  return true;
}

// No sharding in `m` leaves a remainder (see the header).
bool everyShardingDivides(const ir::Module& m) {
  namespace util = passes::util;
  bool ok = true;
  m.op->walk([&](ir::Op& op) {
    for (ir::Value* r : op.resultRange()) ok = ok && divides(m, util::getSharding(r), r->type);
    if (!util::isFuncOp(op)) return;
    if (op.numRegions() > 0 && !op.region(0).empty())
      for (ir::Value* a : op.region(0).front().arguments())
        ok = ok && divides(m, util::getSharding(a), a->type);
    const std::vector<ir::Type> types = util::funcResultTypes(op);
    if (auto results = util::funcResultShardings(m, op))
      for (size_t i = 0; i < results->size() && i < types.size(); ++i)
        ok = ok && divides(m, (*results)[i], types[i]);
  });
  return ok;
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

// Runs `pass` on `text`; the printed result, or a finding.
bool runPass(const std::string& text, const char* passName, std::string& printed, Finding& f,
             int timeout, bool* evenlySharded = nullptr) {
  std::string error;
  std::unique_ptr<ir::Module> m = read(text, "input", error);
  if (!m) {
    f = {"the input does not read or verify", error};
    return false;
  }
  const passes::PassInfo* pass = passes::lookupPass(passName);
  if (!pass) {
    f = {std::string("no pass ") + passName, ""};
    return false;
  }
  ir::DiagnosticSink diags;
  passes::PassContext ctx{diags, ""};
  g_watchdogText = std::string("pass: ") + passName + "\n--- module:\n" + text;
  alarm(static_cast<unsigned>(timeout));
  const bool ok = pass->run(*m, passes::PassOptions{}, ctx);
  alarm(0);
  if (!ok || diags.hasErrors()) {
    f = {std::string(passName) + " failed", diags.formatAll("input")};
    return false;
  }
  ir::DiagnosticSink verifyDiags;
  if (!verifyModule(*m, verifyDiags)) {
    f = {std::string("the output of ") + passName + " does not verify",
         verifyDiags.formatAll("output") + "--- output:\n" + ir::printModule(*m)};
    return false;
  }
  printed = ir::printModule(*m);
  if (evenlySharded) *evenlySharded = everyShardingDivides(*m);
  std::unique_ptr<ir::Module> again = read(printed, "output", error);
  if (!again) {
    f = {std::string("the output of ") + passName + " does not read back",
         error + "--- output:\n" + printed};
    return false;
  }
  const std::string reprinted = ir::printModule(*again);
  if (reprinted != printed) {
    f = {std::string("the output of ") + passName + " prints differently once read back",
         "--- printed:\n" + printed + "--- read back and printed:\n" + reprinted};
    return false;
  }
  return true;
}

// Counts of pipeline outputs checked for idempotence.
long g_idempotenceChecked = 0;

bool check(const std::string& text, Finding& f, int timeout) {
  for (const Strategy& s : kStrategies) {
    std::string out;
    bool even = false;
    if (!runPass(text, s.pass, out, f, timeout, &even)) return false;
    if (!s.pipeline || !even) continue;
    ++g_idempotenceChecked;
    std::string twice;
    if (!runPass(out, s.pass, twice, f, timeout)) {
      f.what += " (run on the pipeline's own output)";
      return false;
    }
    if (twice != out) {
      f = {"the pipeline is not idempotent",
           "--- once:\n" + out + "--- lines that differ once run again on that:\n" +
               lineDiff(out, twice)};
      return false;
    }
  }
  return true;
}

int usage() {
  std::cerr << "usage: propagation_fuzzer [--seed N] [--count N] [--seconds S] [--step-timeout S] "
               "[--save FILE] [--print]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t seed = 1;
  long count = -1;
  double seconds = -1;
  int stepTimeout = 120;
  std::string save;
  bool print = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (a == "--print") {
      print = true;
    } else if (a == "--seed" && (v = next())) {
      seed = std::strtoull(v, nullptr, 10);
    } else if (a == "--count" && (v = next())) {
      count = std::strtol(v, nullptr, 10);
    } else if (a == "--seconds" && (v = next())) {
      seconds = std::strtod(v, nullptr);
    } else if (a == "--step-timeout" && (v = next())) {
      stepTimeout = std::max(1, std::atoi(v));
    } else if (a == "--save" && (v = next())) {
      save = v;
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
            << 5 * done << " strategy runs, " << g_idempotenceChecked
            << " pipeline outputs checked for idempotence, no finding ("
            << static_cast<long>(elapsed()) << " s)\n";
  return 0;
}
