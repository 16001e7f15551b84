// -verify-diagnostics: annotations are found where mlir-opt finds them, and
// every missing, unexpected or mismatched diagnostic is reported.
#include "ir/diagnostic_verifier.h"

#include <gtest/gtest.h>

namespace shardscope::ir {
namespace {

std::vector<std::string> formatted(const std::vector<Diagnostic>& ds) {
  std::vector<std::string> out;
  for (const Diagnostic& d : ds) out.push_back(d.format("f.mlir"));
  return out;
}

std::vector<std::string> verifyText(std::string_view text, std::vector<Diagnostic> emitted,
                                    uint32_t firstLine = 1) {
  DiagnosticVerifier v(text, firstLine);
  return formatted(v.verify(emitted));
}

TEST(DiagnosticVerifier, FindsEveryAnchorKind) {
  const char* text =
      "// expected-error@+1 {{next line}}\n"                  // 1 -> 2
      "%0 = op // expected-warning {{same line}}\n"           // 2
      "// expected-note@-2 {{two up}}\n"                      // 3 -> 1
      "// expected-remark@above {{above}}\n"                  // 4 -> 1 (2, 3 are annotated)
      "// expected-error@below {{below}}\n"                   // 5 -> 7
      "// expected-error @below {{below too}}\n"              // 6 -> 7
      "%1 = op\n"                                             // 7
      "// expected-error-re {{dim {{[0-9]+}} is (large)}}\n"  // 8
      "// expected-error@unknown {{nowhere}}\n";              // 9
  std::vector<Diagnostic> problems;
  auto e = parseExpectedDiagnostics(text, 1, problems);
  EXPECT_TRUE(problems.empty());
  ASSERT_EQ(e.size(), 8u);
  std::vector<uint32_t> lines;
  for (const auto& x : e) lines.push_back(x.line);
  EXPECT_EQ(lines, (std::vector<uint32_t>{2, 2, 1, 1, 7, 7, 8, 0}));
  EXPECT_EQ(e[1].severity, Severity::Warning);
  EXPECT_EQ(e[1].text, "same line");
  EXPECT_EQ(e[1].annotation, (SourceLoc{2, 12}));
  EXPECT_EQ(e[2].severity, Severity::Note);
  EXPECT_EQ(e[3].severity, Severity::Remark);
  EXPECT_TRUE(e[6].isRegex);
  EXPECT_EQ(e[6].text, "dim {{[0-9]+}} is (large)");
  EXPECT_TRUE(e[7].unknownLocation);
}

TEST(DiagnosticVerifier, LinesOfASplitChunkAreFileLines) {
  std::vector<Diagnostic> problems;
  auto e = parseExpectedDiagnostics("\n// expected-error@+1 {{x}}\nop\n", 10, problems);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].line, 12u);
  EXPECT_EQ(e[0].annotation, (SourceLoc{11, 4}));
}

TEST(DiagnosticVerifier, DanglingBelowPointsPastTheEnd) {
  std::vector<Diagnostic> problems;
  auto e = parseExpectedDiagnostics("op\n// expected-error@below {{x}}", 1, problems);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].line, 2u);
}

TEST(DiagnosticVerifier, IgnoresTextThatIsNotAnAnnotation) {
  std::vector<Diagnostic> problems;
  EXPECT_TRUE(parseExpectedDiagnostics("// expected-error {{unterminated\n"
                                       "// expected-failure {{x}}\n"
                                       "// expected-error@foo {{x}}\n"
                                       "// expected-error {{x}} trailing\n",
                                       1, problems)
                  .empty());
  EXPECT_TRUE(problems.empty());
}

TEST(DiagnosticVerifier, MatchedDiagnosticsPass) {
  const char* text =
      "// expected-error@+1 {{does not match}}\n"
      "%0 = op\n"
      "// expected-note@-2 {{here}}\n";
  EXPECT_TRUE(verifyText(text, {{Severity::Error, {2, 3}, "result mesh does not match operand"},
                                {Severity::Note, {1, 1}, "declared here"}})
                  .empty());
}

TEST(DiagnosticVerifier, OneAnnotationAbsorbsRepeatedDiagnostics) {
  EXPECT_TRUE(verifyText("op // expected-error {{bad}}\n",
                         {{Severity::Error, {1, 1}, "bad"}, {Severity::Error, {1, 4}, "bad"}})
                  .empty());
}

TEST(DiagnosticVerifier, MissingDiagnosticIsReportedAtTheAnnotation) {
  EXPECT_EQ(verifyText("  // expected-error@+1 {{operand mesh}}\n%0 = op\n", {}),
            (std::vector<std::string>{
                "f.mlir:1:6: error: expected error \"operand mesh\" was not produced"}));
}

TEST(DiagnosticVerifier, WrongLineOrTextIsUnexpectedAndMissing) {
  const char* text = "// expected-error@+1 {{operand mesh}}\n%0 = op\n%1 = op\n";
  EXPECT_EQ(verifyText(text, {{Severity::Error, {3, 6}, "operand mesh mismatch"},
                              {Severity::Error, {2, 6}, "something else"}}),
            (std::vector<std::string>{
                "f.mlir:3:6: error: unexpected error: operand mesh mismatch",
                "f.mlir:2:6: error: unexpected error: something else",
                "f.mlir:1:4: error: expected error \"operand mesh\" was not produced"}));
}

TEST(DiagnosticVerifier, UnexpectedWarningsAndNotesFailToo) {
  EXPECT_EQ(verifyText("op\n", {{Severity::Warning, {1, 1}, "w"}, {Severity::Note, {1, 1}, "n"}}),
            (std::vector<std::string>{"f.mlir:1:1: error: unexpected warning: w",
                                      "f.mlir:1:1: error: unexpected note: n"}));
}

TEST(DiagnosticVerifier, WrongSeverityIsANearMiss) {
  EXPECT_EQ(verifyText("op // expected-warning {{groups}}\n",
                       {{Severity::Error, {1, 1}, "sharding groups conflict"}}),
            (std::vector<std::string>{
                "f.mlir:1:7: error: 'error' diagnostic emitted when expecting a 'warning'",
                "f.mlir:1:7: error: expected warning \"groups\" was not produced"}));
}

TEST(DiagnosticVerifier, RegexSegments) {
  const char* text = "op // expected-error-re {{dim {{[0-9]+}} of size {{.*}} (max 4)}}\n";
  EXPECT_TRUE(verifyText(text, {{Severity::Error, {1, 1}, "dim 12 of size 8 (max 4)"}}).empty());
  EXPECT_EQ(verifyText(text, {{Severity::Error, {1, 1}, "dim x of size 8 (max 4)"}}).size(), 2u);
  // Without -re the braces are plain text.
  EXPECT_TRUE(verifyText("op // expected-error {{a {{b}} c}}\n",
                         {{Severity::Error, {1, 1}, "x a {{b}} c y"}})
                  .empty());
}

TEST(DiagnosticVerifier, MalformedRegexIsReported) {
  EXPECT_EQ(verifyText("op // expected-error-re {{a {{b}}\n", {}),
            (std::vector<std::string>{"f.mlir:1:7: error: found start of regex with no end '}}'"}));
  auto bad = verifyText("op // expected-error-re {{{{a(}}}}\n", {});
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_NE(bad[0].find("f.mlir:1:7: error: invalid regex: "), std::string::npos) << bad[0];
}

TEST(DiagnosticVerifier, UnknownLocations) {
  EXPECT_TRUE(
      verifyText("// expected-error@unknown {{lost}}\n", {{Severity::Error, {}, "lost place"}})
          .empty());
  // A located diagnostic does not satisfy an @unknown annotation.
  EXPECT_EQ(verifyText("// expected-error@unknown {{lost}}\n", {{Severity::Error, {1, 1}, "lost"}})
                .size(),
            2u);
}

}  // namespace
}  // namespace shardscope::ir
