// Opening a document: each problem says which stage it comes from (the file,
// the parser, the verifier); binary files are refused as binary.
#include "api/document.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace shardscope::api {
namespace {

namespace fs = std::filesystem;

std::string tempFile(const std::string& name, const std::string& bytes) {
  const fs::path p = fs::temp_directory_path() / ("document_test_" + name);
  std::ofstream(p, std::ios::binary) << bytes;
  return p.string();
}

TEST(Document, AValidModuleHasNoFailedStage) {
  auto doc = loadDocument(tempFile("ok.mlir",
                                   "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
                                   "  return %arg0 : tensor<4xf32>\n}\n"));
  EXPECT_FALSE(doc->hasErrors());
  EXPECT_EQ(doc->failedStage, std::nullopt);
  EXPECT_TRUE(doc->module);
}

struct Case {
  const char* name;
  std::string bytes;  // written to a file; empty: the file does not exist
  LoadStage stage;
  const char* message;  // part of the first diagnostic
};

class Stages : public testing::TestWithParam<Case> {};

TEST_P(Stages, TheErrorSaysWhichStage) {
  const Case& c = GetParam();
  const std::string path = c.bytes.empty()
                               ? (fs::temp_directory_path() / "document_test_missing.mlir").string()
                               : tempFile(std::string(c.name) + ".mlir", c.bytes);
  if (c.bytes.empty()) fs::remove(path);
  auto doc = loadDocument(path);
  ASSERT_TRUE(doc->hasErrors());
  EXPECT_EQ(doc->failedStage, c.stage);
  EXPECT_NE(doc->diagnostics.front().message.find(c.message), std::string::npos)
      << doc->diagnostics.front().message;
  if (c.stage == LoadStage::Read) {
    EXPECT_TRUE(doc->text.empty());  // nothing to show as source, nothing "edited"
    EXPECT_FALSE(doc->module);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Api, Stages,
    testing::Values(
        Case{"Missing", "", LoadStage::Read, "cannot open file"},
        Case{"Executable",
             std::string("\x7f"
                         "ELF\x02\x01\x01\0\0\0module",
                         16),
             LoadStage::Read, "is a binary file (a NUL byte at offset 7)"},
        Case{"Bytecode", std::string("ML\xefR\x06\0", 6), LoadStage::Read, "MLIR bytecode"},
        Case{"Parse",
             "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
             "  %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32\n}\n",
             LoadStage::Parse, "expected"},
        Case{"Verify",
             "sdy.mesh @mesh = <[\"x\"=2]>\n"
             "func.func @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, "
             "[{\"z\"}]>}) -> tensor<4xf32> {\n  return %arg0 : tensor<4xf32>\n}\n",
             LoadStage::Verify, "unknown axis name"}),
    [](const testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

TEST(Document, StageNames) {
  EXPECT_STREQ(loadStageName(LoadStage::Read), "file error");
  EXPECT_STREQ(loadStageName(LoadStage::Parse), "parse error");
  EXPECT_STREQ(loadStageName(LoadStage::Verify), "verifier error");
}

}  // namespace
}  // namespace shardscope::api
