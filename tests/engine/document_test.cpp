// Opening a document: each problem says which stage it comes from (the file,
// the parser, the verifier); binary files are refused as binary.
#include "api/document.h"

#include <gtest/gtest.h>

#include "api/staged_load.h"
#include "ir/parser.h"

#include <algorithm>
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

// A module of `ops` chained adds inside @main (a few thousand ops per progress call).
std::string chainModule(int ops) {
  std::string text = "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n";
  std::string prev = "%arg0";
  for (int i = 0; i < ops; ++i) {
    const std::string v = "%v" + std::to_string(i);
    text += "  " + v + " = stablehlo.add " + prev + ", " + prev + " : tensor<8xf32>\n";
    prev = v;
  }
  return text + "  return " + prev + " : tensor<8xf32>\n}\n";
}

TEST(Document, ProgressRisesToTheWholeOpen) {
  const std::string path = tempFile("progress.mlir", chainModule(5 * ir::kOpsPerProgressCall));
  std::vector<double> seen;
  const LoadProgress progress{[&](double f) { seen.push_back(f); }, [] { return false; }};
  auto doc = loadDocument(path, &progress);
  ASSERT_TRUE(doc->module);
  EXPECT_FALSE(doc->cancelled);
  // Reading, at least one report per kOpsPerProgressCall ops while parsing, verifying, done.
  ASSERT_GE(seen.size(), 5u + 3u);
  EXPECT_EQ(seen.front(), 0.0);
  EXPECT_EQ(seen.back(), 1.0);
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  // The parse reports are by bytes: strictly between reading and verifying.
  EXPECT_GT(seen[2], seen[1]);
  EXPECT_LT(seen[seen.size() - 3], seen[seen.size() - 2]);
}

// Cancel answered at the first check of each stage: never half a document.
class Cancel : public testing::TestWithParam<int> {};

TEST_P(Cancel, AStoppedOpenGivesNoModuleAndSaysSo) {
  const std::string path = tempFile("cancel.mlir", chainModule(3 * ir::kOpsPerProgressCall));
  int calls = 0;
  const int stopAt = GetParam();  // the check that says stop
  const LoadProgress progress{[](double) {}, [&] { return ++calls >= stopAt; }};
  auto doc = loadDocument(path, &progress);
  EXPECT_TRUE(doc->cancelled);
  EXPECT_FALSE(doc->module);
  EXPECT_TRUE(doc->text.empty());
  EXPECT_FALSE(doc->hasErrors());
  EXPECT_EQ(doc->failedStage, std::nullopt);
  ASSERT_EQ(doc->diagnostics.size(), 1u);
  EXPECT_EQ(doc->diagnostics[0].message, ir::kReadCancelled);
  EXPECT_EQ(calls, stopAt);  // nothing asked after the stop
}
// 1: before parsing; 2, 3: in the reader's loop; 5: after the parse (the
// chain has 3 checks in the reader at 4096, 8192, 12288 ops).
INSTANTIATE_TEST_SUITE_P(Document, Cancel, testing::Values(1, 2, 3, 5));

TEST(Document, ReaderStopsWithinOneCheckInterval) {
  const std::string text = chainModule(4 * ir::kOpsPerProgressCall);
  ir::DiagnosticSink sink;
  ir::ParseOptions opts;
  size_t stoppedAt = 0;
  opts.progress = [&](size_t consumed, size_t total) {
    EXPECT_EQ(total, text.size());
    stoppedAt = consumed;
    return false;
  };
  EXPECT_FALSE(ir::parseModule(text, opts, sink));
  ASSERT_EQ(sink.all().size(), 1u);
  EXPECT_EQ(sink.all()[0].message, ir::kReadCancelled);
  // Stopped before the op after the first kOpsPerProgressCall ones.
  EXPECT_GT(stoppedAt, 0u);
  EXPECT_LT(stoppedAt, text.size() / 2);
  // The check before the kOpsPerProgressCall-th op (the function is the
  // first; add number k is on line 1 + k) stops at the start of its line.
  EXPECT_EQ(sink.all()[0].loc.line, uint32_t(ir::kOpsPerProgressCall));
}

TEST(Document, StageNames) {
  EXPECT_STREQ(loadStageName(LoadStage::Read), "file error");
  EXPECT_STREQ(loadStageName(LoadStage::Parse), "parse error");
  EXPECT_STREQ(loadStageName(LoadStage::Verify), "verifier error");
}

// A verifier error in an attribute is placed at what is wrong in it,
// although the module is read without attribute sites: the text is read
// again with them once the verifier fails (document.cpp). The module kept
// is the first reading's, the one AfterParse::parsed was given.
struct PlacedCase {
  const char* name;
  std::string text;
  std::string at;  // the error's place: the first occurrence of this text
  const char* message;
};
class PlacedAtTheAttribute : public testing::TestWithParam<PlacedCase> {};

TEST_P(PlacedAtTheAttribute, FromTheSecondReading) {
  const PlacedCase& c = GetParam();
  const std::string path = tempFile(std::string("placed_") + c.name + ".mlir", c.text);
  const ir::Module* parsedModule = nullptr;
  AfterParse after;
  after.parsed = [&](const std::shared_ptr<const Document>& doc) { parsedModule = doc->module.get(); };
  auto doc = loadDocument(path, nullptr, after);
  fs::remove(path);
  ASSERT_TRUE(doc->module);
  EXPECT_EQ(doc->module.get(), parsedModule);
  ASSERT_EQ(doc->failedStage, LoadStage::Verify);
  auto isError = [](const ir::Diagnostic& d) { return d.severity == ir::Severity::Error; };
  EXPECT_EQ(std::count_if(doc->diagnostics.begin(), doc->diagnostics.end(), isError), 1);
  const auto error = std::find_if(doc->diagnostics.begin(), doc->diagnostics.end(), isError);
  ASSERT_NE(error, doc->diagnostics.end());
  EXPECT_NE(error->message.find(c.message), std::string::npos) << error->message;
  const size_t at = c.text.find(c.at);
  ASSERT_NE(at, std::string::npos);
  const size_t lineStart = c.text.rfind('\n', at) + 1;  // npos + 1 = 0 on the first line
  EXPECT_EQ(error->loc.line, 1u + std::count(c.text.begin(), c.text.begin() + static_cast<long>(at), '\n'));
  EXPECT_EQ(error->loc.col, at - lineStart + 1) << error->message;
}

INSTANTIATE_TEST_SUITE_P(
    Document, PlacedAtTheAttribute,
    testing::Values(
        PlacedCase{"UnknownAxis",
                   "sdy.mesh @mesh = <[\"x\"=2]>\n"
                   "func.func @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, "
                   "[{\"z\"}]>}) -> tensor<4xf32> {\n  return %arg0 : tensor<4xf32>\n}\n",
                   "\"z\"", "unknown axis name"},
        PlacedCase{"RankOfAnOpSharding",
                   "sdy.mesh @mesh = <[\"x\"=2]>\n"
                   "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
                   "  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, "
                   "[{\"x\"}, {}]>]>} : tensor<4xf32>\n"
                   "  return %0 : tensor<4xf32>\n}\n",
                   "<@mesh, [{", "rank"},
        PlacedCase{"UnknownMesh",
                   "sdy.mesh @mesh = <[\"x\"=2]>\n"
                   "func.func @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@other, "
                   "[{\"x\"}]>}) -> tensor<4xf32> {\n  return %arg0 : tensor<4xf32>\n}\n",
                   "@other", "mesh"}),
    [](const testing::TestParamInfo<PlacedCase>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace shardscope::api
