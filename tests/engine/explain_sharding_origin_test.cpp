// Tests for engine/explain/sharding_origin.cpp and trace_index.cpp.
#include "explain/sharding_origin.h"

#include <gtest/gtest.h>

#include "explain/trace_index.h"
#include "explain_test_modules.h"

namespace shardscope::explain {
namespace {

using testing::run;

// The reference of value `name` (e.g. "%1") in the index's module.
std::optional<TraceValueRef> refNamed(const TraceIndex& index, const std::string& name) {
  for (const auto& r : index.shardedValues())
    if (index.valueName(r) == name) return r;
  return std::nullopt;
}

TEST(TraceIndexTest, RowsMapToValues) {
  auto r = run(testing::kChain);
  TraceIndex index(*r.input, r.trace);
  ASSERT_FALSE(r.trace.steps.empty());
  for (size_t s = 0; s < r.trace.steps.size(); ++s) {
    const auto& rows = index.rowValues(s);
    ASSERT_EQ(rows.size(), r.trace.steps[s].after.rows.size()) << "step " << s;
    for (size_t i = 0; i < rows.size(); ++i) {
      ASSERT_TRUE(rows[i]) << "step " << s << " row " << i;
      if (!r.trace.steps[s].after.rows[i].value.empty() && rows[i]->kind != "func_result")
        EXPECT_EQ(index.valueName(*rows[i]), r.trace.steps[s].after.rows[i].value);
    }
  }
  auto res = refNamed(index, "@main result 0");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->kind, "func_result");
  EXPECT_FALSE(index.initialSharding(*res));
  auto after = index.shardingAfter(*res, r.trace.steps.size());
  ASSERT_TRUE(after);
  EXPECT_EQ(after->dims[0].axes, (AxisRefList{AxisRef{"a", {}}}));
}

TEST(ShardingOriginTest, ChainBackToFunctionArgument) {
  auto r = run(testing::kChain);
  TraceIndex index(*r.input, r.trace);
  auto v = refNamed(index, "%1");
  ASSERT_TRUE(v);
  DimensionOrigin o = explainDimension(index, *v, 0);
  ASSERT_EQ(o.axes.size(), 1u) << o.text();
  const AxisOrigin& a = o.axes[0];
  EXPECT_EQ(a.axis.name, "a");
  ASSERT_EQ(a.hops.size(), 2u) << o.text();
  EXPECT_EQ(a.hops[0].op, "stablehlo.dot_general");
  EXPECT_EQ(a.hops[0].fromName, "%0");
  EXPECT_EQ(a.hops[0].fromDim, 0);
  EXPECT_EQ(a.hops[0].factorName, "i");
  EXPECT_EQ(a.hops[1].op, "stablehlo.add");
  EXPECT_EQ(a.hops[1].fromName, "%arg0");
  ASSERT_TRUE(a.seed) << o.text();
  EXPECT_EQ(a.seed->kind, SeedKind::FunctionArgument);
  EXPECT_EQ(a.seed->valueName, "%arg0");
  EXPECT_NE(o.text().find("seed: function argument: function argument 0 of @main (%arg0)"), std::string::npos)
      << o.text();

  // Dimension 1 got "b" from %arg1's dimension 1 along j.
  DimensionOrigin o1 = explainDimension(index, *v, 1);
  ASSERT_EQ(o1.axes.size(), 1u);
  ASSERT_EQ(o1.axes[0].hops.size(), 1u);
  EXPECT_EQ(o1.axes[0].hops[0].fromName, "%arg1");
  EXPECT_EQ(o1.axes[0].hops[0].fromDim, 1);
  EXPECT_EQ(o1.axes[0].hops[0].factorKinds, "rhs non-contracting, pass-through");
}

TEST(ShardingOriginTest, FunctionResultComesThroughTheSync) {
  auto r = run(testing::kChain);
  TraceIndex index(*r.input, r.trace);
  auto res = refNamed(index, "@main result 0");
  ASSERT_TRUE(res);
  DimensionOrigin o = explainDimension(index, *res, 0);
  ASSERT_EQ(o.axes.size(), 1u);
  ASSERT_EQ(o.axes[0].hops.size(), 3u) << o.text();
  EXPECT_EQ(o.axes[0].hops[0].op, "func.return");
  ASSERT_TRUE(o.axes[0].seed);
  EXPECT_EQ(o.axes[0].seed->kind, SeedKind::FunctionArgument);
}

TEST(ShardingOriginTest, SeedIsTheValueItself) {
  auto r = run(testing::kChain);
  TraceIndex index(*r.input, r.trace);
  auto v = refNamed(index, "%arg0");
  ASSERT_TRUE(v);
  DimensionOrigin o = explainDimension(index, *v, 0);
  ASSERT_EQ(o.axes.size(), 1u);
  EXPECT_TRUE(o.axes[0].hops.empty());
  ASSERT_TRUE(o.axes[0].seed);
  EXPECT_EQ(o.axes[0].seed->kind, SeedKind::FunctionArgument);
  // An unsharded dimension has no axes.
  DimensionOrigin o1 = explainDimension(index, *v, 1);
  EXPECT_TRUE(o1.axes.empty());
  EXPECT_NE(o1.text().find("replicated"), std::string::npos);
}

TEST(ShardingOriginTest, ShardingConstraintSeedsBothDirections) {
  auto r = run(testing::kConstraint);
  TraceIndex index(*r.input, r.trace);
  for (const char* name : {"%0", "%2"}) {
    auto v = refNamed(index, name);
    ASSERT_TRUE(v) << name;
    DimensionOrigin o = explainDimension(index, *v, 1);
    ASSERT_EQ(o.axes.size(), 1u) << name << "\n" << o.text();
    ASSERT_TRUE(o.axes[0].seed) << o.text();
    EXPECT_EQ(o.axes[0].seed->kind, SeedKind::ShardingConstraint) << o.text();
    EXPECT_EQ(o.axes[0].seed->valueName, "%1");
  }
}

TEST(ShardingOriginTest, BeforeTheStepThereIsNothing) {
  auto r = run(testing::kChain);
  TraceIndex index(*r.input, r.trace);
  auto v = refNamed(index, "%1");
  ASSERT_TRUE(v);
  DimensionOrigin o = explainDimension(index, *v, 0, 0);
  EXPECT_FALSE(o.sharding && !o.sharding->axes.empty());
}

}  // namespace
}  // namespace shardscope::explain

// Every axis of every value of every sample, at every strategy, gets an
// origin: a seed or a note saying why the chain stops. Most reach a seed.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace shardscope::explain {
namespace {

TEST(ShardingOriginTest, EverySampleAxisHasAnOrigin) {
  const std::filesystem::path dir = std::filesystem::path(SHARDSCOPE_SOURCE_DIR) / "sample_models";
  size_t axes = 0, seeds = 0;
  std::string notes;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".mlir") continue;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    for (auto level : {propagation::PropagationLevel::Basic, propagation::PropagationLevel::Aggressive,
                       propagation::PropagationLevel::OpPriority, propagation::PropagationLevel::UserPriority}) {
      ir::DiagnosticSink diags;
      auto input = ir::parseModule(ss.str(), ir::ParseOptions{}, diags);
      auto output = ir::parseModule(ss.str(), ir::ParseOptions{}, diags);
      if (!input || !output || diags.hasErrors()) continue;
      propagation::PropagationOptions o;
      o.level = level;
      propagation::PropagationTrace trace;
      if (!propagation::propagate(*output, o, diags, &trace)) continue;
      TraceIndex index(*input, trace);
      for (const auto& v : index.shardedValues())
        for (const DimensionOrigin& d : explainValue(index, v))
          for (const AxisOrigin& a : d.axes) {
            // SHARDSCOPE_EXPLAIN_DUMP=1 prints every explanation (user-priority runs).
            if (std::getenv("SHARDSCOPE_EXPLAIN_DUMP") && level == propagation::PropagationLevel::UserPriority &&
                &a == &d.axes.front())
              std::cout << entry.path().filename().string() << ": " << d.text();
            ++axes;
            EXPECT_TRUE(a.seed || !a.note.empty()) << entry.path().filename() << " " << d.text();
            if (a.seed) ++seeds;
            else notes += entry.path().filename().string() + ": " + a.note + "\n";
          }
    }
  }
  EXPECT_GT(axes, 50u);
  // Chains that stop early are rare (reported for the record).
  EXPECT_GE(seeds * 10, axes * 9) << notes;
  std::cout << seeds << " of " << axes << " axes traced back to a seed\n" << notes;
}

}  // namespace
}  // namespace shardscope::explain
