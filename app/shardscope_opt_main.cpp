// shardscope-opt: an sdy_opt-compatible command line over the engine.
//
//   shardscope-opt FILE [-split-input-file] [-verify-diagnostics]
//                  [-sdy-PASS[="opt=value ..."] ...] [-o OUT] [--trace=FILE.json]
//
// Reads MLIR text (StableHLO + sdy), verifies it, runs the named passes in
// order and prints the result. Diagnostics go to stderr as
// `FILE:LINE:COL: error: MESSAGE`; the exit code is 1 when any error was
// reported (for -verify-diagnostics: when the diagnostics do not match the
// file's `expected-*` annotations), or when the input could not be read or
// the output not written.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "comm/comm_report.h"
#include "io/huge_page_heap.h"
#include "io/input_file.h"
#include "io/mapped_input.h"
#include "io/output_file.h"
#include "ir/diagnostic_verifier.h"
#include "ir/parser.h"
#include "ir/printer.h"
#include "passes/explicit_reshards/reshard_cause.h"
#include "passes/pass.h"
#include "verifier/verifier.h"
#include "verifier/verify_read_module.h"

namespace {

using namespace shardscope;

struct PassRequest {
  const passes::PassInfo* info;
  passes::PassOptions options;
};

struct Options {
  std::string input = "-";
  std::string output = "-";
  std::string tracePath;
  // --comm-report=FILE.json (or - for a table), on the chip --comm-chip names
  // from the built-in table or --comm-chips=FILE.json.
  std::string commReportPath, commChip, commChipsPath;
  comm::ChipLink chip;
  bool splitInputFile = false;
  bool verifyDiagnostics = false;
  bool genericForm = false;
  bool debugInfo = false;
  bool timing = false;
  uint64_t maxInputBytes = io::kDefaultMaxInputBytes;
  std::vector<PassRequest> pipeline;
};

void printHelp() {
  std::cout << "OVERVIEW: Shardscope's sdy_opt-compatible driver\n\n"
               "USAGE: shardscope-opt [options] [FILE]\n\n"
               "OPTIONS:\n"
               "  -o FILE                  write the output here (default: stdout)\n"
               "  -split-input-file        process each '// -----' chunk on its own\n"
               "  -verify-diagnostics      check expected-error annotations\n"
               "  --trace=FILE.json        record the propagation steps as JSON\n"
               "  --comm-report=FILE.json  list every collective with its cost and cause (- : a table on stdout)\n"
               "  --comm-chip=NAME         chip for --comm-report (tpu-v4, tpu-v5e, tpu-v5p, tpu-v6e, gpu-h100-nvlink)\n"
               "  --comm-chips=FILE.json   add or replace chips of that table\n"
               "  --mlir-print-op-generic  print every op in generic form\n"
               "  --mlir-print-debuginfo   print each op's location (loc(#locN), #locN = loc(...))\n"
               "  --mlir-timing            report the wall time of parsing, each pass and printing\n"
               "  --max-input-mib=N        refuse inputs larger than N MiB (default: 256)\n"
               "  --list-passes            list the available passes\n\n"
               "PASSES (run in the order given; options as -PASS=\"key=value ...\"):\n";
  for (const auto& p : passes::allPasses()) {
    std::cout << "  -" << p.name;
    if (!p.summary.empty()) std::cout << "  " << p.summary;
    std::cout << '\n';
    for (const auto& o : p.options) std::cout << "      " << o << '\n';
  }
}

// parseArgs' result when it printed what was asked (--help, --version, ...).
constexpr int kPrintedInfo = -1;

// Returns 0 on success, kPrintedInfo, else prints the problem and returns the exit code.
int parseArgs(int argc, char** argv, Options& opts) {
  bool inputSet = false, endOfOptions = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (endOfOptions || a == "-" || a.empty() || a[0] != '-') {
      if (inputSet) {
        std::cerr << "shardscope-opt: more than one input file given ('" << opts.input << "' and '" << a << "')\n";
        return 1;
      }
      opts.input = a;
      inputSet = true;
      continue;
    }
    if (a == "--") {
      endOfOptions = true;
      continue;
    }
    // Accept both -flag and --flag.
    std::string flag = a.substr(a[1] == '-' ? 2 : 1);
    std::string name = flag, value;
    bool hasValue = false;
    if (auto eq = flag.find('='); eq != std::string::npos) {
      name = flag.substr(0, eq);
      value = flag.substr(eq + 1);
      hasValue = true;
    }
    if (name == "h" || name == "help") {
      printHelp();
      return kPrintedInfo;
    }
    if (name == "version") {
      std::cout << "shardscope-opt 0.1.0\n";
      return kPrintedInfo;
    }
    if (name == "list-passes") {
      for (const auto& p : passes::allPasses()) std::cout << p.name << '\n';
      return kPrintedInfo;
    }
    if (name == "o") {
      if (hasValue) {
        opts.output = value;
      } else if (i + 1 < argc) {
        opts.output = argv[++i];
      } else {
        std::cerr << "shardscope-opt: -o needs a file name\n";
        return 1;
      }
      continue;
    }
    if (name == "split-input-file") {
      opts.splitInputFile = true;
      continue;
    }
    if (name == "verify-diagnostics") {
      opts.verifyDiagnostics = true;
      continue;
    }
    if (name == "trace") {
      if (!hasValue || value.empty()) {
        std::cerr << "shardscope-opt: --trace needs a file name (--trace=FILE.json)\n";
        return 1;
      }
      opts.tracePath = value;
      continue;
    }
    if (name == "max-input-mib") {
      char* end = nullptr;
      unsigned long long mib = hasValue ? std::strtoull(value.c_str(), &end, 10) : 0;
      if (!hasValue || value.empty() || *end || mib == 0 || mib > (uint64_t{1} << 30)) {
        std::cerr << "shardscope-opt: --max-input-mib needs a positive number of MiB\n";
        return 1;
      }
      opts.maxInputBytes = static_cast<uint64_t>(mib) << 20;
      continue;
    }
    if (name == "comm-report" || name == "comm-chip" || name == "comm-chips") {
      if (!hasValue || value.empty()) {
        std::cerr << "shardscope-opt: --" << name << " needs a value (--" << name << "=...)\n";
        return 1;
      }
      (name == "comm-report" ? opts.commReportPath : name == "comm-chip" ? opts.commChip : opts.commChipsPath) = value;
      continue;
    }
    if (name == "mlir-timing") {
      opts.timing = true;
      continue;
    }
    if (name == "mlir-print-op-generic") {
      opts.genericForm = true;
      continue;
    }
    if (name == "mlir-print-debuginfo") {
      opts.debugInfo = true;
      continue;
    }
    if (name == "allow-unregistered-dialect" || name == "mlir-disable-threading")
      continue;
    const passes::PassInfo* info = passes::lookupPass(name);
    if (!info) {
      std::cerr << "shardscope-opt: unknown option or pass '" << a << "' (see --help)\n";
      return 1;
    }
    PassRequest req{info, {}};
    // Values may be quoted or wrapped in braces: -p="a=1 b=2", -p{a=1}.
    if (hasValue) {
      if (value.size() >= 2 && value.front() == '{' && value.back() == '}') value = value.substr(1, value.size() - 2);
      std::string error;
      if (!passes::parsePassOptions(value, req.options, error)) {
        std::cerr << "shardscope-opt: bad options for -" << name << ": " << error << '\n';
        return 1;
      }
      if (auto bad = passes::checkPassOptions(*info, req.options, value, "shardscope-opt")) {
        std::cerr << bad->parser << "\n<unknown>:0: error: " << bad->error << '\n';
        return 1;
      }
    }
    opts.pipeline.push_back(std::move(req));
  }
  return 0;
}

// The `--mlir-timing` report, shaped like MLIR's execution time report.
void printTimingReport(const std::vector<passes::PassTiming>& timings, std::ostream& err) {
  double total = 0;
  for (const auto& t : timings)
    if (t.depth == 0) total += t.seconds;
  char line[256];
  err << "===" << std::string(73, '-') << "===\n"
      << "                         ... Execution time report ...\n"
      << "===" << std::string(73, '-') << "===\n";
  std::snprintf(line, sizeof line, "  Total Execution Time: %.4f seconds\n\n", total);
  err << line << "  ----Wall Time----  ----Name----\n";
  for (const auto& t : timings) {
    std::snprintf(line, sizeof line, "  %8.4f (%5.1f%%)  %s%s\n", t.seconds, total > 0 ? 100 * t.seconds / total : 0.0,
                  std::string(2 * static_cast<size_t>(t.depth), ' ').c_str(), t.name.c_str());
    err << line;
  }
  std::snprintf(line, sizeof line, "  %8.4f (100.0%%)  Total\n", total);
  err << line;
}

// The last chunk's module, never freed (see processChunk). Volatile: a
// pointer only ever stored would be optimised away, and the module would
// then look leaked.
ir::Module* volatile& moduleKeptUntilExit() {
  static ir::Module* volatile kept = nullptr;
  return kept;
}

// Process one chunk; returns false when it reported an error.
bool processChunk(std::string_view text, uint32_t firstLine, const Options& opts, std::ostream& out,
                  std::ostream& err, const std::string& displayName, bool lastChunk, comm::CommReport& commReport) {
  ir::DiagnosticSink diags;
  ir::ParseOptions po;
  po.fileName = displayName;
  po.firstLine = firstLine;
  // Errors in an attribute stay at their op, where sdy_opt reports them (the
  // conformance cases check that), and a note points at the attribute (an
  // unknown axis at the axis); -verify-diagnostics checks exactly sdy_opt's
  // diagnostics, so no note then. The notes need where the reader found each
  // attribute, recorded only when the verifier fails (verify_read_module.h).
  std::vector<passes::PassTiming> timings;
  auto clock = std::chrono::steady_clock::now();
  // Appends the time since the last mark under `name`.
  auto mark = [&](const std::string& name, int depth) {
    auto now = std::chrono::steady_clock::now();
    if (opts.timing) timings.push_back({name, std::chrono::duration<double>(now - clock).count(), depth});
    clock = now;
  };
  std::unique_ptr<ir::Module> module = ir::parseModule(text, po, diags);
  passes::ReshardCauses reshardCauses;  // for the communication report
  mark("Parser", 0);
  bool ok = module != nullptr;
  if (ok)
    ok = opts.verifyDiagnostics ? verifyModule(*module, diags)
                                : verifyReadModule(text, po, *module, diags);
  mark("Verifier", 0);
  if (ok) {
    passes::PassContext ctx{diags, opts.tracePath};
    if (!opts.commReportPath.empty()) ctx.reshardCauses = &reshardCauses;
    if (opts.timing) ctx.timings = &timings;
    for (const PassRequest& req : opts.pipeline) {
      size_t at = timings.size();
      bool passOk = req.info->run(*module, req.options, ctx) && !diags.hasErrors();
      // The pass's own line goes before the steps it timed.
      auto now = std::chrono::steady_clock::now();
      if (opts.timing)
        timings.insert(timings.begin() + static_cast<std::ptrdiff_t>(at),
                       {req.info->name, std::chrono::duration<double>(now - clock).count(), 0});
      clock = now;
      if (!passOk) {
        ok = false;
        break;
      }
    }
  }
  bool chunkOk = ok;
  if (opts.verifyDiagnostics) {
    // Like mlir-opt: the diagnostics are checked against the chunk's
    // annotations instead of printed, and only the check decides the outcome.
    ir::DiagnosticVerifier verifier(text, firstLine);
    std::vector<ir::Diagnostic> problems = verifier.verify(diags.all());
    for (const ir::Diagnostic& d : problems) err << d.format(displayName) << '\n';
    chunkOk = problems.empty();
  } else {
    err << diags.formatAll(displayName);
  }
  if (ok) {
    ir::PrintOptions print;
    print.genericForm = opts.genericForm;
    print.debugInfo = opts.debugInfo;
    ir::printModule(*module, out, print);
    out.flush();
    mark("Output", 0);
    if (!opts.commReportPath.empty()) {
      comm::CommOptions commOptions;
      commOptions.chip = opts.chip;
      commOptions.reshardCauses = &reshardCauses;
      comm::mergeCommReport(commReport, comm::analyzeCommunication(*module, commOptions));
      mark("Communication report", 0);
    }
  }
  if (opts.timing) printTimingReport(timings, err);
  // The process ends right after the last chunk: like LLVM's tools, skip
  // freeing a large module one object at a time (it costs a tenth of a run).
  // It stays reachable from a static, so LeakSanitizer does not report it.
  if (lastChunk) moduleKeptUntilExit() = module.release();
  return chunkOk;
}

int run(Options& opts) {
  std::string error;
  if (!opts.commReportPath.empty() &&
      !comm::resolveChip(opts.commChip, opts.commChipsPath, opts.chip, error)) {
    std::cerr << "shardscope-opt: " << error << '\n';
    return 1;
  }
  io::MappedInput input;
  if (!input.load(opts.input, opts.maxInputBytes, error)) {
    std::cerr << "shardscope-opt: " << error << '\n';
    return 1;
  }
  std::string_view text = input.text();
  std::string displayName = opts.input == "-" ? "<stdin>" : opts.input;

  io::OutputFile out;
  if (!out.open(opts.output, error)) {
    std::cerr << "shardscope-opt: " << error << '\n';
    return 1;
  }

  std::vector<ir::SourceChunk> chunks;
  if (opts.splitInputFile) {
    chunks = ir::splitInputFile(text);
  } else {
    chunks.push_back({text, 1});
  }
  bool allOk = true;
  comm::CommReport commReport;
  commReport.chip = opts.chip;
  for (size_t i = 0; i < chunks.size(); ++i) {
    if (i) out.stream() << "// -----\n";
    allOk &= processChunk(chunks[i].text, chunks[i].firstLine, opts, out.stream(), std::cerr,
                          displayName, i + 1 == chunks.size(), commReport);
  }
  if (!opts.commReportPath.empty() &&
      !comm::writeCommReport(commReport, opts.commReportPath, out.stream(), error)) {
    std::cerr << "shardscope-opt: " << error << '\n';
    return 1;
  }
  if (!out.close(error)) {
    std::cerr << "shardscope-opt: " << error << '\n';
    return 1;
  }
  return allOk ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  Options opts;
  try {
    if (int rc = parseArgs(argc, argv, opts)) {
      std::string error;
      if (rc != kPrintedInfo) return rc;
      if (io::flushStdout(error)) return 0;
      std::cerr << "shardscope-opt: " << error << '\n';
      return 1;
    }
    // A large module: restart once with a huge-page heap before reading it
    // (io/huge_page_heap.h; a third less CPU time at a million ops).
    std::error_code sizeError;
    if (opts.input != "-" &&
        std::filesystem::file_size(opts.input, sizeError) >= io::kHugePageHeapMinInput && !sizeError)
      io::restartWithHugePageHeap(argv);
    return run(opts);
  } catch (const std::bad_alloc&) {
    std::cerr << "shardscope-opt: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "shardscope-opt: internal error: " << e.what() << '\n';
  }
  return 1;
}
