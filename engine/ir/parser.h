// MLIR text reader for StableHLO + sdy modules.
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "attribute_sites.h"
#include "diagnostics.h"
#include "operation.h"

namespace shardscope::ir {

struct ParseOptions {
  std::string fileName = "<stdin>";
  // Line number of the first line of `text` in the file (for `-split-input-file` chunks).
  uint32_t firstLine = 1;
  // When set, receives where each op's attributes were written (the text is
  // the one given to parseModule), so that diagnostics can point into them.
  AttributeSites* attributeSites = nullptr;
  // Called every kOpsPerProgressCall ops with the bytes of `text` read so
  // far and its size (a GUI's progress bar). Returning false stops the read:
  // parseModule returns nullptr with the one error kReadCancelled (a GUI's
  // Cancel). Empty: never called, nothing checked.
  std::function<bool(size_t consumed, size_t total)> progress;
};
// Often enough for a bar to move and a Cancel to answer within a few
// milliseconds, rarely enough to cost nothing (~100 calls per 100 MB).
inline constexpr int kOpsPerProgressCall = 4096;
// The message of a read stopped by ParseOptions::progress.
inline constexpr const char* kReadCancelled = "reading cancelled";

// Parse one module. On error, returns nullptr with diagnostics in `diags`
// (each with line and column). Never throws, never hangs on bad input.
std::unique_ptr<Module> parseModule(std::string_view text, const ParseOptions& opts,
                                    DiagnosticSink& diags);

// One chunk of a file split at lines `// -----`.
struct SourceChunk {
  std::string_view text;
  uint32_t firstLine = 1;
  // When set, receives where each op's attributes were written (the text is
  // the one given to parseModule), so that diagnostics can point into them.
  AttributeSites* attributeSites = nullptr;
};
std::vector<SourceChunk> splitInputFile(std::string_view text);

// Parse a standalone attribute/type (for the GUI's edit fields and tests).
std::optional<Attribute> parseAttribute(std::string_view text, DiagnosticSink& diags);
std::optional<Type> parseType(std::string_view text, DiagnosticSink& diags);

}  // namespace shardscope::ir
