// Tests of `-sdy-import-pipeline` (engine/passes/import_pipeline.h): the
// passes it runs, and what `dedup-functions-fully` adds.
#include "passes/import_pipeline.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ir/parser.h"
#include "ir/printer.h"
#include "passes/pass.h"

namespace shardscope::passes {
namespace {

std::vector<std::string> names(const ImportPipelineOptions& options) {
  std::vector<std::string> out;
  for (const auto& [name, passOptions] : importPipelinePasses(options)) out.push_back(name);
  return out;
}

std::string runPipeline(const std::string& input, const std::string& options) {
  ir::DiagnosticSink diags;
  std::unique_ptr<ir::Module> module = ir::parseModule(input, ir::ParseOptions{}, diags);
  if (!module) return "parse failed:\n" + diags.formatAll("<test>");
  const PassInfo* pipeline = lookupPass("sdy-import-pipeline");
  if (!pipeline) return "not registered";
  PassOptions o;
  std::string error;
  if (!parsePassOptions(options, o, error)) return error;
  PassContext ctx{diags};
  if (!pipeline->run(*module, o, ctx)) return "failed:\n" + diags.formatAll("<test>");
  return ir::printModule(*module);
}

const char kBarrierThenConstraint[] = R"(sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<32x96xf32>) -> tensor<32x96xf32> {
  %0 = stablehlo.optimization_barrier %arg0 : tensor<32x96xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"a"}]> :  tensor<32x96xf32>
  return %1 : tensor<32x96xf32>
}
)";

TEST(ImportPipelineTest, ConservativeModeLeavesConstraintsForLater) {
  EXPECT_EQ(names({}),
            (std::vector<std::string>{
                "symbol-dce", "sdy-lift-inlined-meshes", "sdy-remove-size-one-axes",
                "sdy-propagate-sharding-from-func-to-call", "sdy-constant-or-scalar-splitter",
                "symbol-dce", "sdy-manual-axes-cleanup", "sdy-add-data-flow-edges"}));
}

TEST(ImportPipelineTest, DedupFunctionsFullyAppliesConstraintsAfterTheEdges) {
  ImportPipelineOptions options;
  options.dedupFunctionsFully = true;
  options.enableExplicitGatherScatterBatching = true;
  std::vector<std::string> got = names(options);
  ASSERT_EQ(got.size(), 11u);
  EXPECT_EQ(got[5], "sdy-explicit-gather-scatter-batching");
  EXPECT_EQ(got[8], "sdy-add-data-flow-edges");
  EXPECT_EQ(got[9], "sdy-apply-sharding-constraints");
  EXPECT_EQ(got[10], "sdy-sharding-group-import");
}

// The constraint's input is the barrier's data-flow edge, which a constraint
// never shards: the edge stays unsharded either way, but only the dedup mode
// ran the constraint pass (it would have sharded a plain op's result).
TEST(ImportPipelineTest, RunsByItsRegisteredName) {
  const std::string out = runPipeline(kBarrierThenConstraint, "dedup-functions-fully=true");
  EXPECT_NE(out.find("%1 = sdy.data_flow_edge %0 : tensor<32x96xf32>\n"
                     "    %2 = sdy.sharding_constraint %1 <@mesh, [{}, {\"a\"}]>"),
            std::string::npos)
      << out;
}

TEST(ImportPipelineTest, DedupModeShardsTheInputOfAConstraint) {
  const char* input = R"(sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<32x96xf32>) -> tensor<32x96xf32> {
  %0 = stablehlo.abs %arg0 : tensor<32x96xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"a"}]> :  tensor<32x96xf32>
  return %1 : tensor<32x96xf32>
}
)";
  const std::string dedup = runPipeline(input, "dedup-functions-fully=true");
  EXPECT_NE(dedup.find("stablehlo.abs %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, "
                       "[{}, {\"a\"}]>]>}"),
            std::string::npos)
      << dedup;
  const std::string conservative = runPipeline(input, "");
  EXPECT_EQ(conservative.find("stablehlo.abs %arg0 {sdy.sharding"), std::string::npos)
      << conservative;
}

}  // namespace
}  // namespace shardscope::passes
