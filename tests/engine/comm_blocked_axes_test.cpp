// The communication report says, for a collective, why the tensor lacking
// its axis did not get it (explain::explainBlockedAxis on the module): in
// the record, the JSON (`cause_detail.blocked`) and the table.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "comm/comm_report.h"
#include "parse_test_module.h"

using namespace shardscope;
using test_support::parseTestModule;

namespace {

comm::CommReport reportOf(const std::string& text) {
  auto m = parseTestModule(text);
  EXPECT_TRUE(m);
  if (!m) return {};
  return comm::analyzeCommunication(*m);
}

// dot_general contracts k: %arg0 shards it on "y", %arg1 (line 4) does not.
std::string dotModule(const std::string& arg1Sharding) {
  return R"(sdy.mesh @m = <["y"=2]>

func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"y"}]>},
                %arg1: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@m, )" +
         arg1Sharding + R"(>}) -> tensor<8x4xf32> {
  %0 = sdy.all_gather [{}, {"y"}] %arg0 out_sharding=<@m, [{}, {}]> : tensor<8x16xf32>
  %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}
)";
}

}  // namespace

TEST(CommBlockedAxes, ClosedArgumentLacksTheGatheredAxis) {
  comm::CommReport r = reportOf(dotModule("[{}, {}]"));
  ASSERT_EQ(r.collectives.size(), 1u);
  const comm::CollectiveCause& c = r.collectives[0].cause;
  EXPECT_EQ(c.factor, "k");
  ASSERT_EQ(c.blocked.size(), 1u);
  EXPECT_EQ(c.blocked[0].value, "%arg1");
  EXPECT_EQ(c.blocked[0].dim, 0);
  EXPECT_EQ(c.blocked[0].block.reason, explain::BlockReason::Closed);
  EXPECT_EQ(c.blocked[0].text(),
            "why not \"y\" on %arg1 dimension 0: closed: dimension 0 of %arg1 is {}, closed "
            "(written without `?`), "
            "so propagation adds no axis to it");

  const nlohmann::json json = nlohmann::json::parse(comm::commReportJson(r));
  const nlohmann::json& blocked = json["collectives"][0]["cause_detail"]["blocked"];
  ASSERT_EQ(blocked.size(), 1u);
  EXPECT_EQ(blocked[0]["value"], "%arg1");
  EXPECT_EQ(blocked[0]["dimension"], 0);
  EXPECT_EQ(blocked[0]["axis"], "\"y\"");
  EXPECT_EQ(blocked[0]["reason"], "closed");

  std::ostringstream table;
  comm::printCommTable(r, table);
  EXPECT_NE(table.str().find("\n    why not \"y\" on %arg1 dimension 0: closed: "),
            std::string::npos)
      << table.str();
}

TEST(CommBlockedAxes, AxisUsedOnTheOtherDimension) {
  comm::CommReport r = reportOf(dotModule("[{?}, {\"y\"}]"));
  ASSERT_EQ(r.collectives.size(), 1u);
  const comm::CollectiveCause& c = r.collectives[0].cause;
  ASSERT_EQ(c.blocked.size(), 1u);
  EXPECT_EQ(c.blocked[0].block.reason, explain::BlockReason::UsedElsewhere);
  EXPECT_EQ(c.blocked[0].block.otherDim, 1);
}

TEST(CommBlockedAxes, FunctionResultReadsLess) {
  // Returned into a function result written [{}, {}]: its dimension 0 is
  // closed, so the "x" of %arg0 is gathered.
  comm::CommReport r = reportOf(R"(sdy.mesh @m = <["x"=4]>

func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) {
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@m, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)");
  ASSERT_EQ(r.collectives.size(), 1u);
  const comm::CollectiveCause& c = r.collectives[0].cause;
  ASSERT_EQ(c.blocked.size(), 1u);
  EXPECT_EQ(c.blocked[0].value, "@main result 0");
  EXPECT_EQ(c.blocked[0].block.reason, explain::BlockReason::Closed);
}

TEST(CommBlockedAxes, NothingWhenNoDimensionStayedUnsharded) {
  // An all-reduce of partial sums: every tensor holds what it should.
  comm::CommReport r = reportOf(R"(sdy.mesh @m = <["x"=2]>

func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {}]>]>} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = sdy.all_reduce {"x"} %0 out_sharding=<@m, [{}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
)");
  ASSERT_EQ(r.collectives.size(), 1u);
  EXPECT_TRUE(r.collectives[0].cause.blocked.empty()) << r.collectives[0].cause.blocked[0].text();
}
