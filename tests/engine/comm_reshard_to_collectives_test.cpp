// -sdy-reshard-to-collectives on small modules: which ops replace each
// reshard and the sharding after each (read through getSharding, whatever
// the attribute spelling).
#include <gtest/gtest.h>

#include "parse_test_module.h"
#include "passes/pass_utils.h"
#include "passes/reshard_to_collectives.h"

using namespace shardscope;
using test_support::parseTestModule;

namespace {

struct Step {
  std::string op;
  std::string sharding;  // body: <@mesh, [...]>
  bool operator==(const Step&) const = default;
};
std::ostream& operator<<(std::ostream& os, const Step& s) { return os << s.op << " " << s.sharding; }

// The chain of ops from @main's returned value back to the argument.
std::vector<Step> chainOfMain(ir::Module& m) {
  ir::Op* main = passes::util::mainFunction(m);
  ir::Value* v = main->region(0).front().terminator()->operand(0);
  std::vector<Step> steps;
  while (v->definingOp) {
    auto s = passes::util::getSharding(v);
    steps.insert(steps.begin(), Step{v->definingOp->name(), s ? s->strBody() : "none"});
    v = v->definingOp->operand(0);
  }
  return steps;
}

std::unique_ptr<ir::Module> lowered(const std::string& argSharding, const std::string& target,
                                    const std::string& type = "tensor<16x8xf32>", bool keep = false) {
  auto m = parseTestModule("sdy.mesh @mesh = <[\"x\"=2, \"y\"=2, \"z\"=2]>\n"
                           "sdy.mesh @mesh_reordered = <[\"x\"=2, \"y\"=2, \"z\"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>\n"
                           "func.func @main(%arg0: " + type + " {sdy.sharding = #sdy.sharding<" + argSharding +
                           ">}) -> " + type + " {\n"
                           "  %0 = sdy.reshard %arg0 " + target + " : " + type + "\n"
                           "  return %0 : " + type + "\n}\n");
  ir::DiagnosticSink diags;
  EXPECT_TRUE(passes::reshardToCollectives(*m, diags, {keep}));
  return m;
}

}  // namespace

TEST(ReshardToCollectives, GatherSliceAndMove) {
  auto m = lowered(R"(@mesh, [{"x"}, {"y"}])", R"(<@mesh, [{"x"}, {}]>)");
  EXPECT_EQ(chainOfMain(*m), (std::vector<Step>{{"sdy.all_gather", R"(<@mesh, [{"x"}, {}]>)"}}));
  m = lowered(R"(@mesh, [{"x"}, {}])", R"(<@mesh, [{"x"}, {"y"}]>)");
  EXPECT_EQ(chainOfMain(*m), (std::vector<Step>{{"sdy.all_slice", R"(<@mesh, [{"x"}, {"y"}]>)"}}));
  m = lowered(R"(@mesh, [{"x"}, {}])", R"(<@mesh, [{}, {"x"}]>)");
  EXPECT_EQ(chainOfMain(*m), (std::vector<Step>{{"sdy.all_to_all", R"(<@mesh, [{}, {"x"}]>)"}}));
}

// The reference's example: slice "y", permute to put "x" first, then move
// "y" and "z" to dimension 0 in one all-to-all.
TEST(ReshardToCollectives, SlicePermuteAllToAll) {
  auto m = lowered(R"(@mesh, [{}, {"x", "z"}])", R"(<@mesh, [{"x", "y", "z"}, {}]>)", "tensor<4x10xf32>");
  EXPECT_EQ(chainOfMain(*m), (std::vector<Step>{{"sdy.all_slice", R"(<@mesh, [{"y"}, {"x", "z"}]>)"},
                                                {"sdy.collective_permute", R"(<@mesh, [{"x"}, {"y", "z"}]>)"},
                                                {"sdy.all_to_all", R"(<@mesh, [{"x", "y", "z"}, {}]>)"}}));
}

TEST(ReshardToCollectives, RedundantReshardsAreErasedUnlessKept) {
  auto m = lowered(R"(@mesh, [{"x"}, {"y"}])", R"(<@mesh, [{"x", ?}, {"y", ?}]>)");
  EXPECT_TRUE(chainOfMain(*m).empty());
  m = lowered(R"(@mesh, [{"x"}, {"y"}])", R"(<@mesh, [{"x"}, {"y"}]>)", "tensor<16x8xf32>", /*keep=*/true);
  EXPECT_EQ(chainOfMain(*m), (std::vector<Step>{{"sdy.reshard", R"(<@mesh, [{"x"}, {"y"}]>)"}}));
}

TEST(ReshardToCollectives, OtherDeviceOrderIsAPermute) {
  auto m = lowered(R"(@mesh, [{"x"}, {}])", R"(<@mesh_reordered, [{"x"}, {}]>)");
  EXPECT_EQ(chainOfMain(*m),
            (std::vector<Step>{{"sdy.collective_permute", R"(<@mesh_reordered, [{"x"}, {}]>)"}}));
}
