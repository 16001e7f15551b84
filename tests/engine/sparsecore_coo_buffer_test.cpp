// The COO buffer per device (engine/sparsecore/coo_buffer), with the vectors
// of jax-tpu-embedding's input_preprocessing_util_test.cc,
// InputPreprocessingUtilTest.ComputeCooBufferSize.
#include <gtest/gtest.h>

#include "sparsecore/coo_buffer.h"
#include "sparsecore/errors.h"

namespace shardscope::sc {
namespace {

// One device of 4 SparseCores, max_ids_per_partition 16.
TEST(CooBuffer, ReferenceVectors) {
  EXPECT_EQ(theoreticalMaxCooBufferSize(16, 1, 4, false), 16 * 4 * 4);
  EXPECT_EQ(cooBufferSizePerDevice("table_0", 16, 1, 4, false, std::nullopt), 256);
  EXPECT_EQ(cooBufferSizePerDevice("table_0", 16, 1, 4, false, 48), 64);  // rounded up to 8 x 4
  EXPECT_EQ(cooBufferSizePerDevice("table_0", 16, 1, 4, false, 96), 96);
  try {
    cooBufferSizePerDevice("table_0", 16, 1, 4, false, 1024);
    FAIL() << "a suggestion above the theoretical max must fail";
  } catch (const LimitError& e) {
    EXPECT_STREQ(e.what(),
                 "Suggested Coo Buffer Size is larger than the theoretical max for table table_0: 1024 vs 256. "
                 "Adjust the suggested size or the max_ids_per_partition values.");
  }
}

TEST(CooBuffer, MinibatchingPacksEveryBucketIntoOneBuffer) {
  // roundup8(13) = 16; 2 devices x 4 SparseCores = 8; x 64 buckets.
  EXPECT_EQ(theoreticalMaxCooBufferSize(13, 2, 4, true), 16 * 4 * 8 * 64);
}

TEST(CooBuffer, SizesPastIntMaxAreRejectedNotWrapped) {
  EXPECT_EQ(theoreticalMaxCooBufferSize(INT64_MAX / 2, 1 << 20, 1 << 20, true), INT64_MAX);
  EXPECT_THROW(cooBufferSizePerDevice("t", 1 << 20, 1024, 64, true, std::nullopt), InputError);
  EXPECT_THROW(cooBufferSizePerDevice("t", 16, 1, 4, false, INT64_MAX), LimitError);
}

}  // namespace
}  // namespace shardscope::sc
