// shardscope-sc end to end: exit status, stdout and stderr for good and bad
// inputs. The tool is looked up next to this test binary (both land in
// <build>/bin); the test is skipped when it was not built.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tool_run.h"

namespace fs = std::filesystem;

namespace {

using shardscope::testing::ToolRun;

fs::path tool() { return shardscope::testing::toolPath("shardscope-sc"); }

ToolRun run(const std::string& args) { return shardscope::testing::runTool("shardscope-sc", args); }

std::string write(const std::string& name, const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("sparsecore_cli_" + name);
  std::ofstream(p) << text;
  return p.string();
}

const char kMinimal[] =
    R"({"devices": 1, "sparse_cores_per_device": 4, "allow_id_dropping": false, "tables": [{"name": "t", "vocab_size": 1000, "width": 8, "max_ids_per_partition": 256, "max_unique_ids_per_partition": 256}], "features": [{"name": "f", "table": "t", "samples": [[0, 1, 2], [5]]}]})";

class SparseCoreCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(tool())) GTEST_SKIP() << "shardscope-sc not built next to the test";
  }
};

}  // namespace

TEST_F(SparseCoreCli, MinimalJobText) {
  ToolRun r = run("analyze " + write("min.json", kMinimal));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("max_ids_per_partition:           [1, 1, 1, 0]"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("required_buffer_per_sparse_core: [24, 8, 0, 0]"), std::string::npos);
}

TEST_F(SparseCoreCli, MinimalJobJson) {
  ToolRun r = run("analyze " + write("min.json", kMinimal) + " --json");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  const auto& t = j["tables"][0];
  EXPECT_EQ(t["name"], "t");
  for (const char* key :
       {"max_ids_per_partition", "max_unique_ids_per_partition", "required_buffer_per_sparse_core",
        "dropped_ids", "minibatches", "suggested_limits", "spmem", "hbm", "warnings"})
    EXPECT_TRUE(t.contains(key)) << key;
}

TEST_F(SparseCoreCli, LimitExceededExitsOne) {
  nlohmann::json j = nlohmann::json::parse(kMinimal);
  j["sparse_cores_per_device"] = 1;
  j["tables"][0]["max_ids_per_partition"] = 2;
  ToolRun r = run("analyze " + write("exceed.json", j.dump()));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(
      r.err.find(
          "Observed max ids per partition: 4 for table: t is greater than the set max ids per "
          "partition: 2. Use `allow_id_dropping`"),
      std::string::npos)
      << r.err;
}

TEST_F(SparseCoreCli, BadInputsExitOneWithCause) {
  struct Case {
    std::string text, expect;
  };
  nlohmann::json np2 = nlohmann::json::parse(kMinimal);
  np2["sparse_cores_per_device"] = 3;
  nlohmann::json unknown = nlohmann::json::parse(kMinimal);
  unknown["features"][0]["table"] = "nope";
  nlohmann::json missing = nlohmann::json::parse(kMinimal);
  missing["tables"][0].erase("vocab_size");
  const Case cases[] = {
      {np2.dump(), "sparse_cores_per_device: total SparseCores"},
      {unknown.dump(), "features[0].table: unknown table 'nope'"},
      {missing.dump(), "tables[0].vocab_size: missing required field"},
      {"{\n \"devices\": 1,\n \"tables\": [}", "bad.json:3:"},
  };
  for (const Case& c : cases) {
    ToolRun r = run("analyze " + write("bad.json", c.text));
    EXPECT_EQ(r.status, 1) << c.text;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("bad.json"), std::string::npos) << r.err;
  }
  ToolRun csv =
      run("analyze " + write("min.json", kMinimal) + " --csv " + write("bad.csv", "0,f\n"));
  EXPECT_EQ(csv.status, 1);
  EXPECT_NE(csv.err.find("bad.csv:1: expected 3 or 4 comma-separated fields"), std::string::npos)
      << csv.err;
  EXPECT_EQ(run("analyze /nonexistent.json").status, 1);
  EXPECT_EQ(run("frobnicate").status, 1);
  EXPECT_EQ(run("").status, 1);
}

TEST_F(SparseCoreCli, PipelineAndTrace) {
  ToolRun p = run("pipeline --sc-fwd 1 --tc-fwd 2 --tc-bwd 2 --sc-bwd 1 --steps 10 --json");
  ASSERT_EQ(p.status, 0) << p.err;
  nlohmann::json j = nlohmann::json::parse(p.out);
  EXPECT_EQ(j["with_pipelining"]["steps"], 12);
  EXPECT_DOUBLE_EQ(j["without_pipelining"]["total"].get<double>(), 60);
  EXPECT_EQ(run("pipeline --sc-fwd x").status, 1);

  ToolRun t = run("trace " + std::string(SHARDSCOPE_SOURCE_DIR) +
                  "/sample_models/sparsecore/sample_trace.json");
  EXPECT_EQ(t.status, 0) << t.err;
  EXPECT_NE(t.out.find("TPU:0 SparseCore 1"), std::string::npos);
}

TEST_F(SparseCoreCli, SampleJobs) {
  const std::string dir = std::string(SHARDSCOPE_SOURCE_DIR) + "/sample_models/sparsecore/";
  for (const char* job :
       {"dlrm_like.json", "zipf_dropping.json", "zipf_minibatching.json", "stacked_tables.json",
        "explicit_stacking.json"}) {
    ToolRun r = run("analyze " + dir + job + " --json");
    EXPECT_EQ(r.status, 0) << job << ": " << r.err;
    EXPECT_NO_THROW(nlohmann::json::parse(r.out)) << job;
  }
  // The explicit placement gives the reference's maxima (see
  // sparsecore_explicit_stacking_test.cpp, TableStackingTest).
  ToolRun placed = run("analyze " + dir + "explicit_stacking.json --json");
  EXPECT_EQ(nlohmann::json::parse(placed.out)["tables"][0]["max_ids_per_partition"],
            nlohmann::json::parse("[2, 2, 4, 1, 1, 1, 0, 1]"));
  ToolRun drop = run("analyze " + dir + "zipf_dropping.json --json");
  EXPECT_GT(nlohmann::json::parse(drop.out)["tables"][0]["dropped_ids"].get<int64_t>(), 0);
}

TEST_F(SparseCoreCli, HostileInputsAreRefusedBeforeReading) {
  ToolRun device = run("analyze /dev/zero");
  EXPECT_EQ(device.status, 1);
  EXPECT_NE(device.err.find("shardscope-sc: /dev/zero: is a device, not a file"), std::string::npos)
      << device.err;
  const std::string dir = fs::temp_directory_path().string();
  ToolRun directory = run("analyze " + dir);
  EXPECT_EQ(directory.status, 1);
  EXPECT_NE(directory.err.find(dir + ": is a directory, not a file"), std::string::npos)
      << directory.err;
  ToolRun csv = run("analyze " + write("min.json", kMinimal) + " --csv /dev/zero");
  EXPECT_EQ(csv.status, 1);
  EXPECT_NE(csv.err.find("/dev/zero: is a device"), std::string::npos) << csv.err;
  EXPECT_EQ(run("trace " + dir).status, 1);
}

TEST_F(SparseCoreCli, WriteErrorsExitOne) {
  // stdout itself on a full device: run() would redirect it, so call the shell here.
  auto statusToFull = [](const std::string& args) {
    const int raw =
        std::system(("'" + tool().string() + "' " + args + " >/dev/full 2>/dev/null").c_str());
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  };
  EXPECT_EQ(statusToFull("chips"), 1);
  EXPECT_EQ(statusToFull("chips --json"), 1);
  EXPECT_EQ(statusToFull("analyze " + write("min.json", kMinimal)), 1);
  EXPECT_EQ(statusToFull("--help"), 1);
  ToolRun csv = run("export-csv " + write("min.json", kMinimal) + " /dev/full");
  EXPECT_EQ(csv.status, 1);
  EXPECT_NE(csv.err.find("cannot write '/dev/full': No space left on device"), std::string::npos)
      << csv.err;
}

// `stats`: FDO statistics files and folders, text and JSON, and bad files.
TEST_F(SparseCoreCli, StatsOfFdoFiles) {
  const std::string dir = std::string(SHARDSCOPE_TEST_DATA_DIR) + "/sparsecore/fdo/";
  ToolRun hosts = run("stats '" + dir + "hosts' --json");
  ASSERT_EQ(hosts.status, 0) << hosts.err;
  nlohmann::json j = nlohmann::json::parse(hosts.out);
  ASSERT_EQ(j["files"].size(), 2u);  // the newest file of processes 1 and 0
  EXPECT_EQ(j["tables"][0]["table"], "t_one");
  EXPECT_EQ(j["tables"][0]["max_ids"]["per_batch"], nlohmann::json::parse("[[20, 20, 40, 40]]"));
  EXPECT_EQ(j["tables"][0]["suggested"]["max_ids_per_partition"], 40);
  EXPECT_EQ(j["tables"][1]["suggested"]["suggested_coo_buffer_size_per_device"], 256);

  ToolRun text =
      run("stats '" + dir + "history/fdo_stats_0_1700000000000000000.csv' --sc-per-device 2");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("table user_item: 6 batches x 8 partitions"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("suggested_coo_buffer_size_per_device=240"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("max_ids_per_partition=15 (p50): >= 25 ids over it, in 1 of 6 batches"),
            std::string::npos)
      << text.out;

  ToolRun bad = run("stats '" + dir + "broken/float_dtype.npz'");
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(
      bad.err.find("float_dtype.npz: entry 't_max_ids.npy': dtype '<f8' is not an integer type"),
      std::string::npos)
      << bad.err;
  EXPECT_EQ(run("stats").status, 1);
  EXPECT_EQ(run("stats '" + dir + "hosts' --sc-per-device -1").status, 1);
}

TEST_F(SparseCoreCli, ThreadCountsOutOfRangeAreUsageErrors) {
  const std::string job = write("threads.json", kMinimal);
  for (const char* n : {"0", "-1", "100000", "99999999999"}) {
    ToolRun r = run("analyze " + job + " --threads " + n);
    EXPECT_EQ(r.status, 1) << n << ": " << r.err;
    EXPECT_EQ(r.err.rfind("shardscope-sc: --threads: ", 0), 0u) << r.err;
    EXPECT_EQ(r.out, "") << n;
  }
  ToolRun ok = run("analyze " + job + " --threads 2");
  EXPECT_EQ(ok.status, 0) << ok.err;
}

// Messages name the real culprit (issue 12, items 9 to 11): the CSV line of an
// out-of-vocabulary id, the literal of an overflowing number, the option out
// of range; a huge sample index fails before its table is allocated.
TEST_F(SparseCoreCli, MessagesBlameTheRightPlace) {
  nlohmann::json csvJob = nlohmann::json::parse(kMinimal);
  csvJob["features"][0].erase("samples");
  const std::string job = write("csvjob.json", csvJob.dump());
  ToolRun oov =
      run("analyze " + job + " --csv " + write("oov.csv", "sample,feature,id\n0,f,5\n1,f,5000\n"));
  EXPECT_EQ(oov.status, 1);
  EXPECT_NE(oov.err.find("oov.csv:3: id 5000 is outside the vocabulary of table 't' (vocab_size "
                         "1000)"),
            std::string::npos)
      << oov.err;
  ToolRun huge = run("analyze " + job + " --csv " + write("huge.csv", "2147483647,f,5\n"));
  EXPECT_EQ(huge.status, 1);
  EXPECT_NE(huge.err.find("huge.csv:1: sample index 2147483647 is too large"), std::string::npos)
      << huge.err;
  csvJob["batch_size"] = 4;
  ToolRun beyond = run("analyze " + write("csvjob_b.json", csvJob.dump()) + " --csv " +
                       write("huge.csv", "2147483647,f,5\n"));
  EXPECT_NE(beyond.err.find("huge.csv:1: sample index 2147483647 is not below the job's "
                            "batch_size 4"),
            std::string::npos)
      << beyond.err;

  std::string overflow = kMinimal;
  overflow.replace(overflow.find("\"width\": 8"), 10, "\"width\": 1e400");
  ToolRun number = run("analyze " + write("number.json", overflow));
  EXPECT_EQ(number.status, 1);
  EXPECT_NE(number.err.find("number.json:1:"), std::string::npos) << number.err;
  EXPECT_NE(number.err.find(": JSON number out of range: 1e400"), std::string::npos) << number.err;

  ToolRun steps = run("pipeline " + write("steps.json",
                                          R"({"sc_forward": 1, "tc_forward": 1, "tc_backward": 1,
                                              "sc_backward": 1, "steps": 1000000000000000})"));
  EXPECT_EQ(steps.status, 1);
  EXPECT_NE(steps.err.find("pipeline.steps: 1000000000000000 is more than"), std::string::npos)
      << steps.err;
  EXPECT_NE(run("pipeline --sc-fwd 1 --tc-fwd 1 --tc-bwd 1 --sc-bwd 1 --steps 1000000000000000")
                .err.find("--steps: 1000000000000000 is out of range"),
            std::string::npos);
  for (const char* threads : {"0", "-1", "100000"}) {
    ToolRun r = run("analyze " + write("min.json", kMinimal) + " --threads " + threads);
    EXPECT_EQ(r.status, 1) << threads;
    EXPECT_NE(r.err.find("--threads: " + std::string(threads) + " is out of range (1 to 1024)"),
              std::string::npos)
        << r.err;
  }
}
