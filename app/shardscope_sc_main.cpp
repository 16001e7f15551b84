// shardscope-sc: command-line front end of the SparseCore model.
//
//   shardscope-sc analyze JOB.json [--json] [--csv IDS.csv] [--stream] [--threads N]
//   shardscope-sc pipeline FILE.json [--json]
//   shardscope-sc pipeline --sc-fwd T --tc-fwd T --tc-bwd T --sc-bwd T [--steps N] [--json]
//   shardscope-sc trace TRACE.json [--json]
//   shardscope-sc chips [--json]
//   shardscope-sc export-csv JOB.json OUT.csv   (ids of a job, e.g. generated)
//   shardscope-sc stats FILE|DIR... [--json] [--sc-per-device N]   (FDO statistics files)
//
// Exit status: 0 on success, 1 on bad input, when the job would fail
// (limit exceeded without allow_id_dropping, SPMEM overflow) or when the
// output could not be written.
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/output_file.h"
#include "sparsecore/analysis.h"
#include "sparsecore/analysis_format.h"
#include "sparsecore/chip_spec.h"
#include "sparsecore/csv_ids.h"
#include "sparsecore/csv_stream.h"
#include "sparsecore/errors.h"
#include "sparsecore/job_io.h"
#include "sparsecore/fdo_stats_format.h"
#include "sparsecore/pipeline.h"
#include "sparsecore/trace_import.h"

using namespace shardscope::sc;
namespace io = shardscope::io;

namespace {

const char kUsage[] =
    "usage:\n"
    "  shardscope-sc analyze JOB.json [--json] [--csv IDS.csv] [--stream] [--threads N]\n"
    "      --stream reads the CSV once in constant memory (rows sorted by sample;\n"
    "      automatic above 2 GiB)\n"
    "  shardscope-sc pipeline FILE.json [--json]\n"
    "  shardscope-sc pipeline --sc-fwd T --tc-fwd T --tc-bwd T --sc-bwd T [--steps N] [--json]\n"
    "  shardscope-sc trace TRACE.json [--json]\n"
    "  shardscope-sc chips [--json]\n"
    "  shardscope-sc export-csv JOB.json OUT.csv\n"
    "  shardscope-sc stats FILE|DIR... [--json] [--sc-per-device N]   (FDO statistics, NPZ or CSV)\n";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Bounds of the numeric options: more threads than this only cost memory;
// the pipeline model keeps every step.
constexpr long kMaxThreads = 1024;
constexpr long kMaxSteps = kMaxPipelineSteps;

struct Args {
  std::vector<std::string> positional;
  bool json = false;
  std::string csv;
  bool stream = false;
  int threads = 0;
  double scFwd = -1, tcFwd = -1, tcBwd = -1, scBwd = -1;
  int steps = 10;
  int scPerDevice = 0;
};

double parseNumber(const std::string& flag, const std::string& v) {
  char* end = nullptr;
  double d = std::strtod(v.c_str(), &end);
  if (v.empty() || *end) throw UsageError(flag + ": expected a number, got '" + v + "'");
  return d;
}

// An integer in [lo, hi]; out-of-range values are named, not wrapped.
int parseInt(const std::string& flag, const std::string& v, long lo = INT32_MIN,
             long hi = INT32_MAX) {
  char* end = nullptr;
  errno = 0;
  long d = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end) throw UsageError(flag + ": expected an integer, got '" + v + "'");
  if (errno == ERANGE || d < lo || d > hi)
    throw UsageError(flag + ": " + v + " is out of range (" + std::to_string(lo) + " to " +
                     std::to_string(hi) + ")");
  return static_cast<int>(d);
}

Args parseArgs(int argc, char** argv, int from) {
  Args a;
  for (int i = from; i < argc; ++i) {
    std::string s = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw UsageError(s + ": missing value");
      return argv[++i];
    };
    if (s == "--json")
      a.json = true;
    else if (s == "--csv")
      a.csv = value();
    else if (s == "--stream")
      a.stream = true;
    else if (s == "--threads")
      a.threads = parseInt(s, value(), 1, kMaxThreads);
    else if (s == "--sc-fwd")
      a.scFwd = parseNumber(s, value());
    else if (s == "--tc-fwd")
      a.tcFwd = parseNumber(s, value());
    else if (s == "--tc-bwd")
      a.tcBwd = parseNumber(s, value());
    else if (s == "--sc-bwd")
      a.scBwd = parseNumber(s, value());
    else if (s == "--steps")
      a.steps = parseInt(s, value(), 1, kMaxSteps);
    else if (s == "--sc-per-device")
      a.scPerDevice = parseInt(s, value());
    else if (s.rfind("--", 0) == 0)
      throw UsageError("unknown option " + s);
    else
      a.positional.push_back(s);
  }
  return a;
}

int analyzeCommand(const Args& a) {
  if (a.positional.size() != 1) throw UsageError("analyze takes one job file");
  std::vector<std::string> warnings;
  std::string csvPath;
  Job job = loadJobFile(a.positional[0], &warnings, a.csv, &csvPath);
  // Above this size a CSV is streamed even without --stream: loading it
  // whole would take several times its size in memory.
  constexpr uintmax_t kStreamAbove = uintmax_t{2} << 30;
  std::error_code sizeError;
  const bool huge = !csvPath.empty() && std::filesystem::file_size(csvPath, sizeError) > kStreamAbove &&
                    !sizeError;
  if (a.stream && csvPath.empty())
    throw UsageError("--stream needs ids from a CSV file (--csv or the job's \"csv\")");
  AnalysisReport report;
  if (a.stream || huge) {
    if (!a.stream)
      std::cerr << "shardscope-sc: " << csvPath << " is over 2 GiB: streaming it (--stream)\n";
    report = analyzePreprocessed(job, preprocessCsvFile(job, csvPath));
  } else {
    if (!csvPath.empty()) warnings.clear(), job = loadJobFile(a.positional[0], &warnings, a.csv);
    PreprocessOptions options;
    options.threads = a.threads;
    report = analyze(job, options);
  }
  for (const std::string& w : warnings) report.warnings.insert(report.warnings.begin(), w);
  if (a.json)
    std::cout << analysisToJson(report).dump(2) << "\n";
  else
    std::cout << analysisToText(report);
  if (report.error) {
    std::cerr << "shardscope-sc: " << a.positional[0] << ": " << *report.error << "\n";
    return 1;
  }
  return 0;
}

int pipelineCommand(const Args& a) {
  PipelineComparison c;
  if (!a.positional.empty()) {
    if (a.positional.size() != 1) throw UsageError("pipeline takes one file");
    const std::string& path = a.positional[0];
    c = pipelineFromJson(parseJsonText(readTextFile(path), path), path);
  } else {
    if (a.scFwd < 0 || a.tcFwd < 0 || a.tcBwd < 0 || a.scBwd < 0)
      throw UsageError(
          "pipeline needs a file or all of --sc-fwd --tc-fwd --tc-bwd --sc-bwd (non-negative)");
    c = comparePipelines({a.scFwd, a.tcFwd, a.tcBwd, a.scBwd}, a.steps);
  }
  if (a.json)
    std::cout << pipelineToJson(c).dump(2) << "\n";
  else
    std::cout << pipelineToText(c);
  return 0;
}

int traceCommand(const Args& a) {
  if (a.positional.size() != 1) throw UsageError("trace takes one trace file");
  TraceSummary s = importTraceFile(a.positional[0]);
  if (a.json)
    std::cout << traceSummaryToJson(s).dump(2) << "\n";
  else
    std::cout << traceSummaryToText(s);
  return 0;
}

int chipsCommand(const Args& a) {
  nlohmann::json out = nlohmann::json::array();
  for (const ChipSpec& c : knownChipSpecs()) {
    if (a.json) {
      out.push_back({{"name", c.name},
                     {"sparse_cores_per_chip", c.sparseCoresPerChip},
                     {"tiles_per_sparse_core", c.tilesPerSparseCore},
                     {"simd_lanes_f32", c.simdLanesF32},
                     {"simd_lanes_bf16", c.simdLanesBf16},
                     {"tile_spmem_bytes", c.tileSpmemBytes},
                     {"hbm_bytes", c.hbmBytes}});
    } else {
      std::printf("%-6s %d SparseCores x %d tiles, SIMD %d f32 / %d bf16, TileSpmem %s, HBM %s\n",
                  c.name.c_str(), c.sparseCoresPerChip, c.tilesPerSparseCore, c.simdLanesF32,
                  c.simdLanesBf16, formatBytes(c.tileSpmemBytes).c_str(),
                  formatBytes(c.hbmBytes).c_str());
    }
  }
  if (a.json) std::cout << out.dump(2) << "\n";
  return 0;
}

int exportCsvCommand(const Args& a) {
  if (a.positional.size() != 2) throw UsageError("export-csv takes a job file and an output file");
  Job job = loadJobFile(a.positional[0]);
  io::OutputFile file;
  std::string error;
  if (!file.open(a.positional[1], error)) throw InputError(error);
  writeIdsCsv(job, file.stream());
  if (!file.close(error)) throw InputError(error);
  return 0;
}

// The FDO statistics files of a training run, and the limits they suggest.
int statsCommand(const Args& a) {
  if (a.positional.empty()) throw UsageError("stats takes one or more statistics files or folders");
  if (a.scPerDevice < 0 || a.scPerDevice > 4096)
    throw UsageError("--sc-per-device: expected 1 to 4096 SparseCores, got " + std::to_string(a.scPerDevice));
  FdoStatsReport report = loadFdoStatsReport(a.positional, a.scPerDevice);
  if (a.json)
    std::cout << fdoStatsToJson(report).dump(2) << "\n";
  else
    std::cout << fdoStatsToText(report);
  std::cout.flush();
  if (!std::cout) throw InputError("standard output: write error");
  return 0;
}

// Runs one command; its results go to stdout, which must have arrived.
int runCommand(const std::string& command, const Args& a) {
  int rc = 1;
  if (command == "analyze")
    rc = analyzeCommand(a);
  else if (command == "pipeline")
    rc = pipelineCommand(a);
  else if (command == "trace")
    rc = traceCommand(a);
  else if (command == "chips")
    rc = chipsCommand(a);
  else if (command == "export-csv")
    rc = exportCsvCommand(a);
  else if (command == "stats")
    rc = statsCommand(a);
  else
    throw UsageError("unknown command '" + command + "'");
  if (std::string error; !io::flushStdout(error)) throw InputError(error);
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << kUsage;
    return 1;
  }
  const std::string command = argv[1];
  try {
    if (command == "-h" || command == "--help" || command == "help") {
      std::cout << kUsage;
      if (std::string error; !io::flushStdout(error)) throw InputError(error);
      return 0;
    }
    return runCommand(command, parseArgs(argc, argv, 2));
  } catch (const UsageError& e) {
    std::cerr << "shardscope-sc: " << e.what() << "\n" << kUsage;
  } catch (const InputError& e) {
    std::cerr << "shardscope-sc: " << e.what() << "\n";
  } catch (const LimitError& e) {
    std::cerr << "shardscope-sc: " << e.what() << "\n";
  } catch (const std::bad_alloc&) {
    std::cerr << "shardscope-sc: out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "shardscope-sc: " << e.what() << "\n";
  }
  return 1;
}
