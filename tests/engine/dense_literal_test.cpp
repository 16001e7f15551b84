// Dense literals (engine/ir/attribute.cpp): the reader's checks and its
// canonical spelling, on a literal of millions of elements as on a small
// one. A model's weights can make one `dense<[...]>` line tens of MB long;
// reading and printing it must stay linear (tests/bench/bench_literal.sh
// times it).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "ir/attribute.h"
#include "ir/parser.h"
#include "ir/printer.h"

namespace shardscope::ir {
namespace {

// `[0.0, 1.0, ..., 999999.0, 0.0, 1.0, ...]` (n elements) and its canonical
// form: whole numbers below 10^6 read back exactly from MLIR's six-digit
// exponent form (1000001.0 would not: MLIR writes it as 0x49742410).
struct Literal {
  std::string written;
  std::string printed;
};
Literal counting(int n) {
  Literal out;
  out.written = "[";
  out.printed = "[";
  char buf[32];
  for (int i = 0; i < n; ++i) {
    if (i) {
      out.written += ", ";
      out.printed += ", ";
    }
    const int value = i % 1'000'000;
    out.written += std::to_string(value) + ".0";
    std::snprintf(buf, sizeof buf, "%.6e", static_cast<double>(value));
    out.printed += buf;
  }
  out.written += "]";
  out.printed += "]";
  return out;
}

TEST(DenseLiteralTest, MillionsOfElementsReadAndPrintAsMlirDoes) {
  const int n = 2'000'000;  // about 20 MB written, 28 MB printed
  const Literal literal = counting(n);
  const std::string size = std::to_string(n);
  const std::string text = "func.func @main() -> tensor<" + size + "xf32> {\n" +
                           "  %0 = stablehlo.constant dense<" + literal.written + "> : tensor<" +
                           size + "xf32>\n  return %0 : tensor<" + size + "xf32>\n}\n";
  DiagnosticSink diags;
  std::unique_ptr<Module> m = parseModule(text, ParseOptions{}, diags);
  ASSERT_TRUE(m) << diags.formatAll("input");
  ASSERT_FALSE(diags.hasErrors()) << diags.formatAll("input");
  const std::string printed = printModule(*m);
  const std::string expected = "dense<" + literal.printed + "> : tensor<" + size + "xf32>";
  const size_t at = printed.find("dense<");
  ASSERT_NE(at, std::string::npos);
  const std::string got = printed.substr(at, expected.size());
  if (got != expected) {
    size_t diff = 0;
    while (diff < got.size() && got[diff] == expected[diff]) ++diff;
    const size_t from = diff > 40 ? diff - 40 : 0;
    ADD_FAILURE() << "the printed literal differs at character " << diff << ": ..."
                  << got.substr(from, 80) << "... instead of ..." << expected.substr(from, 80);
  }

  // And what it printed reads back to the same text.
  DiagnosticSink again;
  std::unique_ptr<Module> reread = parseModule(printed, ParseOptions{}, again);
  ASSERT_TRUE(reread) << again.formatAll("printed");
  EXPECT_TRUE(printModule(*reread) == printed);
}

TEST(DenseLiteralTest, LargeLiteralProblemsAreFoundAtTheirElement) {
  const int n = 1'000'000;
  std::string body = "<" + counting(n).written + ">";
  EXPECT_EQ(denseLiteralProblem(body, {n}, "f32"), "");
  EXPECT_EQ(denseLiteralProblem(body, {n + 1}, "f32"),
            "inferred shape of elements literal ([" + std::to_string(n) +
                "]) does not match type ([" + std::to_string(n + 1) + "])");
  EXPECT_EQ(malformedDenseNumber(body), std::string::npos);
  // Two numbers without a comma between them, near the end.
  const size_t last = body.rfind(", ");
  body.replace(last, 2, " ");
  EXPECT_EQ(malformedDenseNumber(body), last);
}

TEST(DenseLiteralTest, LargeSplatListPrintsAsOneValue) {
  std::string body = "<[";
  for (int i = 0; i < 500'000; ++i) body += i ? ", 2.5" : "2.5";
  body += "]>";
  EXPECT_EQ(canonicalDenseBody(body, "f32"), "<2.500000e+00>");
  body[body.size() - 3] = '6';  // the last element is 2.6: no splat
  const std::string out = canonicalDenseBody(body, "f32");
  EXPECT_EQ(out.substr(out.size() - 28), "2.500000e+00, 2.600000e+00]>");
}

// Where a number stops reading is where C's strtod stops (the reader's
// "expected ',' or '>'" error points there).
TEST(DenseLiteralTest, NumbersEndWhereStrtodEnds) {
  const char* tokens[] = {"1",     "-1",    "+1",      "1.",     ".5",    "-.5",  "1.5e3",
                          "1.5E-3", "1e",   "1e+",     "1.e5",  "..5",  "1.2.3",
                          "1e400", "1e-400", "12abc",  "0X1F",   "-0X1F", "1e5e5", "007"};
  for (const char* tok : tokens) {
    char* end = nullptr;
    std::strtod(tok, &end);
    const size_t stop = static_cast<size_t>(end - tok);
    const std::string body = std::string("<[") + tok + "]>";
    const size_t problem = malformedDenseNumber(body);
    if (stop == std::string(tok).size())
      EXPECT_EQ(problem, std::string::npos) << tok;
    else
      EXPECT_EQ(problem, 2 + stop) << tok;
  }
}

}  // namespace
}  // namespace shardscope::ir
