// The samples whose lesson is a collective: run through the command line as
// a user would (`-sdy-propagation-pipeline`, then the export pipeline with
// explicit collectives, `--comm-report`), the report holds that collective
// with its kind, axes and hand-computed bytes per device.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "tool_run.h"

using shardscope::testing::runTool;

namespace {

struct Lesson {
  const char* sample;
  const char* kind;
  const char* op;
  const char* axes;  // the one axis, as the report prints it
  double bytesPerDevice;
  const char* consumer;  // the op that needs the collective
};

std::ostream& operator<<(std::ostream& os, const Lesson& l) { return os << l.sample; }

class SampleCommLesson : public ::testing::TestWithParam<Lesson> {};

TEST_P(SampleCommLesson, CommReportHoldsTheLessonsCollective) {
  const Lesson& l = GetParam();
  const std::string sample = std::string(SHARDSCOPE_SOURCE_DIR) + "/sample_models/" + l.sample;
  const std::filesystem::path json = std::filesystem::temp_directory_path() /
                                     ("comm_lesson_" + std::to_string(getpid()) + ".json");
  auto r = runTool("shardscope-opt",
                   "'" + sample +
                       "' -sdy-propagation-pipeline "
                       "'-sdy-export-pipeline=enable-insert-explicit-collectives=true' "
                       "--comm-report='" +
                       json.string() + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream in(json);
  const nlohmann::json report = nlohmann::json::parse(in);
  std::filesystem::remove(json);
  // The collective is written into the module, not only planned.
  EXPECT_NE(r.out.find(std::string(l.op) + " "), std::string::npos) << r.out;
  ASSERT_EQ(report["collectives"].size(), 1u) << report.dump(2);
  const nlohmann::json& c = report["collectives"][0];
  EXPECT_EQ(c["kind"], l.kind);
  EXPECT_EQ(c["op"], l.op);
  EXPECT_FALSE(c["planned"].get<bool>());
  EXPECT_EQ(c["axes"], nlohmann::json::array({l.axes}));
  EXPECT_DOUBLE_EQ(c["bytes_per_device"].get<double>(), l.bytesPerDevice);
  EXPECT_EQ(c["cause_detail"]["consumer"], l.consumer);
  EXPECT_DOUBLE_EQ(report["totals"]["bytes_per_device"].get<double>(), l.bytesPerDevice);
}

INSTANTIATE_TEST_SUITE_P(Samples, SampleCommLesson,
                         ::testing::Values(
                             // Per device 4x128x512 bf16 = 512 KiB; ring all-reduce over "model"=4:
                             // 2 * 3/4 * 524288 = 786432 bytes.
                             Lesson{"megatron_allreduce.mlir", "all-reduce", "sdy.all_reduce",
                                    "\"model\"", 786432, "%5 = stablehlo.add"},
                             // Per device 256x32 f32 = 32768 bytes in; all-to-all over "x"=4:
                             // 3/4 * 32768 = 24576 bytes.
                             Lesson{"alltoall_conflict.mlir", "all-to-all", "sdy.all_to_all",
                                    "\"x\"", 24576, "%1 = stablehlo.add"},
                             // Per device 1x32x32 f32 = 4096 bytes out; all-gather over the 2
                             // devices of "x":(2)2: 1/2 * 4096 = 2048 bytes.
                             Lesson{"reshape_subaxis_gather.mlir", "all-gather", "sdy.all_gather",
                                    "\"x\":(2)2", 2048, "func.return"}),
                         [](const auto& info) {
                           std::string name =
                               std::filesystem::path(info.param.sample).stem().string();
                           return name;
                         });

}  // namespace
