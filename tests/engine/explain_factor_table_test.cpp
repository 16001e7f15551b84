// Tests for engine/explain/factor_table.cpp.
#include "explain/factor_table.h"

#include <gtest/gtest.h>

#include "explain_test_modules.h"

namespace shardscope::explain {
namespace {

ir::Op* findOp(ir::Module& m, const std::string& name) {
  ir::Op* found = nullptr;
  m.op->walk([&](ir::Op& op) {
    if (!found && op.name() == name) found = &op;
  });
  return found;
}

TEST(FactorTableTest, DotGeneralFromOp) {
  auto m = testing::parse(testing::kConflict);
  ASSERT_TRUE(m);
  ir::Op* dot = findOp(*m, "stablehlo.dot_general");
  ASSERT_TRUE(dot);
  std::string error;
  FactorTable t = factorTableForOp(*m, *dot, &error);
  ASSERT_EQ(t.columns.size(), 3u) << error;
  EXPECT_EQ(t.columns[0].title(), "i=8");
  EXPECT_EQ(t.columns[0].kindsText(), "lhs non-contracting, pass-through");
  EXPECT_EQ(t.columns[1].title(), "j=16");
  EXPECT_EQ(t.columns[2].title(), "k=8");
  EXPECT_EQ(t.columns[2].kindsText(), "contracting, reduction");
  EXPECT_EQ(t.columns[2].type, FactorType::Reduction);
  EXPECT_TRUE(t.columns[2].conflict);
  EXPECT_EQ(t.columns[2].conflictReason, "tensors hold incompatible axes for this factor");
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(t.rows[0].value, "%arg0");
  EXPECT_EQ(t.rows[2].tensor, "result-0");
  // Unmapped cells.
  EXPECT_FALSE(t.rows[0].cells[1].mapped);
  EXPECT_FALSE(t.rows[1].cells[0].mapped);
  EXPECT_FALSE(t.rows[2].cells[2].mapped);
  EXPECT_EQ(t.rows[0].cells[2].text(), "{\"a\"}");
  EXPECT_TRUE(t.rows[0].cells[2].conflict);
  EXPECT_TRUE(t.rows[1].cells[2].conflict);
  EXPECT_EQ(t.rows[2].cells[0].text(), "{?}");
  // Compatible major-most axes of i: "c" (the result is open and empty).
  EXPECT_EQ(t.columns[0].compatibleAxes, (AxisRefList{AxisRef{"c", {}}}));
  EXPECT_EQ(t.rows[0].cells[0].compatiblePrefix, 1u);
  EXPECT_EQ(t.text(),
            "    tensor  i=8    j=16  k=8!   replicated\n"
            "T0  %arg0   {\"c\"}  —     {\"a\"}\n"
            "T1  %arg1   —      {}    {\"b\"}\n"
            "T2  %0      {?}    {?}   —\n");
  // The dimension view.
  ASSERT_EQ(t.rows[0].dims.size(), 2u);
  EXPECT_EQ(t.rows[0].dims[1].text(), "{\"a\"}");
  EXPECT_EQ(t.rows[0].dims[1].factors, (std::vector<int64_t>{2}));
  EXPECT_EQ(t.rows[0].dims[1].size, 8);
  EXPECT_EQ(t.text(true),
            "    tensor  d0     d1     replicated\n"
            "T0  %arg0   {\"c\"}  {\"a\"}\n"
            "T1  %arg1   {\"b\"}  {}\n"
            "T2  %0      {?}    {?}\n");
}

TEST(FactorTableTest, ElementwiseAddFromStep) {
  auto r = testing::run(testing::kChain);
  const propagation::TraceStep* add = nullptr;
  for (const auto& s : r.trace.steps)
    if (s.op == "stablehlo.add") add = &s;
  ASSERT_TRUE(add);
  FactorTable after = factorTableForStep(*add, true, r.input->lookupMesh("mesh"));
  ASSERT_EQ(after.columns.size(), 2u);
  EXPECT_EQ(after.columns[0].kindsText(), "pass-through");
  ASSERT_EQ(after.rows.size(), 3u);
  EXPECT_EQ(after.rows[2].cells[0].text(), "{\"a\", ?}");
  EXPECT_TRUE(after.rows[2].cells[0].changed);
  EXPECT_FALSE(after.rows[0].cells[0].changed);
  EXPECT_TRUE(after.rows[2].dims[0].changed);
  EXPECT_EQ(after.meshName, "mesh");
  FactorTable before = factorTableForStep(*add, false);
  EXPECT_EQ(before.rows[2].cells[0].text(), "{?}");
  EXPECT_FALSE(before.rows[2].cells[0].changed);
}

TEST(FactorTableTest, OpWithoutRule) {
  auto m = testing::parse(testing::kChain);
  ASSERT_TRUE(m);
  ir::Op* ret = findOp(*m, "func.return");
  ASSERT_TRUE(ret);
  std::string error;
  FactorTable t = factorTableForOp(*m, *ret, &error);
  EXPECT_TRUE(t.columns.empty());
  EXPECT_FALSE(error.empty());
}

TEST(FactorTableTest, ReplicatedColumn) {
  auto m = testing::parse(R"mlir(
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}], replicated={"b"}>}) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)mlir");
  ASSERT_TRUE(m);
  FactorTable t = factorTableForOp(*m, *findOp(*m, "stablehlo.negate"));
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0].replicated, (AxisRefList{AxisRef{"b", {}}}));
  EXPECT_TRUE(t.rows[1].replicated.empty());
}

}  // namespace
}  // namespace shardscope::explain
