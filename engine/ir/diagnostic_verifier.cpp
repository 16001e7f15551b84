#include "ir/diagnostic_verifier.h"

#include <optional>

namespace shardscope::ir {

namespace {

const char* severityWord(Severity s) {
  switch (s) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Note:
      return "note";
    case Severity::Remark:
      return "remark";
  }
  return "error";
}

// Where an annotation points, before lines are resolved.
enum class Anchor { ThisLine, Offset, Above, Below, Unknown };

struct Annotation {
  Severity severity = Severity::Error;
  bool isRegex = false;
  Anchor anchor = Anchor::ThisLine;
  int64_t offset = 0;
  size_t column = 0;  // 0-based column of `expected-`
  std::string_view text;
};

bool consume(std::string_view& s, std::string_view prefix) {
  if (s.substr(0, prefix.size()) != prefix) return false;
  s.remove_prefix(prefix.size());
  return true;
}

void skipSpaces(std::string_view& s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
}

// Reads `expected-KIND[-re] [@WHERE] {{TEXT}}` running to the end of `rest`
// (which starts right after `expected-`). The text runs to the last `}}`,
// which must end the line.
std::optional<Annotation> parseAnnotationAt(std::string_view rest) {
  Annotation a;
  if (consume(rest, "error")) {
    a.severity = Severity::Error;
  } else if (consume(rest, "warning")) {
    a.severity = Severity::Warning;
  } else if (consume(rest, "note")) {
    a.severity = Severity::Note;
  } else if (consume(rest, "remark")) {
    a.severity = Severity::Remark;
  } else {
    return std::nullopt;
  }
  a.isRegex = consume(rest, "-re");
  skipSpaces(rest);
  if (consume(rest, "@")) {
    if (!rest.empty() && (rest.front() == '+' || rest.front() == '-')) {
      bool negative = rest.front() == '-';
      rest.remove_prefix(1);
      size_t digits = 0;
      int64_t n = 0;
      while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') {
        if (n < (int64_t{1} << 40)) n = n * 10 + (rest[digits] - '0');
        ++digits;
      }
      if (digits == 0) return std::nullopt;
      rest.remove_prefix(digits);
      a.anchor = Anchor::Offset;
      a.offset = negative ? -n : n;
    } else if (consume(rest, "above")) {
      a.anchor = Anchor::Above;
    } else if (consume(rest, "below")) {
      a.anchor = Anchor::Below;
    } else if (consume(rest, "unknown")) {
      a.anchor = Anchor::Unknown;
    } else {
      return std::nullopt;
    }
    skipSpaces(rest);
  }
  if (!consume(rest, "{{") || rest.size() < 2 || rest.substr(rest.size() - 2) != "}}")
    return std::nullopt;
  a.text = rest.substr(0, rest.size() - 2);
  return a;
}

// The first annotation on a line (trailing whitespace already trimmed).
std::optional<Annotation> parseAnnotation(std::string_view line) {
  constexpr std::string_view kPrefix = "expected-";
  for (size_t at = line.find(kPrefix); at != std::string_view::npos;
       at = line.find(kPrefix, at + 1)) {
    if (auto a = parseAnnotationAt(line.substr(at + kPrefix.size()))) {
      a->column = at;
      return a;
    }
  }
  return std::nullopt;
}

// The regex source of an `-re` annotation: literal text escaped, each
// `{{...}}` segment kept as a group. Returns an error text when malformed.
std::string regexSource(std::string_view text, std::string& error) {
  std::string out;
  while (!text.empty()) {
    size_t open = text.find("{{");
    std::string_view literal = text.substr(0, open);
    for (char c : literal) {
      if (std::string_view(".[]{}()\\*+?|^$").find(c) != std::string_view::npos) out += '\\';
      out += c;
    }
    if (open == std::string_view::npos) break;
    text.remove_prefix(open + 2);
    size_t close = text.find("}}");
    if (close == std::string_view::npos) {
      error = "found start of regex with no end '}}'";
      return {};
    }
    out += '(';
    out += text.substr(0, close);
    out += ')';
    text.remove_prefix(close + 2);
  }
  return out;
}

std::string_view rtrim(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' ||
                        s.back() == '\v' || s.back() == '\f'))
    s.remove_suffix(1);
  return s;
}

}  // namespace

std::vector<ExpectedDiagnostic> parseExpectedDiagnostics(std::string_view text, uint32_t firstLine,
                                                         std::vector<Diagnostic>& problems) {
  std::vector<ExpectedDiagnostic> out;
  // Lines are counted as pieces between '\n' (a final newline starts one more,
  // empty line): a dangling `@below` lands on that last line.
  std::vector<std::string_view> lines;
  for (size_t start = 0;;) {
    size_t eol = text.find('\n', start);
    lines.push_back(text.substr(start, eol == std::string_view::npos ? eol : eol - start));
    if (eol == std::string_view::npos) break;
    start = eol + 1;
  }
  const uint32_t base = firstLine - 1;     // chunk line i (0-based) is file line base + i + 1
  uint32_t lastPlainLine = 0;              // 0-based index of the last line without annotation
  std::vector<size_t> waitingForNextLine;  // `@below` annotations, indices into `out`
  for (uint32_t i = 0; i < lines.size(); ++i) {
    std::optional<Annotation> a = parseAnnotation(rtrim(lines[i]));
    if (!a) {
      for (size_t index : waitingForNextLine) out[index].line = base + i + 1;
      waitingForNextLine.clear();
      lastPlainLine = i;
      continue;
    }
    ExpectedDiagnostic e;
    e.severity = a->severity;
    e.annotation = {base + i + 1, static_cast<uint32_t>(a->column + 1)};
    e.text = std::string(a->text);
    e.isRegex = a->isRegex;
    if (e.isRegex) {
      std::string error;
      std::string source = regexSource(e.text, error);
      if (error.empty()) {
        try {
          std::regex check(source, std::regex::extended);
        } catch (const std::regex_error& ex) {
          error = std::string("invalid regex: ") + ex.what();
        }
      }
      if (!error.empty()) {
        problems.push_back({Severity::Error, e.annotation, error});
        continue;
      }
    }
    switch (a->anchor) {
      case Anchor::ThisLine:
        e.line = base + i + 1;
        break;
      case Anchor::Offset: {
        int64_t line = int64_t{base} + i + 1 + a->offset;
        e.line = line > 0 && line <= INT32_MAX ? static_cast<uint32_t>(line) : 0;
        break;
      }
      case Anchor::Above:
        e.line = base + lastPlainLine + 1;
        break;
      case Anchor::Below:
        waitingForNextLine.push_back(out.size());
        e.line = base + static_cast<uint32_t>(lines.size());  // if no plain line follows
        break;
      case Anchor::Unknown:
        e.unknownLocation = true;
        break;
    }
    out.push_back(std::move(e));
  }
  return out;
}

DiagnosticVerifier::DiagnosticVerifier(std::string_view text, uint32_t firstLine) {
  for (ExpectedDiagnostic& e : parseExpectedDiagnostics(text, firstLine, problems_)) {
    Expectation x{std::move(e), {}, false};
    if (x.expected.isRegex) {
      std::string error;
      x.pattern = std::regex(regexSource(x.expected.text, error), std::regex::extended);
    }
    expectations_.push_back(std::move(x));
  }
}

bool DiagnosticVerifier::textMatches(const Expectation& e, const std::string& message) const {
  if (e.expected.isRegex) return std::regex_search(message, e.pattern);
  return message.find(e.expected.text) != std::string::npos;
}

void DiagnosticVerifier::check(const Diagnostic& d) {
  // An annotation may absorb several identical diagnostics; one that matches
  // in text but not in severity is a near miss, reported at the annotation.
  const Expectation* nearMiss = nullptr;
  for (Expectation& e : expectations_) {
    if (d.loc.known() ? e.expected.unknownLocation || e.expected.line != d.loc.line
                      : !e.expected.unknownLocation)
      continue;
    if (!textMatches(e, d.message)) continue;
    if (e.expected.severity == d.severity) {
      e.matched = true;
      return;
    }
    nearMiss = &e;
  }
  if (nearMiss) {
    problems_.push_back({Severity::Error, nearMiss->expected.annotation,
                         std::string("'") + severityWord(d.severity) +
                             "' diagnostic emitted when expecting a '" +
                             severityWord(nearMiss->expected.severity) + "'"});
  } else {
    problems_.push_back({Severity::Error, d.loc,
                         std::string("unexpected ") + severityWord(d.severity) + ": " + d.message});
  }
}

std::vector<Diagnostic> DiagnosticVerifier::verify(const std::vector<Diagnostic>& emitted) {
  std::vector<Diagnostic> problems = std::move(problems_);
  problems_.clear();
  for (const Diagnostic& d : emitted) check(d);
  problems.insert(problems.end(), problems_.begin(), problems_.end());
  problems_.clear();
  for (const Expectation& e : expectations_) {
    if (e.matched) continue;
    problems.push_back({Severity::Error, e.expected.annotation,
                        std::string("expected ") + severityWord(e.expected.severity) + " \"" +
                            e.expected.text + "\" was not produced"});
  }
  return problems;
}

}  // namespace shardscope::ir
