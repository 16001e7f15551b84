#include "sparsecore/coo_buffer.h"

#include <climits>

#include "sparsecore/errors.h"
#include "sparsecore/minibatching.h"

namespace shardscope::sc {

namespace {

constexpr int64_t kAlignment = 8;  // ids per 32-byte vector register

int64_t roundUp(int64_t v, int64_t to) { return (v + to - 1) / to * to; }

int64_t saturatingProduct(std::initializer_list<int64_t> factors) {
  int64_t out = 1;
  for (int64_t f : factors)
    if (__builtin_mul_overflow(out, f, &out)) return INT64_MAX;
  return out;
}

}  // namespace

int64_t theoreticalMaxCooBufferSize(int64_t maxIdsPerPartition, int64_t globalDevices, int64_t scPerDevice,
                                    bool minibatching) {
  const int64_t sparseCores = saturatingProduct({globalDevices, scPerDevice});
  return saturatingProduct({roundUp(maxIdsPerPartition, kAlignment), scPerDevice, sparseCores,
                            minibatching ? kMinibatchingBuckets : 1});
}

int64_t cooBufferSizePerDevice(const std::string& stackedTable, int64_t maxIdsPerPartition, int64_t globalDevices,
                               int64_t scPerDevice, bool minibatching, std::optional<int64_t> suggested) {
  const int64_t max = theoreticalMaxCooBufferSize(maxIdsPerPartition, globalDevices, scPerDevice, minibatching);
  int64_t size = max;
  if (suggested) {
    const int64_t step = kAlignment * scPerDevice;
    size = *suggested > INT64_MAX - step ? INT64_MAX : roundUp(*suggested, step);
    if (size > max)
      throw LimitError("Suggested Coo Buffer Size is larger than the theoretical max for table " + stackedTable +
                       ": " + std::to_string(size) + " vs " + std::to_string(max) +
                       ". Adjust the suggested size or the max_ids_per_partition values.");
  }
  if (size <= 0 || size >= INT_MAX)
    throw InputError("Computed Coo Buffer Size (" + std::to_string(size) + ") for table " + stackedTable +
                     " is out of the valid range (0, INT_MAX).");
  return size;
}

}  // namespace shardscope::sc
