// Host preprocessing straight from an ids CSV, in constant memory: the file
// is read once, sample by sample, and only per-source counters and one
// column bitmap per stack are kept (never the ids), so a billion ids need
// no more memory than a thousand. It reports what preprocess() reports for
// the same ids (same counts, limits, mini-batching), except that dropped
// ids, which need a SparseCore's entries sorted, are a lower bound.
//
// Requirements (checked, with the line): rows sorted by sample, and one
// batch for every feature: the job's batch_size, or else the last row's
// sample + 1 (lastCsvSample).
//
// Example: `shardscope-sc analyze job.json --csv ids.csv --stream`.
#pragma once
#include <cstdint>
#include <istream>
#include <string>

#include "sparsecore/job.h"
#include "sparsecore/preprocessing.h"

namespace shardscope::sc {

// Preprocesses the ids of `in` for the job's features (which must have no
// samples of their own); `batch` samples per feature.
PreprocessResult preprocessCsvStream(const Job& job, std::istream& in, const std::string& source,
                                     int64_t batch);

// The sample index of the last row of a CSV file (reads only its tail);
// -1 when it has no rows. Throws InputError naming the file.
int64_t lastCsvSample(const std::string& path);

// Opens `path` and streams it: the job's batch_size, or the last sample + 1.
// Files of at least `threadsAbove` bytes are split at SparseCore boundaries
// over the cores (a file out of order is then read again in one pass, which
// names the first row out of order).
PreprocessResult preprocessCsvFile(const Job& job, const std::string& path,
                                   uint64_t threadsAbove = uint64_t{64} << 20);

}  // namespace shardscope::sc
