// passes::util::transformShardings: every sharding is rewritten, equal ones
// held as one object are rewritten once and keep sharing, and "unchanged"
// (nullopt) leaves the attribute object as it was.
#include "passes/pass_utils.h"

#include <gtest/gtest.h>

#include "parse_test_module.h"

#include "ir/parser.h"
#include "ir/printer.h"

namespace shardscope::passes::util {
namespace {

std::unique_ptr<ir::Module> parse(const std::string& text) { return test_support::parseTestModule(text); }

TEST(TransformShardingsTest, SharedShardingsAreRewrittenOnceAndStayShared) {
  auto m = parse(R"mlir(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  %1 = stablehlo.abs %0 : tensor<8x8xf32>
  %2 = stablehlo.sine %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
)mlir");
  ASSERT_TRUE(m);
  std::vector<ir::Op*> ops;
  for (auto& op : m->functions().front()->region(0).front().ops()) ops.push_back(op.get());
  // Ops 0 and 1 hold one object, as propagation writes equal shardings.
  ir::Attribute shared(TensorShardingPerValue{{TensorSharding::replicatedOf(MeshRef{"mesh", std::nullopt}, 2, false)}});
  ops[0]->setAttr("sdy.sharding", shared);
  ops[1]->setAttr("sdy.sharding", shared);
  const void* sineBefore = &ops[2]->attr("sdy.sharding")->value();

  int calls = 0;
  transformShardings(*m, [&](const TensorSharding& s) -> std::optional<TensorSharding> {
    ++calls;
    if (s.dims.empty() || s.dims[0].closed) return std::nullopt;  // the sine's is closed already
    TensorSharding out = s;
    for (DimensionSharding& d : out.dims) d.closed = true;
    return out;
  });
  EXPECT_EQ(calls, 2);  // the shared object once, the sine's once
  const ir::Attribute* a0 = ops[0]->attr("sdy.sharding");
  const ir::Attribute* a1 = ops[1]->attr("sdy.sharding");
  ASSERT_TRUE(a0 && a1);
  EXPECT_EQ(a0->str(), "#sdy.sharding_per_value<[<@mesh, [{}, {}]>]>");
  EXPECT_EQ(&a0->value(), &a1->value());
  EXPECT_NE(&a0->value(), &shared.value());
  // Unchanged: the very same object stays on the op.
  EXPECT_EQ(&ops[2]->attr("sdy.sharding")->value(), sineBefore);
}

// hasUnreducedAxes reads the sharding where getSharding would copy it from:
// an op's own list, a function argument, a reshard's attribute; a value
// without a sharding has none.
TEST(HasUnreducedAxesTest, FollowsWhereTheShardingIsStored) {
  auto m = parse(R"mlir(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"b"}>},
                %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}], unreduced={"b"}>]>} : tensor<8x8xf32>
  %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : tensor<8x8xf32>
  %2 = sdy.reshard %1 <@mesh, [{}, {}], unreduced={"a"}> : tensor<8x8xf32>
  %3 = stablehlo.add %2, %arg0 : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
)mlir");
  ASSERT_TRUE(m);
  ir::Block& body = m->functions().front()->region(0).front();
  std::vector<ir::Op*> ops;
  for (auto& op : body.ops()) ops.push_back(op.get());
  EXPECT_TRUE(hasUnreducedAxes(body.argument(0)));
  EXPECT_FALSE(hasUnreducedAxes(body.argument(1)));
  EXPECT_TRUE(hasUnreducedAxes(ops[0]->result(0)));
  EXPECT_FALSE(hasUnreducedAxes(ops[1]->result(0)));
  EXPECT_TRUE(hasUnreducedAxes(ops[2]->result(0)));
  EXPECT_FALSE(hasUnreducedAxes(ops[3]->result(0)));
  for (ir::Value* v : {body.argument(0), body.argument(1), ops[0]->result(0), ops[2]->result(0)})
    EXPECT_EQ(hasUnreducedAxes(v), getSharding(v) && !getSharding(v)->unreduced.empty());
}

}  // namespace
}  // namespace shardscope::passes::util
