// The sdy collectives in the IR: read and printed in sdy_opt's custom form,
// and built by passes through collective_ops.h.
#include "ir/collective_ops.h"

#include <gtest/gtest.h>

#include "ir/printer.h"
#include "parse_test_module.h"

using namespace shardscope;

namespace {

const char* kHeader = "sdy.mesh @mesh = <[\"x\"=2, \"y\"=2, \"z\"=4]>\n";

// The op named `name` in the first function of `m`.
ir::Op* findOp(const ir::Module& m, const std::string& name) {
  ir::Op* found = nullptr;
  m.op->walk([&](ir::Op& op) {
    if (!found && op.name() == name) found = &op;
  });
  return found;
}

std::string body(const std::string& line) {
  return std::string(kHeader) +
         "func.func @f(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {\n  %0 = " + line +
         "\n  return %0 : tensor<16x8xf32>\n}\n";
}

class CollectiveRoundTrip : public ::testing::TestWithParam<const char*> {};

// Each form prints back exactly as written (sdy_opt's spelling).
TEST_P(CollectiveRoundTrip, PrintsAsWritten) {
  auto m = test_support::parseTestModule(body(GetParam()));
  ASSERT_TRUE(m);
  std::string printed = ir::printModule(*m);
  EXPECT_NE(printed.find(GetParam()), std::string::npos) << printed;
}

INSTANTIATE_TEST_SUITE_P(
    Collectives, CollectiveRoundTrip,
    ::testing::Values(
        "sdy.all_gather [{}, {\"x\"}] %arg0 out_sharding=<@mesh, [{\"y\"}, {}]> : tensor<16x8xf32>",
        "sdy.all_slice [{\"x\":(1)2}, {}] %arg0 out_sharding=<@mesh, [{\"x\":(1)2}, {}]> : "
        "tensor<16x8xf32>",
        "sdy.all_to_all [{\"x\"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {\"x\"}]> : "
        "tensor<16x8xf32>",
        "sdy.collective_permute %arg0 out_sharding=<@mesh, [{\"y\", ?}, {}]> : tensor<16x8xf32>",
        "sdy.all_reduce {\"y\"} %arg0 out_sharding=<@mesh, [{}, {\"x\"}]> : tensor<16x8xf32>",
        "sdy.all_reduce max {} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<16x8xf32>",
        "sdy.reduce_scatter min [{}, {\"y\"}] %arg0 out_sharding=<@mesh, [{}, {\"y\"}]> : "
        "tensor<16x8xf32>",
        "sdy.sharded_to_unreduced [{\"x\"}, {}] %arg0 out_sharding=<@mesh, [{}, {}], "
        "unreduced={\"x\"}> : tensor<16x8xf32>",
        "sdy.replicated_to_unreduced {\"x\", \"z\"} %arg0 out_sharding=<@mesh, [{}, {}], "
        "unreduced={\"x\", \"z\"}> : tensor<16x8xf32>"));

TEST(CollectiveOps, SumReductionIsTheDefaultAndNotPrinted) {
  auto m = test_support::parseTestModule(
      body("sdy.all_reduce sum {\"y\"} %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<16x8xf32>"));
  ASSERT_TRUE(m);
  ir::Op* op = findOp(*m, "sdy.all_reduce");
  ASSERT_TRUE(op);
  EXPECT_EQ(ir::reductionOpOf(*op), "sum");
  EXPECT_FALSE(op->hasAttr(ir::kReductionOpAttr));
  EXPECT_NE(ir::printModule(*m).find("sdy.all_reduce {\"y\"} %arg0"), std::string::npos);
}

TEST(CollectiveOps, AccessorsReadTheParsedAttributes) {
  auto m = test_support::parseTestModule(body(
      "sdy.all_to_all [{\"x\"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {\"x\"}]> : "
      "tensor<16x8xf32>"));
  ASSERT_TRUE(m);
  ir::Op* op = findOp(*m, "sdy.all_to_all");
  ASSERT_TRUE(op);
  EXPECT_EQ(ir::collectiveKindOf(*op), ir::CollectiveKind::AllToAll);
  const ir::AllToAllParamsAttr* params = ir::allToAllParamsOf(*op);
  ASSERT_TRUE(params);
  ASSERT_EQ(params->params.size(), 1u);
  EXPECT_EQ(params->params[0].srcDim, 0);
  EXPECT_EQ(params->params[0].tgtDim, 1);
  ASSERT_TRUE(ir::outShardingOf(*op));
  EXPECT_EQ(ir::outShardingOf(*op)->dims[1].axes.front().name, "x");
  EXPECT_EQ(ir::axesPerDimOf(*op), nullptr);
}

// A pass builds an all-gather after %arg0's producer: it prints as sdy_opt
// would print the same op written by hand.
TEST(CollectiveOps, BuiltOpsPrintInCustomForm) {
  auto m = test_support::parseTestModule(std::string(kHeader) +
                                         "func.func @f(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> "
                                         "{\n  return %arg0 : tensor<16x8xf32>\n}\n");
  ASSERT_TRUE(m);
  ir::Op* ret = findOp(*m, "func.return");
  ASSERT_TRUE(ret);
  ir::Value* arg = ret->operand(0);
  TensorSharding out;
  out.mesh.name = "mesh";
  out.dims = {DimensionSharding{{AxisRef{"y", std::nullopt}}, true, std::nullopt},
              DimensionSharding{}};
  ir::Op* gather = ret->parentBlock()->insertBefore(
      ret, ir::makeAllGather(arg, {{}, {AxisRef{"x", std::nullopt}}}, out, ret->loc()));
  ret->setOperand(0, gather->result(0));
  ir::Op* reduce = ret->parentBlock()->insertBefore(
      ret, ir::makeAllReduce(gather->result(0), {AxisRef{"z", std::nullopt}}, out, ret->loc(),
                             "max"));
  ret->setOperand(0, reduce->result(0));
  std::string printed = ir::printModule(*m);
  EXPECT_NE(printed.find("%0 = sdy.all_gather [{}, {\"x\"}] %arg0 out_sharding=<@mesh, [{\"y\"}, "
                         "{}]> : tensor<16x8xf32>"),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("%1 = sdy.all_reduce max {\"z\"} %0 out_sharding=<@mesh, [{\"y\"}, {}]> "
                         ": tensor<16x8xf32>"),
            std::string::npos)
      << printed;
}

TEST(CollectiveOps, GenericFormNamesTheAttributes) {
  auto m = test_support::parseTestModule(
      body("sdy.all_gather [{}, {\"x\"}] %arg0 out_sharding=<@mesh, [{\"y\"}, {}]> : "
           "tensor<16x8xf32>"));
  ASSERT_TRUE(m);
  ir::PrintOptions generic;
  generic.genericForm = true;
  std::string printed = ir::printModule(*m, generic);
  EXPECT_NE(printed.find("gathering_axes = #sdy<list_of_axis_ref_lists[{}, {\"x\"}]>"),
            std::string::npos)
      << printed;
}

}  // namespace
