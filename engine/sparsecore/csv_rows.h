// The rows of an ids CSV (`sample,feature,id[,weight]`), shared by the
// loader that builds ragged batches (csv_ids.h) and the streaming analysis
// (csv_stream.h): splitting a stream into lines without copying them, and a
// line into its fields, with the cause of a bad line in words.
//
// Example: "12,user,17" is {sample 12, feature "user", id 17, weight 1};
// "sample,feature,id" on the first line is a header; "# ..." and blank
// lines are skipped; "x,user,1" fails with "sample 'x' is not a
// non-negative integer".
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::sc {

struct CsvIdRow {
  uint64_t sample = 0;
  std::string_view feature;  // into the line
  uint64_t id = 0;           // checked to fit 32 bits
  float weight = 1.0f;
  bool hasWeight = false;
};

// Header: the first line named its columns ("sample,..."); Skip: a blank
// line or a comment. Only a Row or a Header ends the lines where a header may
// stand.
enum class CsvLineKind { Row, Skip, Header };

// Parses one line (without its '\n'). `firstLine` allows the header.
// Throws CsvRowError with the cause (the caller adds file and line).
CsvLineKind parseCsvIdLine(std::string_view line, bool firstLine, CsvIdRow& row);

struct CsvRowError {
  std::string cause;
};

// Calls onLine(line) for every line of `in`, read in chunks of `chunkBytes`
// (lines are views valid during the call; a last line without '\n' counts).
// A template: a billion lines cannot afford an indirect call each. At most
// `maxBytes` bytes are read (a range of a file that starts at a line).
template <class OnLine>
void forEachCsvLine(std::istream& in, size_t chunkBytes, OnLine&& onLine,
                    uint64_t maxBytes = UINT64_MAX) {
  std::vector<char> buf(chunkBytes);
  std::string carry;
  while (in && maxBytes > 0) {
    in.read(buf.data(), static_cast<std::streamsize>(std::min<uint64_t>(buf.size(), maxBytes)));
    const size_t got = static_cast<size_t>(in.gcount());
    if (got == 0) break;
    maxBytes -= got;
    const char* chunk = buf.data();
    const char* end = chunk + got;
    const char* pos = chunk;
    if (!carry.empty()) {
      const char* nl = static_cast<const char*>(std::memchr(pos, '\n', got));
      if (!nl) {
        carry.append(chunk, got);
        continue;
      }
      carry.append(pos, static_cast<size_t>(nl - pos));
      onLine(std::string_view(carry));
      carry.clear();
      pos = nl + 1;
    }
    for (;;) {
      const char* nl = static_cast<const char*>(std::memchr(pos, '\n', static_cast<size_t>(end - pos)));
      if (!nl) {
        carry.assign(pos, static_cast<size_t>(end - pos));
        break;
      }
      onLine(std::string_view(pos, static_cast<size_t>(nl - pos)));
      pos = nl + 1;
    }
  }
  if (!carry.empty()) onLine(std::string_view(carry));
}

}  // namespace shardscope::sc
