// Telling text from binary data, so that opening an executable or an
// archive says "binary" instead of a parse error at 1:1 (or an editor full
// of replacement characters that then looks edited).
//
//   io::binaryContentProblem("module {}\n")          -> nullopt (text)
//   io::binaryContentProblem("ML\xefR\0...")          -> "is an MLIR bytecode file, ..."
//   io::binaryContentProblem("\x7f" "ELF\x02\x01...") -> "is a binary file (a NUL byte at offset
//   7), ..."
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace shardscope::io {

// Why `content` is not text (without a file name: "is a binary file (...)"),
// or nullopt for text. Text is UTF-8 without NUL bytes; only the first
// kBinaryProbeBytes are looked at, so a large module costs nothing.
std::optional<std::string> binaryContentProblem(std::string_view content);

inline constexpr size_t kBinaryProbeBytes = size_t{64} << 10;

}  // namespace shardscope::io
