#include "sparsecore/id_generator.h"

#include <algorithm>
#include <cmath>

#include "io/machine_memory.h"
#include "sparsecore/errors.h"

namespace shardscope::sc {

static uint64_t splitmix(uint64_t& x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

Random::Random(uint64_t seed) {
  for (uint64_t& v : s_) v = splitmix(seed);
}

uint64_t Random::next() {
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double Random::uniform01() { return double(next() >> 11) * 0x1.0p-53; }

uint64_t Random::below(uint64_t bound) {
  // Multiply-shift range reduction; bias is negligible for our bounds.
  return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * bound) >> 64);
}

// h(x) = (x^(1-s) - 1) / (1 - s), the continuous stand-in for the Zipf
// cumulative weight; log(x) at s = 1.
double ZipfSampler::h(double x) const {
  const double logX = std::log(x);
  const double a = (1.0 - s_) * logX;
  return std::abs(a) < 1e-8 ? logX * (1.0 + a / 2.0) : std::expm1(a) / (1.0 - s_);
}

double ZipfSampler::hInverse(double y) const {
  double t = y * (1.0 - s_);
  if (t < -1.0) t = -1.0;  // rounding guard
  const double a = std::abs(t) < 1e-8 ? y * (1.0 - t / 2.0) : std::log1p(t) / (1.0 - s_);
  return std::exp(a);
}

ZipfSampler::ZipfSampler(uint64_t n, double exponent) : n_(n), s_(exponent) {
  hLow_ = h(1.5) - 1.0;  // mass of rank 1 is 1 = 1^-s
  hHigh_ = h(double(n) + 0.5);
  threshold_ = 2.0 - hInverse(h(2.5) - std::pow(2.0, -s_));
}

uint64_t ZipfSampler::sample(Random& rng) const {
  for (;;) {
    const double u = hHigh_ + rng.uniform01() * (hLow_ - hHigh_);
    const double x = hInverse(u);
    double k = std::floor(x + 0.5);
    if (k < 1) k = 1;
    if (k > double(n_)) k = double(n_);
    // Accept when x lands close enough to k, or u is under k's true mass.
    if (k - x <= threshold_ || u >= h(k + 0.5) - std::pow(k, -s_)) return static_cast<uint64_t>(k);
  }
}

int64_t generatedIdsLimit() {
  const uint64_t byMemory = io::physicalMemoryBytes() / 2 / kAnalysisBytesPerId;
  return byMemory < static_cast<uint64_t>(kMaxGeneratedIds) ? static_cast<int64_t>(byMemory)
                                                            : kMaxGeneratedIds;
}

IdBatch generateIds(const GeneratorSpec& spec, int64_t vocabSize, int64_t batchSize) {
  const int64_t vocab = spec.vocabSize > 0 ? spec.vocabSize : vocabSize;
  const int64_t batch = spec.batchSize > 0 ? spec.batchSize : batchSize;
  if (vocab < 1) throw InputError("generator: vocab_size must be positive");
  if (batch < 1)
    throw InputError(
        "generator: batch_size must be positive (set \"batch_size\" in the job or generator)");
  if (spec.idsPerSample < 0) throw InputError("generator: ids_per_sample must not be negative");
  if (spec.idsPerSampleMax != 0 && spec.idsPerSampleMax < spec.idsPerSample)
    throw InputError("generator: ids_per_sample_max must be at least ids_per_sample");
  if (spec.distribution == GeneratorSpec::Distribution::Zipf && !(spec.exponent > 0))
    throw InputError("generator: exponent must be positive");
  if (spec.hotFraction < 0 || spec.hotFraction > 1)
    throw InputError("generator: hot_fraction must be in [0, 1]");
  if (spec.hotIds < 0 || spec.hotIds > vocab)
    throw InputError("generator: hot_ids must be in [0, vocab_size]");

  const int64_t longest = std::max(spec.idsPerSample, spec.idsPerSampleMax);
  const int64_t limit = generatedIdsLimit();
  if (longest > 0 && batch > limit / longest)
    throw InputError("generator: batch_size x ids_per_sample exceeds " + std::to_string(limit) +
                     " ids" +
                     (limit < kMaxGeneratedIds ? " (what half of this machine's memory holds)"
                                               : ""));

  Random rng(spec.seed);
  ZipfSampler zipf(static_cast<uint64_t>(vocab), spec.exponent > 0 ? spec.exponent : 1.0);
  const bool isZipf = spec.distribution == GeneratorSpec::Distribution::Zipf;
  const bool hot = spec.hotIds > 0 && spec.hotFraction > 0;
  const int span = spec.idsPerSampleMax > 0 ? spec.idsPerSampleMax - spec.idsPerSample + 1 : 1;

  IdBatch out;
  out.rowStarts.reserve(static_cast<size_t>(batch) + 1);
  out.ids.reserve(static_cast<size_t>(batch) *
                  static_cast<size_t>(spec.idsPerSample + (span - 1) / 2));
  for (int64_t i = 0; i < batch; ++i) {
    const int len = spec.idsPerSample + (span > 1 ? static_cast<int>(rng.below(span)) : 0);
    for (int k = 0; k < len; ++k) {
      uint64_t id;
      if (hot && rng.uniform01() < spec.hotFraction)
        id = rng.below(static_cast<uint64_t>(spec.hotIds));
      else if (isZipf)
        id = zipf.sample(rng) - 1;
      else
        id = rng.below(static_cast<uint64_t>(vocab));
      out.ids.push_back(static_cast<uint32_t>(id));
    }
    out.rowStarts.push_back(out.ids.size());
  }
  return out;
}

}  // namespace shardscope::sc
