// Errors raised by the SparseCore model. Bad input and exceeded limits are
// ordinary outcomes for a user-facing tool, so they are exceptions carrying a
// finished, human-readable message (file, field or line, cause); callers
// print `what()` and exit 1.
#pragma once
#include <stdexcept>
#include <string>

namespace shardscope::sc {

// The job, CSV, trace or generator description is malformed or inconsistent.
// Message shape: "<source>: <field or line[:column]>: <cause>".
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The data exceeds a compiled limit and `allow_id_dropping` is false. The
// message is the reference implementation's text ("Observed max ids per
// partition: X for table: T is greater than the set max ids per partition: Y...").
class LimitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace shardscope::sc
