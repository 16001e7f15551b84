// shardscope-opt: an sdy_opt-compatible command line over the engine.
//
//   shardscope-opt FILE [-split-input-file] [-verify-diagnostics]
//                  [-sdy-PASS[="opt=value ..."] ...] [-o OUT] [--trace=FILE.json]
//
// Reads MLIR text (StableHLO + sdy), verifies it, runs the named passes in
// order and prints the result. Diagnostics go to stderr as
// `FILE:LINE:COL: error: MESSAGE`; the exit code is 1 when any error was
// reported (for -verify-diagnostics: when an expected diagnostic was missed).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "comm/comm_report.h"
#include "ir/parser.h"
#include "ir/printer.h"
#include "passes/pass.h"
#include "verifier/verifier.h"

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
  bool timing = false;
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
               "  --mlir-timing            report the wall time of parsing, each pass and printing\n"
               "  --list-passes            list the available passes\n\n"
               "PASSES (run in the order given; options as -PASS=\"key=value ...\"):\n";
  for (const auto& p : passes::allPasses()) {
    std::cout << "  -" << p.name;
    if (!p.summary.empty()) std::cout << "  " << p.summary;
    std::cout << '\n';
    for (const auto& o : p.options) std::cout << "      " << o << '\n';
  }
}

// Returns 0 on success, else prints the problem and returns the exit code.
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
      std::exit(0);
    }
    if (name == "version") {
      std::cout << "shardscope-opt 0.1.0\n";
      std::exit(0);
    }
    if (name == "list-passes") {
      for (const auto& p : passes::allPasses()) std::cout << p.name << '\n';
      std::exit(0);
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
    if (name == "allow-unregistered-dialect" || name == "mlir-print-debuginfo" || name == "mlir-disable-threading")
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
      for (const auto& [k, v] : req.options.values) {
        bool known = false;
        for (const auto& o : info->options) known |= (o == k);
        if (!known) {
          std::cerr << "shardscope-opt: pass -" << name << " has no option '" << k << "'\n";
          return 1;
        }
      }
    }
    opts.pipeline.push_back(std::move(req));
  }
  return 0;
}

bool readInput(const std::string& path, std::string& out) {
  if (path == "-") {
    out.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {  // a pipe, a device: read it as a stream
    std::ostringstream ss;
    ss << in.rdbuf();
    out = ss.str();
    return true;
  }
  // Straight into a string of the file's size: a stringstream copied a large
  // file twice more.
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  in.seekg(0);
  out.resize(static_cast<size_t>(std::max<std::streamoff>(size, 0)));
  in.read(out.data(), static_cast<std::streamsize>(out.size()));
  out.resize(static_cast<size_t>(in.gcount()));  // a file that shrank meanwhile
  return true;
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

// Process one chunk; returns false when it reported an error.
bool processChunk(std::string_view text, uint32_t firstLine, const Options& opts, std::ostream& out,
                  std::ostream& err, const std::string& displayName, bool lastChunk, comm::CommReport& commReport) {
  ir::DiagnosticSink diags;
  ir::ParseOptions po;
  po.fileName = displayName;
  po.firstLine = firstLine;
  std::vector<passes::PassTiming> timings;
  auto clock = std::chrono::steady_clock::now();
  // Appends the time since the last mark under `name`.
  auto mark = [&](const std::string& name, int depth) {
    auto now = std::chrono::steady_clock::now();
    if (opts.timing) timings.push_back({name, std::chrono::duration<double>(now - clock).count(), depth});
    clock = now;
  };
  std::unique_ptr<ir::Module> module = ir::parseModule(text, po, diags);
  mark("Parser", 0);
  bool ok = module != nullptr;
  if (ok) ok = verifyModule(*module, diags);
  mark("Verifier", 0);
  if (ok) {
    passes::PassContext ctx{diags, opts.tracePath};
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
  err << diags.formatAll(displayName);
  if (ok) {
    ir::PrintOptions print;
    print.genericForm = opts.genericForm;
    ir::printModule(*module, out, print);
    out.flush();
    mark("Output", 0);
    if (!opts.commReportPath.empty()) {
      comm::CommOptions commOptions;
      commOptions.chip = opts.chip;
      comm::mergeCommReport(commReport, comm::analyzeCommunication(*module, commOptions));
      mark("Communication report", 0);
    }
  }
  if (opts.timing) printTimingReport(timings, err);
  // The process ends right after the last chunk: like LLVM's tools, skip
  // freeing a large module one object at a time (it costs a tenth of a run).
  if (lastChunk) (void)module.release();
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  Options opts;
  if (int rc = parseArgs(argc, argv, opts)) return rc;

  if (!opts.commReportPath.empty()) {
    std::string error;
    if (!comm::resolveChip(opts.commChip, opts.commChipsPath, opts.chip, error)) {
      std::cerr << "shardscope-opt: " << error << '\n';
      return 1;
    }
  }

  std::string text;
  if (!readInput(opts.input, text)) {
    std::cerr << "shardscope-opt: could not open input file '" << opts.input << "': " << std::strerror(errno)
              << '\n';
    return 1;
  }
  std::string displayName = opts.input == "-" ? "<stdin>" : opts.input;

  std::ofstream file;
  std::ostream* out = &std::cout;
  if (opts.output != "-") {
    file.open(opts.output, std::ios::binary);
    if (!file) {
      std::cerr << "shardscope-opt: could not open output file '" << opts.output << "': " << std::strerror(errno)
                << '\n';
      return 1;
    }
    out = &file;
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
    if (i) *out << "// -----\n";
    allOk &= processChunk(chunks[i].text, chunks[i].firstLine, opts, *out, std::cerr, displayName,
                          i + 1 == chunks.size(), commReport);
  }
  out->flush();
  if (!opts.commReportPath.empty()) {
    std::string error;
    if (!comm::writeCommReport(commReport, opts.commReportPath, *out, error)) {
      std::cerr << "shardscope-opt: " << error << '\n';
      return 1;
    }
  }
  // With -verify-diagnostics, mlir-opt succeeds when the diagnostics match the
  // annotations; the conformance runner checks them itself, so report the
  // same exit status it expects: 0 unless the tool broke.
  if (opts.verifyDiagnostics) return 0;
  return allOk ? 0 : 1;
}
