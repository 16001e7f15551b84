// Shardings read from and written to op attributes (ir/sharding_attr_access.h).
#include "ir/sharding_attr_access.h"

#include <gtest/gtest.h>

#include <string>

#include "ir/printer.h"
#include "parse_test_module.h"

namespace shardscope {
namespace {

constexpr const char* kModule = R"(sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>, %arg2: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>, other.key = 7 : i64}) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0:2 = stablehlo.optimization_barrier %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>, <@mesh, [{"b"}, {}]>]>} : tensor<4x8xf32>, tensor<4x8xf32>
  return %0#0, %0#1 : tensor<4x8xf32>, tensor<4x8xf32>
}
)";

const ir::Op& firstOpOf(const ir::Op& func) { return *func.region(0).front().ops().front(); }

TEST(ShardingAttrAccess, PerValueListAnswersEachIndexAndNothingPastIt) {
  auto m = test_support::parseTestModule(kModule);
  ASSERT_TRUE(m);
  const ir::Op& barrier = firstOpOf(*m->functions().front());
  const ir::Attribute* attr = barrier.attr("sdy.sharding");
  ASSERT_TRUE(attr);
  ASSERT_TRUE(ir::valueShardingIn(attr, 0));
  EXPECT_EQ(ir::valueShardingIn(attr, 0)->str(), "#sdy.sharding<@mesh, [{\"a\"}, {}]>");
  EXPECT_EQ(ir::valueShardingIn(attr, 1)->str(), "#sdy.sharding<@mesh, [{\"b\"}, {}]>");
  EXPECT_FALSE(ir::valueShardingIn(attr, 2));
  EXPECT_FALSE(ir::valueShardingIn(nullptr, 0));
}

TEST(ShardingAttrAccess, SingleShardingAnswersIndexZeroOnly) {
  ir::Attribute single(TensorSharding::replicatedOf(MeshRef{"mesh", std::nullopt}, 1, true));
  ASSERT_TRUE(ir::valueShardingIn(&single, 0));
  EXPECT_FALSE(ir::valueShardingIn(&single, 1));
  ir::Attribute notASharding = ir::Attribute::makeDict({});
  EXPECT_FALSE(ir::valueShardingIn(&notASharding, 0));
}

TEST(ShardingAttrAccess, SetEntryGrowsTheListAndKeepsOtherKeys) {
  auto m = test_support::parseTestModule(kModule);
  ASSERT_TRUE(m);
  ir::Op& func = *m->functions().front();
  // Entry 2 has two keys: replacing one keeps the other.
  ir::setEntryInDictList(func, "arg_attrs", 2, 3, "sdy.sharding", ir::Attribute::makeDict({}));
  // res_attrs does not exist: it is made with two empty entries and the key in entry 1.
  ir::setEntryInDictList(func, "res_attrs", 1, 2, "sdy.origin", ir::Attribute::makeDict({}));
  const std::string text = ir::printModule(*m);
  EXPECT_NE(text.find("%arg2: tensor<4x8xf32> {other.key = 7 : i64, sdy.sharding = {}}"), std::string::npos) << text;
  EXPECT_NE(text.find("-> (tensor<4x8xf32>, tensor<4x8xf32> {sdy.origin = {}})"), std::string::npos) << text;
  // A count smaller than the index still reaches the index.
  ir::setEntryInDictList(func, "res_attrs", 3, 0, "k", ir::Attribute::makeDict({}));
  const ir::ArrayAttr* res = func.attr("res_attrs")->array();
  ASSERT_TRUE(res);
  EXPECT_EQ(res->elems.size(), 4u);
}

}  // namespace
}  // namespace shardscope
