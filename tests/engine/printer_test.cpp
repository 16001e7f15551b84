// Writer golden tests: every `data/ir/*.mlir` file is read and printed, and
// the output must match `*.mlir.expected` byte for byte (what sdy_opt prints).
#include <gtest/gtest.h>

#include <filesystem>

#include "golden.h"
#include "ir/parser.h"
#include "ir/printer.h"

using namespace shardscope;

namespace {

std::vector<std::string> goldenInputs() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(SHARDSCOPE_TEST_DATA_DIR "/ir"))
    if (e.path().extension() == ".mlir") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

class PrinterGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(PrinterGolden, MatchesExpected) {
  std::string text = shardscope::testing::readFile(GetParam());
  ir::DiagnosticSink diags;
  ir::ParseOptions opts;
  opts.fileName = GetParam();
  auto module = ir::parseModule(text, opts, diags);
  ASSERT_NE(module, nullptr) << diags.formatAll(GetParam());
  std::string printed = ir::printModule(*module);
  shardscope::testing::expectMatchesGolden(GetParam() + ".expected", printed);
  // Printing is a fixed point: reading the output back prints the same text.
  ir::DiagnosticSink again;
  auto reparsed = ir::parseModule(printed, opts, again);
  ASSERT_NE(reparsed, nullptr) << again.formatAll("reprinted");
  EXPECT_EQ(ir::printModule(*reparsed), printed);
}

INSTANTIATE_TEST_SUITE_P(Writer, PrinterGolden, ::testing::ValuesIn(goldenInputs()),
                         [](const auto& info) {
                           std::string n = std::filesystem::path(info.param).stem().string();
                           for (char& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

TEST(Writer, GenericFormOption) {
  ir::DiagnosticSink diags;
  auto m = ir::parseModule("func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n  return %a : tensor<2xf32>\n}\n", {},
                           diags);
  ASSERT_NE(m, nullptr);
  ir::PrintOptions generic;
  generic.genericForm = true;
  std::string out = ir::printModule(*m, generic);
  EXPECT_NE(out.find("\"func.return\"(%arg0) : (tensor<2xf32>) -> ()"), std::string::npos) << out;
}

}  // namespace
