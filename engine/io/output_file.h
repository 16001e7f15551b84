// Writing an output (a file or stdout) and noticing when it failed: a full
// disk, /dev/full or a closed pipe must not end in a silent success. Write
// through stream(), then close() flushes and reports the first error.
//
//   io::OutputFile out;
//   if (!out.open(path, error)) ...;          // "-" is stdout
//   out.stream() << text;
//   if (!out.close(error)) ...;               // "cannot write 'x': No space left on device"
#pragma once
#include <fstream>
#include <ostream>
#include <string>

namespace shardscope::io {

class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Opens (truncates) `path`; "-" means stdout.
  bool open(const std::string& path, std::string& error);
  std::ostream& stream() { return *out_; }
  // Flushes and closes; false with `error` set when any write failed.
  bool close(std::string& error);
  const std::string& displayName() const { return name_; }

 private:
  std::ofstream file_;
  std::ostream* out_ = nullptr;
  std::string name_;
};

// Flushes stdout (C++ and C streams) and reports whether everything written
// to it arrived; for tools that print their results to stdout.
bool flushStdout(std::string& error);

}  // namespace shardscope::io
