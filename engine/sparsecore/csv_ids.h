// Ids from CSV, one lookup per line: `sample,feature,id[,weight]`, with an
// optional header line starting with "sample". Read in 1 MiB chunks and
// appended straight into each feature's ragged batch while the sample
// index does not go backwards (the common, sorted case); unsorted input is
// regrouped once at the end.
//
// Example:
//   sample,feature,id
//   0,user,17
//   0,user,17      <- repeated id in sample 0: merged by the preprocessing
//   1,user,3
// Errors: InputError "<file>:<line>: <cause>".
#pragma once
#include <istream>
#include <ostream>
#include <string>

#include "sparsecore/job.h"

namespace shardscope::sc {

// Fills the ids of the job's features named in the CSV. A feature that
// already has samples (inline or generated) may not appear in the CSV.
void loadIdsCsv(Job& job, std::istream& in, const std::string& source);
void loadIdsCsvFile(Job& job, const std::string& path);

// Writes the job's ids as CSV with a header, sorted by sample (all
// features of sample 0, then sample 1, ...), the order streaming needs.
// Stops early when the stream fails; the caller checks it.
void writeIdsCsv(const Job& job, std::ostream& out);

}  // namespace shardscope::sc
