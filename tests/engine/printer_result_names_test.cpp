// Result naming in the writer for ops that give each of their results its own
// name (stablehlo.rng_bit_generator): `%output_state, %output = ...`, whatever
// names the source used, made unique like any other name hint.
#include <gtest/gtest.h>

#include <string>

#include "ir/parser.h"
#include "ir/printer.h"

using namespace shardscope;

namespace {

std::string roundTrip(const std::string& text) {
  ir::DiagnosticSink diags;
  auto m = ir::parseModule(text, {}, diags);
  EXPECT_NE(m, nullptr) << diags.formatAll("input");
  return m ? ir::printModule(*m) : std::string();
}

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

TEST(WriterResultNames, RngBitGeneratorNamesEachResult) {
  std::string out = roundTrip(
      "func.func @f(%seed: tensor<2xui64>) -> (tensor<3x5xui32>, tensor<2xui64>) {\n"
      "  %s, %bits = stablehlo.rng_bit_generator %seed, algorithm =  DEFAULT"
      " : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x5xui32>)\n"
      "  return %bits, %s : tensor<3x5xui32>, tensor<2xui64>\n"
      "}\n");
  EXPECT_TRUE(contains(out, "%output_state, %output = stablehlo.rng_bit_generator %arg0")) << out;
  EXPECT_TRUE(contains(out, "return %output, %output_state :")) << out;
  EXPECT_FALSE(contains(out, "%0:2")) << out;
}

TEST(WriterResultNames, NamedResultsDoNotConsumeNumbersAndStayUnique) {
  std::string out = roundTrip(
      "func.func @f(%seed: tensor<2xui64>) -> (tensor<4xui32>, tensor<4xui32>, tensor<2xui64>) {\n"
      "  %a, %b = stablehlo.rng_bit_generator %seed, algorithm =  DEFAULT"
      " : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)\n"
      "  %n = stablehlo.negate %b : tensor<4xui32>\n"
      "  %c, %d = stablehlo.rng_bit_generator %a, algorithm =  DEFAULT"
      " : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)\n"
      "  return %n, %d, %c : tensor<4xui32>, tensor<4xui32>, tensor<2xui64>\n"
      "}\n");
  EXPECT_TRUE(contains(out, "%output_state, %output = stablehlo.rng_bit_generator %arg0")) << out;
  EXPECT_TRUE(contains(out, "%0 = stablehlo.negate %output")) << out;
  EXPECT_TRUE(contains(out, "%output_state_0, %output_1 = stablehlo.rng_bit_generator %output_state,")) << out;
  EXPECT_TRUE(contains(out, "return %0, %output_1, %output_state_0 :")) << out;
  // Reading the printed text back prints the same text.
  EXPECT_EQ(roundTrip(out), out);
}

}  // namespace
