// Module dumps (`module-dump-directory`, `dump-directory`): the files Shardy
// writes at each point of the pipelines, with their indices, and a dump
// that cannot be written is a warning, not a failure.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "ir/parser.h"
#include "ir/printer.h"
#include "passes/module_dump.h"
#include "passes/pass.h"

namespace shardscope::passes {
namespace {

namespace fs = std::filesystem;

const char* kPriorities = R"(sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}p0, {}]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}p1]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
)";

struct PassRun {
  std::string printed;
  std::string diagnostics;
  bool ok = false;
};

PassRun runPass(const std::string& name, const std::string& optionText) {
  PassRun r;
  ir::DiagnosticSink diags;
  std::unique_ptr<ir::Module> module = ir::parseModule(kPriorities, ir::ParseOptions{}, diags);
  if (!module) return r;
  PassOptions options;
  std::string error;
  EXPECT_TRUE(parsePassOptions(optionText, options, error)) << error;
  PassContext ctx{diags};
  r.ok = lookupPass(name)->run(*module, options, ctx) && !diags.hasErrors();
  r.printed = ir::printModule(*module);
  r.diagnostics = diags.formatAll("<test>");
  return r;
}

std::vector<std::string> filesIn(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string readFile(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path freshDir(const std::string& name) {
  fs::path dir = fs::path(::testing::TempDir()) / name;
  fs::remove_all(dir);
  return dir;
}

TEST(ModuleDump, PropagationPipelineWritesShardysFiles) {
  const fs::path dir = freshDir("shardscope_dump_pipeline");
  PassRun run = runPass("sdy-propagation-pipeline",
                    "module-dump-directory=" + dir.string() +
                        " enable-inserting-explicit-collectives=true");
  ASSERT_TRUE(run.ok) << run.diagnostics;
  EXPECT_EQ(filesIn(dir), (std::vector<std::string>{
                              "01.before_propagation.mlir",
                              "02.after_propagation.mlir",
                              "02.propagation_after_user_priority_0.mlir",
                              "03.after_explicit_reshards.mlir",
                              "04.after_partitioner_with_global_shapes.mlir"}));
  // Each dump reads back; after priority 0 the dot has "a" but not yet
  // priority 1's "b"; the last dump is the result before the sharding rules
  // are dropped.
  for (const std::string& f : filesIn(dir)) {
    ir::DiagnosticSink diags;
    EXPECT_TRUE(ir::parseModule(readFile(dir / f), ir::ParseOptions{}, diags)) << f;
  }
  const std::string afterP0 = readFile(dir / "02.propagation_after_user_priority_0.mlir");
  EXPECT_NE(afterP0.find(R"(<@mesh, [{"a", ?}, {?}]>)"), std::string::npos) << afterP0;
  EXPECT_EQ(afterP0.find("sdy.all_gather"), std::string::npos) << afterP0;
  const std::string last = readFile(dir / "04.after_partitioner_with_global_shapes.mlir");
  EXPECT_NE(last.find("sdy.all_gather"), std::string::npos) << last;
  EXPECT_NE(last.find("sdy.sharding_rule"), std::string::npos) << last;
  EXPECT_EQ(run.printed.find("sdy.sharding_rule"), std::string::npos) << run.printed;
  fs::remove_all(dir);
}

TEST(ModuleDump, WithoutCollectivesTheMinimalPartitionerIsDumped) {
  const fs::path dir = freshDir("shardscope_dump_minimal");
  PassRun run = runPass("sdy-propagation-pipeline", "module-dump-directory=" + dir.string());
  ASSERT_TRUE(run.ok) << run.diagnostics;
  EXPECT_EQ(filesIn(dir).back(), "03.after_minimal_partitioner_with_global_shapes.mlir");
  fs::remove_all(dir);
}

TEST(ModuleDump, StandalonePassesCountFromZero) {
  const fs::path dir = freshDir("shardscope_dump_standalone");
  PassRun run = runPass("sdy-user-priority-propagate", "module-dump-directory=" + dir.string());
  ASSERT_TRUE(run.ok) << run.diagnostics;
  EXPECT_EQ(filesIn(dir), (std::vector<std::string>{"00.propagation_after_user_priority_0.mlir"}));
  fs::remove_all(dir);
  PassRun exported = runPass("sdy-export-pipeline", "dump-directory=" + dir.string());
  ASSERT_TRUE(exported.ok) << exported.diagnostics;
  EXPECT_EQ(filesIn(dir), (std::vector<std::string>{
                              "00.after_propagation.mlir",
                              "01.after_minimal_partitioner_with_global_shapes.mlir"}));
  fs::remove_all(dir);
}

TEST(ModuleDump, AnUnwritableDirectoryWarnsAndThePipelineGoesOn) {
  PassRun run = runPass("sdy-propagation-pipeline", "module-dump-directory=/dev/null/dumps");
  EXPECT_TRUE(run.ok) << run.diagnostics;
  EXPECT_NE(run.diagnostics.find("warning: error when writing file /dev/null/dumps/01.before_propagation.mlir"),
            std::string::npos)
      << run.diagnostics;
  PassRun plain = runPass("sdy-propagation-pipeline", "");
  EXPECT_EQ(plain.printed, run.printed);
}

TEST(ModuleDump, IndexPrefixHasTwoDigits) {
  EXPECT_EQ(dumpIndexPrefix(1), "01");
  EXPECT_EQ(dumpIndexPrefix(12), "12");
}

}  // namespace
}  // namespace shardscope::passes
