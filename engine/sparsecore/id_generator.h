// Seeded synthetic ids: uniform or Zipf-distributed over a vocabulary, with
// an optional set of hot ids that take a fixed share of the lookups. The
// same spec and seed always give the same batch (xoshiro256** stream).
//
// Zipf rank r (1-based) maps to id r - 1, so the hottest ids are 0, 1, 2...
// Mod sharding then spreads them over partitions 0, 1, 2...; a high
// exponent piles the ids of a batch onto few partitions (drops, mini-batches).
#pragma once
#include <cstdint>

#include "sparsecore/id_batch.h"
#include "sparsecore/job.h"

namespace shardscope::sc {

// Small, fast PRNG (xoshiro256**, seeded through splitmix64).
class Random {
 public:
  explicit Random(uint64_t seed);
  uint64_t next();
  double uniform01();              // [0, 1)
  uint64_t below(uint64_t bound);  // [0, bound)
 private:
  uint64_t s_[4];
};

// Zipf sampler over 1..n with exponent s > 0 by rejection-inversion: O(1)
// per draw, no table, so vocabularies of billions are fine.
class ZipfSampler {
 public:
  ZipfSampler(uint64_t n, double exponent);
  uint64_t sample(Random& rng) const;

 private:
  double h(double x) const;  // integral of x^-s
  double hInverse(double y) const;
  uint64_t n_;
  double s_;
  double hLow_, hHigh_, threshold_;
};

// Upper bound on the ids one generator may produce (4 GB of ids); on a
// smaller machine, what half its memory holds through the analysis
// (generatedIdsLimit()).
inline constexpr int64_t kMaxGeneratedIds = int64_t{1} << 30;
// Bytes one id costs from generation through the analysis (ids, weights,
// partition and minibatch copies): a full analysis of 2^30 ids was seen to
// take about 20 GB.
inline constexpr int64_t kAnalysisBytesPerId = 20;
// min(kMaxGeneratedIds, half this machine's memory / kAnalysisBytesPerId).
int64_t generatedIdsLimit();

// Generates `batchSize` samples (spec.batchSize wins when set) with ids in
// [0, vocab) (spec.vocabSize wins when set). Throws InputError on a bad spec.
IdBatch generateIds(const GeneratorSpec& spec, int64_t vocabSize, int64_t batchSize);

}  // namespace shardscope::sc
