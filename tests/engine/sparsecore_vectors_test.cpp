// Every case of docs/vectors.json, run through the job parser and the
// analysis. The expected statistics are read from the file at test time.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "sparsecore/analysis.h"
#include "sparsecore/job_io.h"

using namespace shardscope::sc;
using nlohmann::json;

namespace {

// The shared docs win when present (fresh clone with shared/ beside it);
// otherwise the copy in tests/engine/data/sparsecore.
std::string vectorsPath() {
  const std::string shared = std::string(SHARDSCOPE_SOURCE_DIR) + "/../shared/docs/vectors.json";
  if (std::filesystem::exists(shared)) return shared;
  return std::string(SHARDSCOPE_TEST_DATA_DIR) + "/sparsecore/vectors.json";
}

json loadVectors() {
  std::ifstream in(vectorsPath());
  EXPECT_TRUE(in.good()) << vectorsPath();
  return json::parse(in);
}

// A one-table, one-feature job in the job-file format.
json jobFor(const json& v) {
  uint64_t maxId = 0;
  for (const json& s : v["samples"])
    for (const json& id : s) maxId = std::max(maxId, id.get<uint64_t>());
  json table = {{"name", "t"}, {"vocab_size", maxId + 1}, {"width", 8}};
  if (v.contains("limits")) {
    table["max_ids_per_partition"] = v["limits"]["max_ids_per_partition"];
    table["max_unique_ids_per_partition"] = v["limits"]["max_unique_ids_per_partition"];
  } else {
    // Stats-only vectors: limits above every count in the file.
    table["max_ids_per_partition"] = 1024;
    table["max_unique_ids_per_partition"] = 1024;
  }
  return {{"devices", v["devices"]},
          {"sparse_cores_per_device", v["sparse_cores_per_device"]},
          {"allow_id_dropping", v.value("allow_id_dropping", false)},
          {"tables", json::array({table})},
          {"features", json::array({{{"name", "f"}, {"table", "t"}, {"samples", v["samples"]}}})}};
}

}  // namespace

TEST(SparseCoreVectors, FileHasCases) {
  json doc = loadVectors();
  ASSERT_TRUE(doc.contains("vectors"));
  EXPECT_GE(doc["vectors"].size(), 5u);
}

TEST(SparseCoreVectors, EveryCaseMatches) {
  json doc = loadVectors();
  int checked = 0;
  for (const json& v : doc["vectors"]) {
    SCOPED_TRACE(v["name"].get<std::string>());
    Job job = parseJob(jobFor(v).dump(), "vector", "");
    PreprocessOptions single;
    single.threads = 1;
    for (const PreprocessOptions& options : {PreprocessOptions{}, single}) {
      AnalysisReport report = analyze(job, options);
      ASSERT_EQ(report.tables.size(), 1u);
      const StackStats& s = report.tables[0].stats;
      const json& e = v["expected"];
      if (e.contains("max_ids_per_partition")) {
        EXPECT_EQ(s.maxIdsPerPartition, e["max_ids_per_partition"].get<std::vector<int64_t>>());
      }
      if (e.contains("max_unique_ids_per_partition")) {
        EXPECT_EQ(s.maxUniqueIdsPerPartition,
                  e["max_unique_ids_per_partition"].get<std::vector<int64_t>>());
      }
      if (e.contains("required_buffer_per_sparse_core")) {
        EXPECT_EQ(s.requiredBufferPerSparseCore,
                  e["required_buffer_per_sparse_core"].get<std::vector<int64_t>>());
      }
      if (e.contains("dropped_ids")) {
        EXPECT_EQ(s.droppedIds, e["dropped_ids"].get<int64_t>());
      }
      EXPECT_FALSE(report.error.has_value()) << *report.error;
    }
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(doc["vectors"].size()));
}

// The dropping vector without allow_id_dropping must fail with the
// reference's message.
TEST(SparseCoreVectors, DroppingCaseFailsWithoutDropping) {
  json doc = loadVectors();
  for (const json& v : doc["vectors"]) {
    if (!v.value("allow_id_dropping", false)) continue;
    json j = jobFor(v);
    j["allow_id_dropping"] = false;
    AnalysisReport report = analyze(parseJob(j.dump(), "vector", ""));
    ASSERT_TRUE(report.error.has_value());
    EXPECT_NE(report.error->find("Observed max ids per partition: "), std::string::npos)
        << *report.error;
    EXPECT_NE(report.error->find("for table: t is greater than the set max ids per partition: "),
              std::string::npos);
  }
}
