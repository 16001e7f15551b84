// MLIR text reader for StableHLO + sdy modules.
#pragma once
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
};

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
