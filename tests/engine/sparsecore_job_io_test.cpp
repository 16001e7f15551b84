// Job files and CSV ids: defaults, sources, and errors that name the file,
// the field or line, and the cause.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sparsecore/csv_ids.h"
#include "sparsecore/errors.h"
#include "sparsecore/job_io.h"

using namespace shardscope::sc;

namespace {

const char kMinimal[] = R"({"devices": 1, "sparse_cores_per_device": 4, "allow_id_dropping": false,
  "tables": [{"name": "t", "vocab_size": 1000, "width": 8, "max_ids_per_partition": 256,
              "max_unique_ids_per_partition": 256}],
  "features": [{"name": "f", "table": "t", "samples": [[0, 1, 2], [5]]}]})";

// Message of the InputError thrown by `fn`, or "" when none is thrown.
template <class Fn>
std::string errorOf(Fn&& fn) {
  try {
    fn();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string parseError(const std::string& text) {
  return errorOf([&] { parseJob(text, "job.json", ""); });
}

std::string tempFile(const std::string& name, const std::string& content) {
  auto path = std::filesystem::temp_directory_path() / ("sparsecore_job_io_" + name);
  std::ofstream(path) << content;
  return path.string();
}

}  // namespace

TEST(SparseCoreJobIo, MinimalJobTakesDefaults) {
  std::vector<std::string> warnings;
  Job job = parseJob(kMinimal, "job.json", "", &warnings);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(job.chip, *chipSpecByName("v5p"));
  EXPECT_EQ(job.totalSparseCores(), 4);
  EXPECT_TRUE(job.tableStacking);
  EXPECT_FALSE(job.enableMinibatching);
  EXPECT_EQ(job.maxIdsPerChipPerSample, 64);
  ASSERT_EQ(job.features.size(), 1u);
  EXPECT_EQ(job.features[0].ids.sampleCount(), 2u);
  EXPECT_EQ(job.features[0].ids.ids, (std::vector<uint32_t>{0, 1, 2, 5}));
}

TEST(SparseCoreJobIo, ChipByNameAndOverrides) {
  nlohmann::json j = nlohmann::json::parse(kMinimal);
  j["chip"] = {{"name", "v6e"}, {"tile_spmem_bytes", 1234}};
  j.erase("sparse_cores_per_device");
  Job job = parseJob(j.dump(), "job.json", "");
  EXPECT_EQ(job.chip.name, "v6e");
  EXPECT_EQ(job.chip.tileSpmemBytes, 1234);
  EXPECT_EQ(job.sparseCoresPerDevice, 2);  // v6e default
  j["chip"] = "tpu9z";
  EXPECT_NE(parseError(j.dump()).find("job.json: chip: unknown chip 'tpu9z'"), std::string::npos);
}

TEST(SparseCoreJobIo, BrokenJsonNamesLineAndColumn) {
  std::string e = parseError("{\n  \"devices\": 1,\n  \"tables\": [,]\n}");
  EXPECT_EQ(e.rfind("job.json:3:14: JSON parse error:", 0), 0u) << e;
}

TEST(SparseCoreJobIo, TruncatedJson) {
  std::string e = parseError("{\"devices\": 1");
  EXPECT_EQ(e.rfind("job.json:1:", 0), 0u) << e;
  EXPECT_NE(e.find("JSON parse error"), std::string::npos);
}

TEST(SparseCoreJobIo, MissingAndWrongFields) {
  nlohmann::json j = nlohmann::json::parse(kMinimal);
  j["tables"][0].erase("width");
  EXPECT_EQ(parseError(j.dump()), "job.json: tables[0].width: missing required field");

  j = nlohmann::json::parse(kMinimal);
  j["tables"][0]["vocab_size"] = "big";
  EXPECT_EQ(parseError(j.dump()),
            "job.json: tables[0].vocab_size: expected an integer, got a string");

  j = nlohmann::json::parse(kMinimal);
  j["allow_id_dropping"] = 1;
  EXPECT_EQ(parseError(j.dump()),
            "job.json: allow_id_dropping: expected true or false, got an integer");

  j = nlohmann::json::parse(kMinimal);
  j.erase("tables");
  EXPECT_EQ(parseError(j.dump()), "job.json: tables: missing required field");

  j = nlohmann::json::parse(kMinimal);
  j["features"][0]["samples"][1][0] = -3;
  EXPECT_EQ(parseError(j.dump()), "job.json: features[0].samples[1][0]: id -3 is negative");

  j = nlohmann::json::parse(kMinimal);
  j["features"][0]["samples"][0][2] = 5000;
  EXPECT_NE(parseError(j.dump()).find("is outside the vocabulary of table 't'"), std::string::npos);

  EXPECT_NE(parseError("[1, 2]").find("expected a JSON object"), std::string::npos);
}

TEST(SparseCoreJobIo, UnknownTable) {
  nlohmann::json j = nlohmann::json::parse(kMinimal);
  j["features"][0]["table"] = "nope";
  EXPECT_EQ(parseError(j.dump()),
            "job.json: features[0].table: unknown table 'nope' for feature 'f'");
}

TEST(SparseCoreJobIo, NonPowerOfTwoSparseCores) {
  nlohmann::json j = nlohmann::json::parse(kMinimal);
  j["sparse_cores_per_device"] = 3;
  std::string e = parseError(j.dump());
  EXPECT_EQ(e.rfind("job.json: sparse_cores_per_device: total SparseCores", 0), 0u) << e;
  EXPECT_NE(e.find("power of two"), std::string::npos);
}

TEST(SparseCoreJobIo, UnknownKeysAreWarnings) {
  nlohmann::json j = nlohmann::json::parse(kMinimal);
  j["allow_id_droping"] = true;  // typo
  std::vector<std::string> warnings;
  parseJob(j.dump(), "job.json", "", &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("allow_id_droping: unknown field"), std::string::npos);
}

TEST(SparseCoreJobIo, GeneratorFillsIds) {
  nlohmann::json j = nlohmann::json::parse(kMinimal);
  j["batch_size"] = 64;
  j["features"][0].erase("samples");
  j["features"][0]["generator"] = {
      {"distribution", "zipf"}, {"exponent", 1.2}, {"ids_per_sample", 3}, {"seed", 5}};
  Job job = parseJob(j.dump(), "job.json", "");
  EXPECT_EQ(job.features[0].ids.sampleCount(), 64u);
  EXPECT_EQ(job.features[0].ids.idCount(), 192u);
  j["features"][0]["generator"]["distribution"] = "normal";
  EXPECT_EQ(parseError(j.dump()),
            "job.json: features[0].generator.distribution: expected \"uniform\" or \"zipf\", got "
            "\"normal\"");
}

// A table's vocab_size of -1 is the table's error, not its generated
// feature's (issue 12, item 10: it was reported as features[0].generator).
TEST(SparseCoreJobIo, NegativeVocabularyBlamesTheTable) {
  nlohmann::json j = nlohmann::json::parse(kMinimal);
  j["tables"][0]["vocab_size"] = -1;
  j["features"][0].erase("samples");
  j["features"][0]["generator"] = {{"distribution", "uniform"}, {"ids_per_sample", 2}};
  EXPECT_EQ(parseError(j.dump()), "job.json: tables[0].vocab_size: must be positive for table 't'");
}

TEST(SparseCoreJobIo, FeatureWithoutIdsIsAnError) {
  nlohmann::json j = nlohmann::json::parse(kMinimal);
  j["features"][0].erase("samples");
  EXPECT_NE(parseError(j.dump()).find("features[0]: feature 'f' has no \"samples\""),
            std::string::npos);
}

TEST(SparseCoreJobIo, CsvIdsFromJobFile) {
  std::string csv = tempFile("ids.csv", "sample,feature,id\n0,f,1\n0,f,1\n2,f,7,0.5\n");
  nlohmann::json j = nlohmann::json::parse(kMinimal);
  j["features"][0].erase("samples");
  j["csv"] = std::filesystem::path(csv).filename().string();
  std::string jobPath = tempFile("job.json", j.dump());
  Job job = loadJobFile(jobPath);
  const IdBatch& b = job.features[0].ids;
  ASSERT_EQ(b.sampleCount(), 3u);
  EXPECT_EQ(b.rowStarts, (std::vector<uint64_t>{0, 2, 2, 3}));
  EXPECT_EQ(b.ids, (std::vector<uint32_t>{1, 1, 7}));
  EXPECT_EQ(b.weights, (std::vector<float>{1, 1, 0.5f}));
}

TEST(SparseCoreJobIo, CsvUnsortedSamplesAreRegrouped) {
  Job job = parseJob(kMinimal, "job.json", "");
  job.features[0].ids = IdBatch{};
  std::istringstream in("1,f,3\n0,f,4\n1,f,5\n");
  loadIdsCsv(job, in, "ids.csv");
  EXPECT_EQ(job.features[0].ids.rowStarts, (std::vector<uint64_t>{0, 1, 3}));
  EXPECT_EQ(job.features[0].ids.ids, (std::vector<uint32_t>{4, 3, 5}));
}

TEST(SparseCoreJobIo, MalformedCsvLinesNameTheLine) {
  auto csvError = [](const std::string& text) {
    Job job = parseJob(kMinimal, "job.json", "");
    job.features[0].ids = IdBatch{};
    std::istringstream in(text);
    return errorOf([&] { loadIdsCsv(job, in, "ids.csv"); });
  };
  EXPECT_EQ(
      csvError("sample,feature,id\n0,f\n"),
      "ids.csv:2: expected 3 or 4 comma-separated fields (sample,feature,id[,weight]), got 2");
  EXPECT_EQ(csvError("0,f,x\n"), "ids.csv:1: id 'x' is not a non-negative integer");
  EXPECT_EQ(csvError("0,f,1\n-1,f,2\n"), "ids.csv:2: sample '-1' is not a non-negative integer");
  EXPECT_EQ(csvError("0,g,1\n"), "ids.csv:1: unknown feature 'g' (not in the job's \"features\")");
  EXPECT_EQ(csvError("0,f,1,heavy\n"), "ids.csv:1: weight 'heavy' is not a number");
}

TEST(SparseCoreJobIo, MissingFiles) {
  EXPECT_EQ(errorOf([] { loadJobFile("/nonexistent/job.json"); }),
            "/nonexistent/job.json: cannot open file: No such file or directory");
}

TEST(SparseCoreJobIo, RoundTripThroughJson) {
  Job job = parseJob(kMinimal, "job.json", "");
  Job again = parseJob(jobToJson(job, true).dump(), "again.json", "");
  EXPECT_EQ(job, again);
}
