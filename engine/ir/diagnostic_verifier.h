// `-verify-diagnostics`: checks the diagnostics a run emitted against the
// `expected-*` comments of its source, the way mlir-opt does.
//
// An annotation names a severity, where the diagnostic is expected and a text
// the message must contain:
//
//   // expected-error@+1 {{operand mesh does not match}}
//   %0 = sdy.all_reduce ...                  <- the error must be on this line
//   %1 = stablehlo.add ... // expected-warning {{unused}}       (this line)
//   // expected-note@below {{declared here}}  (the next line without annotation)
//   // expected-error-re {{dim {{[0-9]+}} is too large}}  ({{...}} is a regex)
//
// Positions: none = the annotation's own line, `@+N` / `@-N` relative to it,
// `@above` / `@below` the nearest line above / below that carries no
// annotation, `@unknown` a diagnostic without a location. Every emitted
// diagnostic must match an annotation (same line, same severity, text
// contained) and every annotation must have been matched; each violation is
// reported as an error:
//
//   file:9:3: error: unexpected error: 'sdy.all_reduce' op ...
//   file:8:6: error: expected error "operand mesh does not match" was not produced
//   file:8:6: error: 'warning' diagnostic emitted when expecting a 'error'
#pragma once
#include <cstdint>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "ir/diagnostics.h"

namespace shardscope::ir {

// One `expected-*` annotation.
struct ExpectedDiagnostic {
  Severity severity = Severity::Error;
  // The line the diagnostic must be reported on (0 with `unknownLocation`).
  uint32_t line = 0;
  // Where the annotation itself is (for reporting it as not produced).
  SourceLoc annotation;
  // The text between the outer `{{` and `}}`.
  std::string text;
  // `expected-KIND-re`: `{{...}}` segments inside `text` are regular expressions.
  bool isRegex = false;
  bool unknownLocation = false;
};

// The annotations of one source chunk whose first line is `firstLine` in its
// file. Annotations with a malformed regex are left out and reported in
// `problems` (as errors at the annotation).
std::vector<ExpectedDiagnostic> parseExpectedDiagnostics(std::string_view text, uint32_t firstLine,
                                                         std::vector<Diagnostic>& problems);

// Checks emitted diagnostics against the annotations of one chunk; returns the
// verification errors, in the order mlir-opt reports them (unexpected and
// mismatched diagnostics as they were emitted, then the missing ones). Empty
// means the chunk verified.
class DiagnosticVerifier {
 public:
  DiagnosticVerifier(std::string_view text, uint32_t firstLine);
  std::vector<Diagnostic> verify(const std::vector<Diagnostic>& emitted);

 private:
  struct Expectation {
    ExpectedDiagnostic expected;
    std::regex pattern;  // used when expected.isRegex
    bool matched = false;
  };
  bool textMatches(const Expectation& e, const std::string& message) const;
  void check(const Diagnostic& d);

  std::vector<Expectation> expectations_;
  std::vector<Diagnostic> problems_;
};

}  // namespace shardscope::ir
