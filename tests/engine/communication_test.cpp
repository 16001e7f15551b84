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

// A module without reshards is analysed on a copy the reshards were
// inserted in; the entries name values and ops as the document does (the
// inserted reshards take no number: the add stays %0), say the cause with
// the factor's two tensors and their origins, and for each axis the tensor
// lacking it could not take, why.
TEST(Communication, PlannedCollectivesNameOpsAsTheDocumentAndSayWhatBlockedTheAxis) {
  auto conflict = sample("alltoall_conflict.mlir");
  CommunicationReport report = analyzeCommunication(*conflict);
  ASSERT_TRUE(report.ok) << report.error;
  ASSERT_FALSE(report.collectives.empty());
  const CollectiveEntry& a2a = report.collectives[0];
  EXPECT_EQ(a2a.kind, "all-to-all");
  EXPECT_TRUE(a2a.inserted);
  EXPECT_EQ(a2a.value, "%arg0");  // the value the inserted reshard works on
  EXPECT_NE(a2a.cause.find("all-to-all on \"x\" before %0 = stablehlo.add (line 30): "), std::string::npos)
      << a2a.cause;
  for (const CollectiveEntry& e : report.collectives)
    EXPECT_EQ(e.cause.find("%1 = stablehlo.add"), std::string::npos) << e.cause;  // not the copy's name
  EXPECT_EQ(a2a.blocked, std::vector<std::string>{
                             "why not \"x\" on %arg0 dimension 1: used: \"x\" already shards dimension 0 "
                             "of %arg0 {\"x\"}; an axis shards at most one dimension"});

  // Megatron as written: the second dot_general's "model"-sharded
  // contracting factor l slices its replicated input, said as the issue's
  // example says it.
  auto megatron = sample("megatron_allreduce.mlir");
  report = analyzeCommunication(*megatron);
  ASSERT_TRUE(report.ok) << report.error;
  const CollectiveEntry* slice = nullptr;
  for (const CollectiveEntry& e : report.collectives)
    if (e.kind == "all-slice" && e.line == 32) slice = &e;
  ASSERT_NE(slice, nullptr);
  EXPECT_EQ(slice->cause,
            "all-slice on \"model\" before %3 = stablehlo.dot_general (line 32): factor l is sharded on "
            "\"model\" in %arg2 but not in %2 (%arg2: argument sharding, line 25; %2: no sharding "
            "(replicated))");
  ASSERT_EQ(slice->blocked.size(), 1u);
  EXPECT_EQ(slice->blocked[0].rfind("why not \"model\" on %2 dimension 2: no source: ", 0), 0u)
      << slice->blocked[0];

  // The sub-axis gather after propagation: the result's closed dimension.
  auto gather = sample("reshape_subaxis_gather.mlir");
  auto run = propagateDocument(*gather, propagation::PropagationOptions());
  ASSERT_TRUE(run->ok);
  report = analyzeCommunication(*run->result);
  ASSERT_TRUE(report.ok) << report.error;
  ASSERT_EQ(report.collectives.size(), 1u);
  EXPECT_EQ(report.collectives[0].kind, "all-gather");
  EXPECT_EQ(report.collectives[0].blocked,
            std::vector<std::string>{"why not \"x\":(2)2 on @main result 0 dimension 1: closed: dimension 1 "
                                     "of @main result 0 is {}, closed (written without `?`), so propagation "
                                     "adds no axis to it"});
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
