// Diagnostics with source locations, printed as `FILE:LINE:COL: error: MESSAGE`.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace shardscope::ir {

// A position in the source text (1-based line and column; 0 = unknown).
struct SourceLoc {
  uint32_t line = 0;
  uint32_t col = 0;
  bool known() const { return line != 0; }
  bool operator==(const SourceLoc&) const = default;
};

enum class Severity { Error, Warning, Note, Remark };

struct Diagnostic {
  Severity severity = Severity::Error;
  SourceLoc loc;
  std::string message;
  // `file:line:col: error: message`.
  std::string format(const std::string& file) const;
};

// Collects diagnostics; engine code never throws for bad input.
class DiagnosticSink {
 public:
  void error(SourceLoc loc, std::string message) { add(Severity::Error, loc, std::move(message)); }
  void warning(SourceLoc loc, std::string message) { add(Severity::Warning, loc, std::move(message)); }
  void note(SourceLoc loc, std::string message) { add(Severity::Note, loc, std::move(message)); }
  void add(Severity s, SourceLoc loc, std::string message) {
    diags_.push_back({s, loc, std::move(message)});
    if (s == Severity::Error) ++errors_;
  }
  bool hasErrors() const { return errors_ > 0; }
  int errorCount() const { return errors_; }
  const std::vector<Diagnostic>& all() const { return diags_; }
  void clear() { diags_.clear(); errors_ = 0; }
  // Forget every diagnostic after the first `n` (used when a parse attempt is retried).
  void truncate(size_t n) {
    while (diags_.size() > n) {
      if (diags_.back().severity == Severity::Error) --errors_;
      diags_.pop_back();
    }
  }
  // Append everything formatted, one per line.
  std::string formatAll(const std::string& file) const;

 private:
  std::vector<Diagnostic> diags_;
  int errors_ = 0;
};

}  // namespace shardscope::ir
