// The communication report: records, bytes, causes and totals of small
// modules, computed by hand.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "comm/comm_report.h"
#include "parse_test_module.h"
#include "passes/explicit_reshards/explicit_reshards_pass.h"
#include "passes/reshard_to_collectives.h"

using namespace shardscope;
using test_support::parseTestModule;

namespace {

comm::CommReport reportOf(ir::Module& m) {
  comm::CommOptions options;
  options.chip = *comm::findChip(comm::builtinChips(), "tpu-v5p");
  return comm::analyzeCommunication(m, options);
}

const char* kGatherModule = R"(sdy.mesh @mesh = <["x"=4]>

func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<8x8xf32>
  %1 = stablehlo.add %0, %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
)";

}  // namespace

// The issue's example, as a reshard (planned) and as the all-gather the pass
// makes of it: 3/4 of the 256-byte tensor arrives at every device.
TEST(CommReport, AllGatherOfEightByEightReceives192BytesPerDevice) {
  auto m = parseTestModule(kGatherModule);
  ASSERT_TRUE(m);
  for (bool lowered : {false, true}) {
    if (lowered) {
      ir::DiagnosticSink diags;
      ASSERT_TRUE(passes::reshardToCollectives(*m, diags));
    }
    comm::CommReport r = reportOf(*m);
    ASSERT_EQ(r.collectives.size(), 1u) << lowered;
    const comm::CollectiveRecord& c = r.collectives[0];
    EXPECT_EQ(c.kind, passes::CollectiveKind::AllGather);
    EXPECT_EQ(c.planned, !lowered);
    EXPECT_EQ(c.op, lowered ? "sdy.all_gather" : "sdy.reshard");
    EXPECT_EQ(c.axes, (AxisRefList{AxisRef{"x", std::nullopt}}));
    EXPECT_EQ(c.groupSize, 4);
    EXPECT_EQ(c.elementType, "f32");
    EXPECT_EQ(c.globalShape, (std::vector<int64_t>{8, 8}));
    EXPECT_EQ(c.inShape, (std::vector<int64_t>{2, 8}));
    EXPECT_EQ(c.outShape, (std::vector<int64_t>{8, 8}));
    EXPECT_DOUBLE_EQ(c.bytesPerDevice, 192);
    EXPECT_DOUBLE_EQ(c.seconds, 192 / 600e9);  // v5p: 1200 GB/s both ways
    EXPECT_EQ(c.value, "%0");
    EXPECT_EQ(c.function, "@main");
    EXPECT_EQ(c.line, 4u);
    EXPECT_EQ(r.total.count, 1);
    EXPECT_DOUBLE_EQ(r.total.bytesPerDevice, 192);
  }
}

TEST(CommReport, CauseNamesTheFactorAndBothOrigins) {
  auto m = parseTestModule(R"(sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %arg1: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<8x4xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<8x16xf32>
  %1 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}
)");
  ASSERT_TRUE(m);
  comm::CommReport r = reportOf(*m);
  ASSERT_EQ(r.collectives.size(), 1u);
  const comm::CollectiveRecord& c = r.collectives[0];
  // %arg0's shard is 4x8 f32 = 128 bytes; gathering "y" (2 devices) doubles it.
  EXPECT_DOUBLE_EQ(c.bytesPerDevice, 128);
  EXPECT_EQ(c.cause.factor, "k");
  EXPECT_EQ(c.cause.consumer, "%1 = stablehlo.dot_general");
  EXPECT_EQ(c.cause.text,
            "all-gather on \"y\" before %1 = stablehlo.dot_general (line 6): factor k is sharded on \"y\" in %arg0 "
            "but not in %arg1 (%arg0: argument sharding, line 3; %arg1: argument sharding, line 3)");
}

TEST(CommReport, CauseWithoutFactorComparesTheShardings) {
  auto m = parseTestModule(R"(sdy.mesh @mesh = <["x"=2]>

func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
)");
  ASSERT_TRUE(m);
  comm::CommReport r = reportOf(*m);
  ASSERT_EQ(r.collectives.size(), 1u);
  EXPECT_EQ(r.collectives[0].cause.text,
            "all-gather on \"x\" before func.return (line 5): %arg0 is sharded <@mesh, [{\"x\"}]> (argument "
            "sharding, line 3) but func.return reads it as <@mesh, [{}]>");
}

// Totals add up per function; an all-reduce counts 2(n-1)/n of its shard.
TEST(CommReport, TotalsPerFunctionAndAllReduce) {
  auto m = parseTestModule(R"(sdy.mesh @mesh = <["x"=2, "y"=4]>

func.func @f(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}], unreduced={"y"}>}) -> tensor<16xf32> {
  %0 = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh, [{"x"}]> : tensor<16xf32>
  return %0 : tensor<16xf32>
}

func.func @g(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}) -> tensor<16xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<16xf32>
  return %0 : tensor<16xf32>
}
)");
  ASSERT_TRUE(m);
  comm::CommReport r = reportOf(*m);
  ASSERT_EQ(r.collectives.size(), 2u);
  // @f: shard 8 f32 = 32 bytes, all-reduce over "y"=4: 2 * 3/4 * 32 = 48.
  EXPECT_EQ(r.collectives[0].kind, passes::CollectiveKind::AllReduce);
  EXPECT_EQ(r.collectives[0].groupSize, 4);
  EXPECT_DOUBLE_EQ(r.collectives[0].bytesPerDevice, 48);
  // @g: all-gather over 8 devices of 64 bytes: 7/8 * 64 = 56.
  EXPECT_EQ(r.collectives[1].groupSize, 8);
  EXPECT_DOUBLE_EQ(r.collectives[1].bytesPerDevice, 56);
  ASSERT_EQ(r.perFunction.size(), 2u);
  EXPECT_EQ(r.perFunction[0].first, "@f");
  EXPECT_DOUBLE_EQ(r.perFunction[0].second.bytesPerDevice, 48);
  EXPECT_EQ(r.perFunction[1].first, "@g");
  EXPECT_DOUBLE_EQ(r.total.bytesPerDevice, 104);
  EXPECT_EQ(r.total.count, 2);
}

TEST(CommReport, JsonHasTheSchemaFields) {
  auto m = parseTestModule(kGatherModule);
  ASSERT_TRUE(m);
  nlohmann::json j = nlohmann::json::parse(comm::commReportJson(reportOf(*m)));
  ASSERT_EQ(j["collectives"].size(), 1u);
  const nlohmann::json& c = j["collectives"][0];
  for (const char* key : {"kind", "op", "axes", "bytes_per_device", "seconds", "cause"})
    EXPECT_TRUE(c.contains(key)) << key;
  EXPECT_EQ(c["kind"], "all-gather");
  EXPECT_EQ(c["bytes_per_device"], 192);
  EXPECT_EQ(c["axes"], nlohmann::json::array({"\"x\""}));
  EXPECT_EQ(j["totals"]["count"], 1);
  EXPECT_EQ(j["totals"]["bytes_per_device"], 192);
  EXPECT_EQ(j["totals"]["per_function"][0]["function"], "@main");
}

TEST(CommReport, WriteErrorsAreReported) {
  auto m = parseTestModule(kGatherModule);
  ASSERT_TRUE(m);
  std::ostringstream terminal;
  std::string error;
  EXPECT_FALSE(comm::writeCommReport(reportOf(*m), "/nonexistent-dir/x.json", terminal, error));
  EXPECT_NE(error.find("/nonexistent-dir/x.json"), std::string::npos) << error;
  EXPECT_TRUE(comm::writeCommReport(reportOf(*m), "-", terminal, error));
  EXPECT_NE(terminal.str().find("all-gather"), std::string::npos);
}

// With the records of -sdy-insert-explicit-reshards, each collective takes
// the reason recorded for the reshard or all-reduce it comes from, even
// after the reshard was lowered to collectives; or, when the consumer's rule
// finds the same factor, the factor's two tensors and their origins.
TEST(CommReport, RecordedReshardCausesAreUsed) {
  auto m = parseTestModule(R"(sdy.mesh @mesh = <["x"=4, "y"=2]>

func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> (tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.dot %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}
)");
  ASSERT_TRUE(m);
  ir::DiagnosticSink diags;
  passes::ReshardCauses causes;
  ASSERT_TRUE(passes::insertExplicitReshards(*m, diags, passes::InsertExplicitReshardsOptions{true}, &causes));
  ASSERT_TRUE(passes::reshardToCollectives(*m, diags));
  comm::CommOptions options;
  options.reshardCauses = &causes;
  comm::CommReport r = comm::analyzeCommunication(*m, options);
  ASSERT_FALSE(r.collectives.empty());
  int withRecordedReason = 0;
  for (const comm::CollectiveRecord& c : r.collectives) {
    bool found = false;
    for (const passes::ReshardCause& cause : causes)
      if (!cause.reason.empty() && (c.cause.text.find(cause.reason) != std::string::npos ||
                                    (cause.factorName == c.cause.factor && !c.cause.factor.empty() &&
                                     c.cause.text.find(": factor " + c.cause.factor + " is sharded on ") !=
                                         std::string::npos)))
        found = true;
    withRecordedReason += found;
    if (c.kind == passes::CollectiveKind::AllReduce) {
      EXPECT_TRUE(found) << c.cause.text;
      EXPECT_EQ(c.cause.factor, "k");
    }
  }
  EXPECT_EQ(withRecordedReason, static_cast<int>(r.collectives.size()));
}
