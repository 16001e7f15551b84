#include "sparsecore/csv_rows.h"

#include <charconv>
#include <cstdint>
#include <string>
#include <vector>

namespace shardscope::sc {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

[[noreturn]] void fail(std::string cause) { throw CsvRowError{std::move(cause)}; }

template <class T>
bool parseWhole(std::string_view field, T& value) {
  auto r = std::from_chars(field.data(), field.data() + field.size(), value);
  return !field.empty() && r.ec == std::errc() && r.ptr == field.data() + field.size();
}

// Digits up to the first non-digit; false when there are none or more
// than 19 (which could overflow).
inline bool digits(const char*& p, const char* end, uint64_t& value) {
  const char* start = p;
  uint64_t v = 0;
  while (p < end && static_cast<unsigned>(*p - '0') < 10u) v = v * 10 + static_cast<unsigned>(*p++ - '0');
  value = v;
  return p != start && p - start <= 19;
}

// The general path: fields split on commas and trimmed.
CsvLineKind parseGeneral(std::string_view line, bool firstLine, CsvIdRow& row) {
  line = trim(line);
  if (line.empty() || line.front() == '#') return CsvLineKind::Skip;
  std::string_view fields[5];
  int nf = 0;
  size_t start = 0;
  for (;;) {
    size_t comma = line.find(',', start);
    if (nf == 5) fail("too many fields; expected sample,feature,id[,weight]");
    fields[nf++] = trim(line.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (firstLine && fields[0] == "sample") return CsvLineKind::Header;
  if (nf < 3 || nf > 4)
    fail("expected 3 or 4 comma-separated fields (sample,feature,id[,weight]), got " +
         std::to_string(nf));
  if (!parseWhole(fields[0], row.sample))
    fail("sample '" + std::string(fields[0]) + "' is not a non-negative integer");
  row.feature = fields[1];
  if (!parseWhole(fields[2], row.id))
    fail("id '" + std::string(fields[2]) + "' is not a non-negative integer");
  if (row.id > UINT32_MAX) fail("id " + std::to_string(row.id) + " does not fit 32 bits");
  row.hasWeight = nf == 4;
  row.weight = 1.0f;
  if (row.hasWeight && !parseWhole(fields[3], row.weight))
    fail("weight '" + std::string(fields[3]) + "' is not a number");
  return CsvLineKind::Row;
}

}  // namespace

CsvLineKind parseCsvIdLine(std::string_view line, bool firstLine, CsvIdRow& row) {
  // Fast path for the plain form "123,name,456" or "123,name,456,0.5":
  // anything unusual (spaces, signs, comments, a header) takes the general
  // path, which gives the same result and the error messages.
  const char* p = line.data();
  const char* end = p + line.size();
  if (end > p && end[-1] == '\r') --end;
  if (!digits(p, end, row.sample) || p == end || *p != ',') return parseGeneral(line, firstLine, row);
  const char* name = ++p;
  while (p < end && *p != ',' && *p != ' ' && *p != '\t') ++p;
  if (p == end || *p != ',' || p == name) return parseGeneral(line, firstLine, row);
  row.feature = std::string_view(name, static_cast<size_t>(p - name));
  ++p;
  if (!digits(p, end, row.id) || row.id > UINT32_MAX) return parseGeneral(line, firstLine, row);
  row.hasWeight = false;
  row.weight = 1.0f;
  if (p == end) return CsvLineKind::Row;
  if (*p != ',') return parseGeneral(line, firstLine, row);
  ++p;
  auto r = std::from_chars(p, end, row.weight);
  if (p == end || r.ec != std::errc() || r.ptr != end) return parseGeneral(line, firstLine, row);
  row.hasWeight = true;
  return CsvLineKind::Row;
}

}  // namespace shardscope::sc
