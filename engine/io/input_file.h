// Reading a whole input (a file or stdin) with a size limit, so that a
// device like /dev/zero, a directory or a runaway pipe gives a clear message
// instead of exhausting memory or reading as an empty file.
//
//   std::string text, error;
//   if (!io::readInputFile("-", io::kDefaultMaxInputBytes, text, error))
//     std::cerr << "shardscope-opt: " << error << '\n';
//   // e.g. "<stdin>: larger than the input limit of 256 MiB"
#pragma once
#include <cstdint>
#include <string>

namespace shardscope::io {

// The default limit: well above the largest real module (a few tens of MiB)
// and small enough that reading and parsing it fits in a workstation's memory.
inline constexpr uint64_t kDefaultMaxInputBytes = uint64_t{256} << 20;

// Reads all of `path` ("-" reads stdin) into `text`. Accepts regular files
// and streams (stdin, pipes, FIFOs); refuses directories and devices. Fails
// with `error` set (naming the file, without a tool prefix) when the input
// cannot be opened, is not readable data, exceeds `maxBytes` or does not fit
// in memory. Errors read "PATH: CAUSE" ("job.json: cannot open file: No such
// file or directory", "/tmp: is a directory, not a file").
bool readInputFile(const std::string& path, uint64_t maxBytes, std::string& text,
                   std::string& error);

// For readers that stream a file themselves: false with `error` set when
// `path` is missing, a directory or a device (the checks readInputFile makes
// before reading).
bool checkInputPath(const std::string& path, std::string& error);

// "256 MiB", "3 KiB", "17 bytes": a byte count for messages.
std::string describeByteCount(uint64_t bytes);

}  // namespace shardscope::io
