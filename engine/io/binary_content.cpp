#include "io/binary_content.h"

#include <cstdint>
#include <cstdio>

namespace shardscope::io {

namespace {

// Length of the UTF-8 sequence starting at `s[i]`, or 0 when it is not a
// valid one. A sequence cut by the end of `s` counts as valid (the probe may
// stop in the middle of a character).
size_t utf8SequenceLength(std::string_view s, size_t i) {
  const auto lead = static_cast<unsigned char>(s[i]);
  size_t n = 0;
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf)
    n = 2;
  else if (lead >= 0xe0 && lead <= 0xef)
    n = 3;
  else if (lead >= 0xf0 && lead <= 0xf4)
    n = 4;
  else
    return 0;  // a continuation byte, an overlong lead or past U+10FFFF
  for (size_t k = 1; k < n; ++k) {
    if (i + k >= s.size()) return n;
    if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return 0;
  }
  return n;
}

}  // namespace

std::optional<std::string> binaryContentProblem(std::string_view content) {
  // MLIR bytecode starts with the magic "ML\xefR": say what it is and how to
  // get text from it.
  if (content.substr(0, 4) == std::string_view("ML\xef"
                                               "R",
                                               4))
    return std::string(
        "is an MLIR bytecode file, not MLIR text (print it as text with mlir-opt first)");
  const std::string_view probe = content.substr(0, kBinaryProbeBytes);
  for (size_t i = 0; i < probe.size();) {
    if (probe[i] == '\0')
      return "is a binary file (a NUL byte at offset " + std::to_string(i) + "), not MLIR text";
    const size_t n = utf8SequenceLength(probe, i);
    if (n == 0) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(probe[i]));
      return "is a binary file (byte " + std::string(hex) + " at offset " + std::to_string(i) +
             " is not UTF-8), not MLIR text";
    }
    i += n;
  }
  return std::nullopt;
}

}  // namespace shardscope::io
