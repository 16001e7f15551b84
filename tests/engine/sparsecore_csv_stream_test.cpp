// Streaming the ids CSV: the same statistics as loading it whole on the
// sample jobs (stacking, explicit placement, mini-batching, dropping as a
// lower bound), and the errors a stream can meet, with their lines.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "sparsecore/csv_ids.h"
#include "sparsecore/csv_stream.h"
#include "sparsecore/errors.h"
#include "sparsecore/job_io.h"

using namespace shardscope::sc;

namespace {

std::string sampleJob(const std::string& name) {
  return std::string(SHARDSCOPE_SOURCE_DIR) + "/sample_models/sparsecore/" + name;
}

// The job without its ids, as a streaming caller holds it.
Job withoutIds(Job job) {
  for (FeatureSpec& f : job.features) {
    f.ids = IdBatch{};
    f.generator.reset();
  }
  return job;
}

int64_t batchOf(const Job& job) {
  size_t batch = 0;
  for (const FeatureSpec& f : job.features) batch = std::max(batch, f.ids.sampleCount());
  return std::max<int64_t>(static_cast<int64_t>(batch), job.batchSize);
}

PreprocessResult streamed(const Job& job) {
  std::stringstream csv;
  writeIdsCsv(job, csv);
  return preprocessCsvStream(withoutIds(job), csv, "ids.csv", batchOf(job));
}

std::string streamError(const Job& job, const std::string& csvText, int64_t batch) {
  std::stringstream csv(csvText);
  try {
    preprocessCsvStream(withoutIds(job), csv, "ids.csv", batch);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

class SparseCoreCsvStream : public ::testing::TestWithParam<const char*> {};

// Every count the summary reports is the same as in memory.
TEST_P(SparseCoreCsvStream, MatchesTheInMemoryAnalysis) {
  Job job = loadJobFile(sampleJob(GetParam()));
  PreprocessResult whole = preprocess(job);
  PreprocessResult stream = streamed(job);
  ASSERT_EQ(stream.stats.size(), whole.stats.size());
  for (size_t s = 0; s < whole.stats.size(); ++s) {
    const StackStats& a = whole.stats[s];
    const StackStats& b = stream.stats[s];
    EXPECT_EQ(b.name, a.name);
    EXPECT_EQ(b.idsPerSourcePartition, a.idsPerSourcePartition) << a.name;
    EXPECT_EQ(b.uniqueIdsPerSourcePartition, a.uniqueIdsPerSourcePartition) << a.name;
    EXPECT_EQ(b.maxIdsPerPartition, a.maxIdsPerPartition) << a.name;
    EXPECT_EQ(b.maxUniqueIdsPerPartition, a.maxUniqueIdsPerPartition) << a.name;
    EXPECT_EQ(b.requiredBufferPerSparseCore, a.requiredBufferPerSparseCore) << a.name;
    EXPECT_EQ(b.memberIdsPerPartition, a.memberIdsPerPartition) << a.name;
    EXPECT_EQ(b.inputIds, a.inputIds) << a.name;
    EXPECT_EQ(b.idsAfterMerge, a.idsAfterMerge) << a.name;
    EXPECT_EQ(b.samplesPerSparseCore, a.samplesPerSparseCore) << a.name;
    EXPECT_EQ(b.maxUniqueIdsPerSample, a.maxUniqueIdsPerSample) << a.name;
    EXPECT_EQ(b.maxIdsPerBucket, a.maxIdsPerBucket) << a.name;
    EXPECT_EQ(b.maxUniqueIdsPerBucket, a.maxUniqueIdsPerBucket) << a.name;
    EXPECT_EQ(b.split, a.split) << a.name;
    // Dropping needs the sorted entries: streaming gives a lower bound.
    EXPECT_LE(b.droppedIds, a.droppedIds) << a.name;
    EXPECT_EQ(b.droppedIds > 0, a.droppedIds > 0) << a.name;
  }
  EXPECT_EQ(stream.minibatchingRequired, whole.minibatchingRequired);
  EXPECT_EQ(stream.minibatches, whole.minibatches);
  EXPECT_EQ(stream.limitError, whole.limitError);
  EXPECT_EQ(stream.maxIdsPerSample, whole.maxIdsPerSample);
  EXPECT_EQ(stream.samplesOverChipLimit, whole.samplesOverChipLimit);
}

INSTANTIATE_TEST_SUITE_P(SampleJobs, SparseCoreCsvStream,
                         ::testing::Values("stacked_tables.json", "explicit_stacking.json",
                                           "zipf_minibatching.json", "zipf_dropping.json",
                                           "dlrm_like.json"),
                         [](const auto& info) {
                           std::string name = info.param;
                           return name.substr(0, name.find('.'));
                         });

TEST(SparseCoreCsvStreamErrors, UnsortedRowsNameTheLine) {
  Job job = loadJobFile(sampleJob("explicit_stacking.json"));
  EXPECT_EQ(streamError(job, "sample,feature,id\n3,feature_0,1\n1,feature_0,2\n", 16),
            "ids.csv:3: sample 1 after sample 3: streaming needs the rows sorted by sample "
            "(analyze without --stream to load unsorted files whole)");
}

TEST(SparseCoreCsvStreamErrors, BadRowsNameTheLine) {
  Job job = loadJobFile(sampleJob("explicit_stacking.json"));
  EXPECT_EQ(streamError(job, "0,nope,1\n", 16),
            "ids.csv:1: unknown feature 'nope' (not in the job's \"features\")");
  EXPECT_EQ(streamError(job, "0,feature_1,1\n0,feature_1,99\n", 16),
            "ids.csv:2: id 99 is outside the vocabulary of table 'table_1' (vocab_size 16)");
  EXPECT_EQ(streamError(job, "# ids\n0,feature_1,x\n", 16),
            "ids.csv:2: id 'x' is not a non-negative integer");
  EXPECT_EQ(streamError(job, "0,feature_1,1\n16,feature_1,1\n", 16),
            "ids.csv:2: sample index 16 is not below the batch of 16 samples");
}

TEST(SparseCoreCsvStreamErrors, FeaturesWithInlineSamplesAreRefused) {
  Job job = loadJobFile(sampleJob("explicit_stacking.json"));
  std::stringstream csv("0,feature_0,1\n");
  EXPECT_THROW(preprocessCsvStream(job, csv, "ids.csv", 16), InputError);
}

TEST(SparseCoreCsvStream, SpacesAndWeightsTakeTheGeneralPath) {
  Job job = loadJobFile(sampleJob("explicit_stacking.json"));
  std::stringstream plain("0,feature_0,5\n0,feature_0,18\n");
  std::stringstream spaced("sample,feature,id,weight\n 0 , feature_0 , 5 , 0.5\r\n0,feature_0,18,2\n");
  PreprocessResult a = preprocessCsvStream(withoutIds(job), plain, "a.csv", 16);
  PreprocessResult b = preprocessCsvStream(withoutIds(job), spaced, "b.csv", 16);
  EXPECT_EQ(a.stats[0].idsPerSourcePartition, b.stats[0].idsPerSourcePartition);
  EXPECT_EQ(a.stats[0].inputIds, 2);
}

TEST(SparseCoreCsvStream, LastSampleIsReadFromTheTail) {
  const std::string path = ::testing::TempDir() + "/shardscope_tail_ids.csv";
  {
    std::ofstream out(path);
    out << "sample,feature,id\n";
    for (int s = 0; s < 20000; ++s) out << s << ",user," << s % 7 << "\n";
    out << "# trailing comment\n\n";
  }
  EXPECT_EQ(lastCsvSample(path), 19999);
  {
    std::ofstream out(path);
    out << "sample,feature,id\n";
  }
  EXPECT_EQ(lastCsvSample(path), -1);
  {
    std::ofstream out(path);
    out << "0,user,1\n7,user,2";  // no final newline
  }
  EXPECT_EQ(lastCsvSample(path), 7);
  std::remove(path.c_str());
}

// A file split over threads at SparseCore boundaries gives the one-pass
// result; an unsorted file falls back to one pass, which names the line.
TEST(SparseCoreCsvStream, FileSplitOverThreadsMatchesOnePass) {
  Job job = loadJobFile(sampleJob("stacked_tables.json"));
  const std::string path = ::testing::TempDir() + "/shardscope_split_ids.csv";
  {
    std::ofstream out(path);
    writeIdsCsv(job, out);
  }
  Job bare = withoutIds(job);
  bare.batchSize = batchOf(job);
  PreprocessResult split = preprocessCsvFile(bare, path, 0);
  std::ifstream in(path);
  PreprocessResult one = preprocessCsvStream(bare, in, path, bare.batchSize);
  ASSERT_EQ(split.stats.size(), one.stats.size());
  for (size_t s = 0; s < one.stats.size(); ++s) EXPECT_EQ(split.stats[s], one.stats[s]);
  EXPECT_EQ(split.maxIdsPerSample, one.maxIdsPerSample);

  {
    std::ofstream out(path);
    out << "sample,feature,id\n";
    for (int s = 2047; s >= 0; --s) out << s << ",f0," << s % 100 << "\n";
  }
  try {
    preprocessCsvFile(bare, path, 0);
    ADD_FAILURE() << "an unsorted file was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              path + ":3: sample 2046 after sample 2047: streaming needs the rows sorted by "
                     "sample (analyze without --stream to load unsorted files whole)");
  }
  std::remove(path.c_str());
}
