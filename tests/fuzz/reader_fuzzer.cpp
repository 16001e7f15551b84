// libFuzzer entry for the MLIR text reader: parses arbitrary bytes with
// shardscope::ir::parseModule and, when that succeeds, prints the module back.
// Any crash, sanitizer report, leak or input that takes over -timeout seconds
// is a bug: the reader must reject bad input with diagnostics, never fail hard.
//
// Build and run: scripts/fuzz-reader.sh [SECONDS]
// Replay one input: build-fuzz/bin/reader_fuzzer path/to/crash-file
//
// With SHARDSCOPE_FUZZ_ROUNDTRIP=1 in the environment it also checks that the
// printed text parses again and prints identically (aborts otherwise).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "ir/parser.h"
#include "ir/printer.h"

namespace {

bool roundTripEnabled() {
  static const bool enabled = [] {
    const char* v = std::getenv("SHARDSCOPE_FUZZ_ROUNDTRIP");
    return v != nullptr && v[0] == '1';
  }();
  return enabled;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace shardscope::ir;
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  ParseOptions opts;
  opts.fileName = "fuzz.mlir";
  DiagnosticSink diags;
  std::unique_ptr<Module> module = parseModule(text, opts, diags);
  // Formatting the diagnostics exercises their locations and messages too.
  const std::string formatted = diags.formatAll(opts.fileName);
  (void)formatted;
  if (!module) return 0;

  const std::string printed = printModule(*module);
  if (!roundTripEnabled()) return 0;

  DiagnosticSink again;
  std::unique_ptr<Module> reparsed = parseModule(printed, opts, again);
  if (!reparsed) {
    std::fprintf(stderr, "round trip: printed module does not parse:\n%s\n--- printed:\n%s\n",
                 again.formatAll(opts.fileName).c_str(), printed.c_str());
    std::abort();
  }
  const std::string reprinted = printModule(*reparsed);
  if (reprinted != printed) {
    std::fprintf(stderr, "round trip: print(parse(print(m))) != print(m)\n--- first:\n%s\n--- second:\n%s\n",
                 printed.c_str(), reprinted.c_str());
    std::abort();
  }
  return 0;
}
