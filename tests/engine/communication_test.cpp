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
