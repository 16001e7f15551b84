// `-sdy-insert-explicit-reshards` (unreduced part): an all-reduce appears
// before consumers that need the full value, and element-wise consumers that
// keep the axes unreduced delay it.
#include <gtest/gtest.h>

#include "ir/parser.h"
#include "ir/printer.h"
#include "passes/import_passes.h"

using namespace shardscope;

namespace {

std::string run(const std::string& text) {
  ir::DiagnosticSink diags;
  auto m = ir::parseModule(text, {}, diags);
  EXPECT_NE(m, nullptr) << diags.formatAll("t");
  if (!m) return {};
  EXPECT_TRUE(passes::insertExplicitReshards(*m, diags));
  return ir::printModule(*m);
}

const char* kHeader = "sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n";

TEST(InsertExplicitReshards, ReducesBeforeAReshardThatDropsTheAxes) {
  std::string out = run(std::string(kHeader) +
                        "func.func @f(%x: tensor<8x8xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {\n"
                        "  %0 = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] {sdy.sharding = "
                        "#sdy.sharding_per_value<[<@mesh, [{\"a\"}, {}], unreduced={\"b\"}>]>} : "
                        "(tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>\n"
                        "  %1 = sdy.reshard %0 <@mesh, [{\"a\"}, {}]> : tensor<8x16xf32>\n"
                        "  return %1 : tensor<8x16xf32>\n}\n");
  EXPECT_NE(out.find("%1 = sdy.all_reduce {\"b\"} %0 out_sharding=<@mesh, [{\"a\"}, {}]> : tensor<8x16xf32>"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("%2 = sdy.reshard %1"), std::string::npos) << out;
}

TEST(InsertExplicitReshards, ElementwiseConsumerKeepingTheAxesDelaysTheReduction) {
  std::string out = run(std::string(kHeader) +
                        "func.func @f(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {\n"
                        "  %0 = stablehlo.negate %x {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], "
                        "unreduced={\"b\"}>]>} : tensor<8x16xf32>\n"
                        "  %1 = stablehlo.add %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], "
                        "unreduced={\"b\"}>]>} : tensor<8x16xf32>\n"
                        "  return %1 : tensor<8x16xf32>\n}\n");
  // Only the return needs the full value: one all-reduce, after the add.
  EXPECT_EQ(out.find("sdy.all_reduce"), out.rfind("sdy.all_reduce")) << out;
  EXPECT_LT(out.find("stablehlo.add"), out.find("sdy.all_reduce")) << out;
}

}  // namespace
