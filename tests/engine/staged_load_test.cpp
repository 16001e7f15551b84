// Opening a document in stages (api/staged_load.h): work started on the
// parsed module runs beside the verifier, and is told to finish before the
// GSPMD import changes the module.
#include "api/staged_load.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace shardscope::api {
namespace {

namespace fs = std::filesystem;

std::string tempFile(const std::string& name, const std::string& bytes) {
  const fs::path p = fs::temp_directory_path() / ("staged_load_test_" + name);
  std::ofstream(p, std::ios::binary) << bytes;
  return p.string();
}

// What the hooks saw, in order.
struct Seen {
  std::vector<std::string> events;
  const Document* parsed = nullptr;
  bool moduleAtParse = false;
  bool verifiedAtParse = true;  // diagnostics already there when parsed ran
  std::string textAtRead;
  bool moduleAtRead = true;
};

AfterParse recording(Seen& seen) {
  AfterParse after;
  after.read = [&seen](const std::shared_ptr<const Document>& doc) {
    seen.events.push_back("read");
    seen.textAtRead = doc->text;
    seen.moduleAtRead = doc->module != nullptr;
  };
  after.parsed = [&seen](const std::shared_ptr<const Document>& doc) {
    seen.events.push_back("parsed");
    seen.parsed = doc.get();
    seen.moduleAtParse = doc->module != nullptr;
    seen.verifiedAtParse = !doc->diagnostics.empty();
  };
  after.beforeChange = [&seen] { seen.events.push_back("beforeChange"); };
  return after;
}

struct Case {
  const char* name;
  std::string text;
  std::vector<std::string> events;  // expected hook calls
  bool errors;                      // the document has errors
};

class StagedLoad : public testing::TestWithParam<Case> {};

TEST_P(StagedLoad, HooksSeeTheParsedModuleOnce) {
  const Case& c = GetParam();
  Seen seen;
  auto doc = loadDocument(tempFile(std::string(c.name) + ".mlir", c.text), nullptr, recording(seen));
  // The text is read first, whatever the parse makes of it: it is in the
  // document, final, and there is no module yet.
  std::vector<std::string> expected{"read"};
  expected.insert(expected.end(), c.events.begin(), c.events.end());
  EXPECT_EQ(seen.events, expected);
  EXPECT_EQ(seen.textAtRead, c.text);
  EXPECT_EQ(seen.textAtRead, doc->text);
  EXPECT_FALSE(seen.moduleAtRead);
  EXPECT_EQ(doc->hasErrors(), c.errors);
  if (!c.events.empty()) {
    // The very document returned, with its module, before the verifier's
    // diagnostics were filled in.
    EXPECT_EQ(seen.parsed, doc.get());
    EXPECT_TRUE(seen.moduleAtParse);
    EXPECT_FALSE(seen.verifiedAtParse);
  }
}

const char* const kValid =
    "sdy.mesh @mesh = <[\"x\"=2]>\n"
    "func.func @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}]>}) -> tensor<4xf32> {\n"
    "  %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>\n"
    "  return %0 : tensor<4xf32>\n}\n";
// GSPMD shardings and no sdy mesh: imported on open, after the verifier.
const char* const kGspmd =
    "func.func @main(%arg0: tensor<8x4xf32> {mhlo.sharding = \"{devices=[2,1]<=[2]}\"}) -> tensor<8x4xf32> {\n"
    "  %0 = stablehlo.add %arg0, %arg0 : tensor<8x4xf32>\n"
    "  return %0 : tensor<8x4xf32>\n}\n";
// Parses, but names an axis the mesh does not have.
const char* const kUnverified =
    "sdy.mesh @mesh = <[\"x\"=2]>\n"
    "func.func @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"z\"}]>}) -> tensor<4xf32> {\n"
    "  return %arg0 : tensor<4xf32>\n}\n";

INSTANTIATE_TEST_SUITE_P(
    Document, StagedLoad,
    testing::Values(Case{"valid", kValid, {"parsed"}, false},
                    Case{"gspmd", kGspmd, {"parsed", "beforeChange"}, false},
                    // The module exists: work on it may start; the verifier's
                    // errors follow in the document.
                    Case{"unverified", kUnverified, {"parsed"}, true},
                    // No module: nothing to start.
                    Case{"unparsable", "func.func @main( {\n", {}, true}),
    [](const testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

TEST(StagedLoad, GspmdImportChangesTheModuleOnlyAfterBeforeChange) {
  // What a caller's work would have read at parse time is stale after the
  // import: the argument had no sdy sharding then and has one now.
  bool hadShardingAtParse = true, hadShardingBeforeChange = true;
  const Document* doc = nullptr;
  AfterParse after;
  after.parsed = [&](const std::shared_ptr<const Document>& d) {
    doc = d.get();
    hadShardingAtParse = valueSharding(*d->module->functions().front()->region(0).front().argument(0))
                             .has_value();
  };
  after.beforeChange = [&] {
    hadShardingBeforeChange =
        valueSharding(*doc->module->functions().front()->region(0).front().argument(0)).has_value();
  };
  auto loaded = loadDocument(tempFile("gspmd_change.mlir", kGspmd), nullptr, after);
  ASSERT_TRUE(loaded->module);
  EXPECT_FALSE(hadShardingAtParse);
  EXPECT_FALSE(hadShardingBeforeChange);
  EXPECT_FALSE(loaded->gspmdImportNote.empty());
  EXPECT_TRUE(valueSharding(*loaded->module->functions().front()->region(0).front().argument(0))
                  .has_value());
}

TEST(StagedLoad, AnUnreadableFileCallsNoHook) {
  Seen seen;
  auto doc = loadDocument((fs::temp_directory_path() / "staged_load_test_missing.mlir").string(),
                          nullptr, recording(seen));
  EXPECT_EQ(doc->failedStage, LoadStage::Read);
  EXPECT_TRUE(seen.events.empty());
}

TEST(StagedLoad, CancelledBeforeTheParseCallsNoHook) {
  Seen seen;
  const LoadProgress stop{nullptr, [] { return true; }};
  auto doc = loadDocument(tempFile("cancel.mlir", kValid), &stop, recording(seen));
  EXPECT_TRUE(doc->cancelled);
  EXPECT_TRUE(seen.events.empty());
}

}  // namespace
}  // namespace shardscope::api
