// api/communication.h: the GUI's communication report of a document.
#include "api/communication.h"

#include <gtest/gtest.h>

#include "api/propagate.h"
#include "ir/printer.h"

namespace shardscope::api {
namespace {

std::shared_ptr<Document> sample(const std::string& name) {
  return loadDocument(std::string(SHARDSCOPE_SOURCE_DIR) + "/sample_models/" + name);
}

TEST(Communication, MegatronMlpAfterPropagationHasOneAllReduce) {
  auto doc = sample("mlp_megatron.mlir");
  ASSERT_FALSE(doc->hasErrors());
  propagation::PropagationOptions options;
  auto run = propagateDocument(*doc, options);
  ASSERT_TRUE(run->ok);
  CommunicationReport report = analyzeCommunication(*run->result);
  ASSERT_TRUE(report.ok) << report.error;
  EXPECT_TRUE(report.reshardsInserted);
  EXPECT_EQ(report.chip, "tpu-v5p");
  ASSERT_EQ(report.collectives.size(), 1u);
  const CollectiveEntry& e = report.collectives[0];
  EXPECT_EQ(e.kind, "all-reduce");
  EXPECT_EQ(e.op, "sdy.all_reduce");
  EXPECT_EQ(e.function, "@main");
  EXPECT_EQ(e.axes, "\"model\"");
  EXPECT_EQ(e.groupSize, 4);
  // 16x64xf32 split over "data"=2 is 8x64 per device, 2048 bytes; a ring
  // all-reduce over 4 devices receives 2 * 3/4 of it.
  EXPECT_DOUBLE_EQ(e.bytesPerDevice, 3072);
  EXPECT_EQ(report.total.count, 1);
  EXPECT_DOUBLE_EQ(report.total.bytesPerDevice, 3072);
  EXPECT_NE(e.cause.find("all-reduce on \"model\""), std::string::npos) << e.cause;
  // The entry points at the second dot_general of the document.
  const ir::Op* op = opAtLocation(*doc->module, e.line, e.column);
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->name(), "stablehlo.dot_general");
  EXPECT_EQ(op->loc().line, 26u);
  // The document itself is untouched: still no collective in it.
  EXPECT_EQ(ir::printModule(*doc->module).find("all_reduce"), std::string::npos);
}

TEST(Communication, UnpropagatedMegatronStillNeedsTheAllReduce) {
  // Without propagation the dot's result is unsharded; the report still
  // finds the all-reduce the contracting "model" axis needs.
  auto doc = sample("mlp_megatron.mlir");
  CommunicationReport report = analyzeCommunication(*doc);
  ASSERT_TRUE(report.ok) << report.error;
  bool allReduce = false;
  for (const CollectiveEntry& e : report.collectives) allReduce |= e.kind == "all-reduce";
  EXPECT_TRUE(allReduce);
}

TEST(Communication, ExistingReshardsAreReportedAsWritten) {
  auto doc = parseDocument(R"(sdy.mesh @m = <["x"=4]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@m, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)",
                           "gather.mlir");
  ASSERT_FALSE(doc->hasErrors());
  CommunicationReport report = analyzeCommunication(*doc, {"tpu-v4"});
  ASSERT_TRUE(report.ok) << report.error;
  EXPECT_FALSE(report.reshardsInserted);
  EXPECT_EQ(report.chip, "tpu-v4");
  ASSERT_EQ(report.collectives.size(), 1u);
  EXPECT_EQ(report.collectives[0].kind, "all-gather");
  EXPECT_FALSE(report.collectives[0].inserted);
  EXPECT_TRUE(report.collectives[0].planned);
  EXPECT_EQ(report.collectives[0].op, "sdy.reshard");
  EXPECT_DOUBLE_EQ(report.collectives[0].bytesPerDevice, 192);  // 3/4 of 256
  EXPECT_EQ(report.collectives[0].line, 3u);
  // It sits on the edge from %arg0 into the reshard, which is its own op.
  const std::vector<CollectiveSite> sites = locateCollectives(*doc->module, report);
  ASSERT_EQ(sites.size(), 1u);
  ASSERT_NE(sites[0].collective, nullptr);
  EXPECT_EQ(sites[0].collective->name(), "sdy.reshard");
  EXPECT_EQ(sites[0].op, sites[0].collective);
  ASSERT_NE(sites[0].from, nullptr);
  EXPECT_EQ(valueName(*sites[0].from), "%arg0");
  ASSERT_NE(sites[0].to, nullptr);
  EXPECT_EQ(sites[0].to->name(), "func.return");
}

TEST(Communication, BadInputGivesAnErrorNotACrash) {
  auto broken = parseDocument("func.func @main(", "broken.mlir");
  CommunicationReport report = analyzeCommunication(*broken);
  EXPECT_FALSE(report.ok);
  EXPECT_FALSE(report.error.empty());
  auto doc = sample("mlp_megatron.mlir");
  report = analyzeCommunication(*doc, {"no-such-chip"});
  EXPECT_FALSE(report.ok);
  EXPECT_NE(report.error.find("no-such-chip"), std::string::npos);
}

// The all-gather of the issue's example: tensor<8x8xf32> from [{"x"}, {}] to
// [{}, {}] on "x"=4 receives 3/4 of the 256-byte tensor, 192 bytes, per
// device. It sits on the edge from %arg0 to the return.
constexpr const char* kGatherAtReturn = R"(sdy.mesh @m = <["x"=4]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
)";

TEST(Communication, EntriesSayWhereTheySitInTheDataflow) {
  auto doc = parseDocument(kGatherAtReturn, "gather_at_return.mlir");
  ASSERT_FALSE(doc->hasErrors());
  CommunicationReport report = analyzeCommunication(*doc);
  ASSERT_TRUE(report.ok) << report.error;
  ASSERT_EQ(report.collectives.size(), 1u);
  const CollectiveEntry& e = report.collectives[0];
  EXPECT_EQ(e.kind, "all-gather");
  EXPECT_DOUBLE_EQ(e.bytesPerDevice, 192);
  // Pre-order: 0 the mesh, 1 @main, 2 the negate, 3 the return.
  EXPECT_EQ(e.fromOp, 2);
  EXPECT_FALSE(e.fromArgument);
  EXPECT_EQ(e.fromIndex, 0);
  EXPECT_EQ(e.toOp, 3);
  EXPECT_EQ(e.toOperand, 0);
  EXPECT_EQ(e.dim, 0);  // "x" leaves dimension 0
  const std::vector<CollectiveSite> sites = locateCollectives(*doc->module, report);
  ASSERT_EQ(sites.size(), 1u);
  ASSERT_NE(sites[0].from, nullptr);
  EXPECT_EQ(valueName(*sites[0].from), "%0");
  ASSERT_NE(sites[0].to, nullptr);
  EXPECT_EQ(sites[0].to->name(), "func.return");
  EXPECT_EQ(sites[0].toOperand, 0);
  ASSERT_NE(sites[0].op, nullptr);
  EXPECT_EQ(sites[0].op->name(), "func.return");
}

TEST(Communication, ArgumentsAsSourcesAndTheMegatronAllReduce) {
  auto doc = sample("mlp_megatron.mlir");
  auto run = propagateDocument(*doc, {});
  ASSERT_TRUE(run->ok);
  CommunicationReport report = analyzeCommunication(*run->result);
  ASSERT_TRUE(report.ok) << report.error;
  ASSERT_EQ(report.collectives.size(), 1u);
  const std::vector<CollectiveSite> sites = locateCollectives(*run->result->module, report);
  ASSERT_EQ(sites.size(), 1u);
  // The all-reduce of the second dot's result, on its way to the return.
  ASSERT_NE(sites[0].from, nullptr);
  ASSERT_NE(sites[0].from->definingOp, nullptr);
  EXPECT_EQ(sites[0].from->definingOp->name(), "stablehlo.dot_general");
  EXPECT_EQ(sites[0].from->definingOp->loc().line, 26u);
  ASSERT_NE(sites[0].to, nullptr);
  EXPECT_EQ(sites[0].to->name(), "func.return");
  EXPECT_EQ(report.collectives[0].dim, -1);  // an all-reduce changes no dimension

  // An argument as the source: %arg0 all-gathered before the return.
  auto args = parseDocument(R"(sdy.mesh @m = <["x"=4]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>}) {
  return %arg0 : tensor<8x8xf32>
}
)",
                            "arg.mlir");
  report = analyzeCommunication(*args);
  ASSERT_TRUE(report.ok) << report.error;
  ASSERT_EQ(report.collectives.size(), 1u);
  EXPECT_TRUE(report.collectives[0].fromArgument);
  EXPECT_EQ(report.collectives[0].fromOp, 1);  // @main
  EXPECT_EQ(report.collectives[0].fromRegion, 0);
  EXPECT_EQ(report.collectives[0].fromIndex, 0);
  EXPECT_EQ(report.collectives[0].dim, 1);
  const std::vector<CollectiveSite> argSites = locateCollectives(*args->module, report);
  ASSERT_NE(argSites[0].from, nullptr);
  EXPECT_EQ(valueName(*argSites[0].from), "%arg0");
}

// A step of a run holds the ops the import passes added (data-flow edges,
// split constants): its module no longer reads as its text, and the
// analysis must still work on it, with entries pointing into the document.
TEST(Communication, StepsOfARunWithImportPassesAreAnalysed) {
  for (const char* name : {"while_loop.mlir", "attention_block.mlir", "sharding_groups.mlir"}) {
    SCOPED_TRACE(name);
    auto doc = sample(name);
    auto run = propagateDocument(*doc, {});
    ASSERT_TRUE(run->ok);
    for (size_t step : {size_t{0}, run->trace.steps.size()}) {
      std::string error;
      auto at = documentAtStep(*doc, *run, step, &error);
      ASSERT_NE(at, nullptr) << error;
      CommunicationReport report = analyzeCommunication(*at);
      ASSERT_TRUE(report.ok) << report.error;
      const std::vector<CollectiveSite> sites = locateCollectives(*at->module, report);
      for (size_t i = 0; i < sites.size(); ++i) {
        EXPECT_NE(sites[i].op, nullptr) << report.collectives[i].cause;
        EXPECT_NE(sites[i].from, nullptr) << report.collectives[i].cause;
      }
    }
  }
}

TEST(Communication, ASnapshotIsAnalysedAfterTheModuleMovedOn) {
  auto doc = parseDocument(kGatherAtReturn, "gather_at_return.mlir");
  CommunicationSnapshot snap = snapshotForCommunication(*doc);
  ASSERT_TRUE(snap.error.empty());
  doc->module.reset();  // the document's module is gone: the snapshot is enough
  CommunicationReport report = analyzeCommunication(snap);
  ASSERT_TRUE(report.ok) << report.error;
  ASSERT_EQ(report.collectives.size(), 1u);
  EXPECT_EQ(report.collectives[0].line, 4u);  // positions are the document's
}

TEST(Communication, TextOfBytesAndSeconds) {
  EXPECT_EQ(bytesText(192), "192 B");
  EXPECT_EQ(bytesText(3072), "3.00 KiB");
  EXPECT_EQ(bytesText(48.0 * 1024 * 1024), "48.00 MiB");
  EXPECT_EQ(secondsText(5.12e-9), "5.12 ns");
  EXPECT_EQ(secondsText(0.0013), "1.3 ms");
  EXPECT_EQ(secondsText(0), "0 s");
}

}  // namespace
}  // namespace shardscope::api
