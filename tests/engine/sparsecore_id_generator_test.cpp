// Synthetic ids: determinism, ranges, skew.
#include <gtest/gtest.h>

#include <algorithm>

#include "io/machine_memory.h"
#include "sparsecore/errors.h"
#include "sparsecore/id_generator.h"

using namespace shardscope::sc;

TEST(SparseCoreIdGenerator, SameSeedSameBatch) {
  GeneratorSpec g{.distribution = GeneratorSpec::Distribution::Zipf, .idsPerSample = 3, .seed = 42};
  EXPECT_EQ(generateIds(g, 1000, 100), generateIds(g, 1000, 100));
  GeneratorSpec h = g;
  h.seed = 43;
  EXPECT_NE(generateIds(g, 1000, 100), generateIds(h, 1000, 100));
}

TEST(SparseCoreIdGenerator, IdsStayInVocabulary) {
  for (auto d : {GeneratorSpec::Distribution::Uniform, GeneratorSpec::Distribution::Zipf}) {
    GeneratorSpec g{.distribution = d, .exponent = 0.7, .idsPerSample = 2, .idsPerSampleMax = 6};
    IdBatch b = generateIds(g, 37, 500);
    EXPECT_EQ(b.sampleCount(), 500u);
    for (uint32_t id : b.ids) EXPECT_LT(id, 37u);
    for (size_t i = 0; i < b.sampleCount(); ++i) {
      EXPECT_GE(b.sample(i).size(), 2u);
      EXPECT_LE(b.sample(i).size(), 6u);
    }
  }
}

TEST(SparseCoreIdGenerator, ZipfIsSkewedTowardsLowIds) {
  GeneratorSpec g{
      .distribution = GeneratorSpec::Distribution::Zipf, .exponent = 1.2, .idsPerSample = 1};
  IdBatch b = generateIds(g, 100000, 20000);
  const auto zeros = std::count(b.ids.begin(), b.ids.end(), 0u);
  const auto ones = std::count(b.ids.begin(), b.ids.end(), 1u);
  // P(1) / P(2) = 2^1.2 ~ 2.3 for ranks 1 and 2.
  EXPECT_GT(zeros, 2000);
  EXPECT_NEAR(double(zeros) / double(ones), 2.3, 0.4);
}

TEST(SparseCoreIdGenerator, HotIdsTakeTheirShare) {
  GeneratorSpec g{.idsPerSample = 1, .hotIds = 4, .hotFraction = 0.5};
  IdBatch b = generateIds(g, 1 << 20, 10000);
  const auto hot = std::count_if(b.ids.begin(), b.ids.end(), [](uint32_t id) { return id < 4; });
  EXPECT_NEAR(double(hot) / 10000.0, 0.5, 0.03);
}

TEST(SparseCoreIdGenerator, BadSpecs) {
  EXPECT_THROW(generateIds(GeneratorSpec{}, 0, 10), InputError);
  EXPECT_THROW(generateIds(GeneratorSpec{}, 10, 0), InputError);
  EXPECT_THROW(generateIds(GeneratorSpec{.hotFraction = 2}, 10, 10), InputError);
}

// The id cap follows the machine: never above 2^30, never more than half its
// memory holds through an analysis; asking for more fails before generating.
TEST(SparseCoreIdGenerator, IdsAreBoundedByTheMachine) {
  const int64_t limit = generatedIdsLimit();
  EXPECT_GT(limit, 0);
  EXPECT_LE(limit, kMaxGeneratedIds);
  EXPECT_LE(static_cast<uint64_t>(limit) * kAnalysisBytesPerId,
            shardscope::io::physicalMemoryBytes() / 2 + kAnalysisBytesPerId);
  GeneratorSpec g{.idsPerSample = 1024};
  try {
    generateIds(g, 1000, limit / 1024 + 1);
    ADD_FAILURE() << "expected the id limit to be reported";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("exceeds " + std::to_string(limit) + " ids"),
              std::string::npos)
        << e.what();
  }
}
