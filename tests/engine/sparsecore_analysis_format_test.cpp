// CLI renderings of the analysis: the JSON key names the tools rely on, and
// a golden text file for the minimal job. Regenerate the golden file with
// SHARDSCOPE_REGENERATE_GOLDEN=1.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sparsecore/analysis_format.h"
#include "sparsecore/errors.h"
#include "sparsecore/job_io.h"

using namespace shardscope::sc;

namespace {
const char kMinimal[] = R"({"devices": 1, "sparse_cores_per_device": 4, "allow_id_dropping": false,
  "tables": [{"name": "t", "vocab_size": 1000, "width": 8, "max_ids_per_partition": 256,
              "max_unique_ids_per_partition": 256}],
  "features": [{"name": "f", "table": "t", "samples": [[0, 1, 2], [5]]}]})";
}

TEST(SparseCoreAnalysisFormat, JsonKeys) {
  nlohmann::json j = analysisToJson(analyze(parseJob(kMinimal, "min.json", "")));
  ASSERT_TRUE(j["tables"].is_array());
  ASSERT_EQ(j["tables"].size(), 1u);
  const nlohmann::json& t = j["tables"][0];
  EXPECT_EQ(t["name"], "t");
  EXPECT_EQ(t["max_ids_per_partition"], nlohmann::json({1, 1, 1, 0}));
  EXPECT_EQ(t["max_unique_ids_per_partition"], nlohmann::json({1, 1, 1, 0}));
  EXPECT_EQ(t["required_buffer_per_sparse_core"], nlohmann::json({24, 8, 0, 0}));
  EXPECT_EQ(t["dropped_ids"], 0);
  EXPECT_EQ(t["minibatches"], 1);
  EXPECT_TRUE(t["suggested_limits"].contains("max_ids_per_partition"));
  EXPECT_TRUE(t["spmem"]["fits"].get<bool>());
  EXPECT_EQ(t["hbm"]["table_bytes"], 1024 * 8 * 4);
  EXPECT_EQ(t["ids_per_source_partition"][0], nlohmann::json({1, 1, 1, 0}));
  EXPECT_TRUE(j["error"].is_null());
}

TEST(SparseCoreAnalysisFormat, GoldenText) {
  const std::string text = analysisToText(analyze(parseJob(kMinimal, "min.json", "")));
  const std::string path =
      std::string(SHARDSCOPE_TEST_DATA_DIR) + "/sparsecore/minimal_analysis.expected";
  if (std::getenv("SHARDSCOPE_REGENERATE_GOLDEN")) std::ofstream(path) << text;
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << path << " missing; run with SHARDSCOPE_REGENERATE_GOLDEN=1";
  std::stringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(text, expected.str());
}

TEST(SparseCoreAnalysisFormat, ErrorIsReported) {
  nlohmann::json job = nlohmann::json::parse(kMinimal);
  job["tables"][0]["max_ids_per_partition"] = 0;
  EXPECT_THROW(parseJob(job.dump(), "min.json", ""), InputError);
  job["tables"][0]["max_ids_per_partition"] = 1;
  job["features"][0]["samples"] = {{0, 4}};
  job["sparse_cores_per_device"] = 1;
  AnalysisReport r = analyze(parseJob(job.dump(), "min.json", ""));
  ASSERT_TRUE(r.error.has_value());
  nlohmann::json j = analysisToJson(r);
  EXPECT_EQ(j["error"], *r.error);
  EXPECT_NE(analysisToText(r).find("error: Observed max ids per partition: 2 for table: t"),
            std::string::npos);
}
