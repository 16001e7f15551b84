#include "sparsecore/npy_array.h"

#include <algorithm>
#include <cstring>

#include "sparsecore/errors.h"

namespace shardscope::sc {

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& cause) {
  throw InputError(where + ": " + cause);
}

// The value text after `'key':` in the header dict, up to the next
// top-level comma (a shape tuple keeps its commas).
std::string_view headerValue(std::string_view header, std::string_view key, const std::string& where) {
  std::string quoted = "'" + std::string(key) + "'";
  size_t at = header.find(quoted);
  if (at == std::string_view::npos) fail(where, "the .npy header has no '" + std::string(key) + "'");
  size_t colon = header.find(':', at + quoted.size());
  if (colon == std::string_view::npos) fail(where, "the .npy header is malformed");
  size_t start = header.find_first_not_of(' ', colon + 1);
  if (start == std::string_view::npos) fail(where, "the .npy header is malformed");
  int depth = 0;
  size_t end = start;
  for (; end < header.size(); ++end) {
    char c = header[end];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if ((c == ',' && depth == 0) || c == '}') break;
  }
  return header.substr(start, end - start);
}

std::vector<int64_t> parseShape(std::string_view text, const std::string& where) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')')
    fail(where, "the .npy shape '" + std::string(text) + "' is not a tuple");
  std::vector<int64_t> shape;
  std::string_view inner = text.substr(1, text.size() - 2);
  size_t i = 0;
  while (i < inner.size()) {
    while (i < inner.size() && (inner[i] == ' ' || inner[i] == ',')) ++i;
    if (i >= inner.size()) break;
    int64_t n = 0;
    bool digits = false;
    while (i < inner.size() && inner[i] >= '0' && inner[i] <= '9') {
      if (n > (INT64_MAX - 9) / 10) fail(where, "the .npy shape is too large");
      n = n * 10 + (inner[i++] - '0');
      digits = true;
    }
    if (!digits) fail(where, "the .npy shape '" + std::string(text) + "' is not a tuple of sizes");
    shape.push_back(n);
  }
  return shape;
}

}  // namespace

NpyArray parseNpy(std::string_view bytes, const std::string& where) {
  static constexpr char kMagic[] = "\x93NUMPY";
  if (bytes.size() < 10 || bytes.substr(0, 6) != std::string_view(kMagic, 6))
    fail(where, "not a .npy array (bad magic)");
  const auto byteAt = [&](size_t i) { return static_cast<unsigned char>(bytes[i]); };
  unsigned major = byteAt(6);
  size_t headerLen = 0, headerStart = 0;
  if (major == 1) {
    headerLen = byteAt(8) | (size_t{byteAt(9)} << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) fail(where, "the .npy file is truncated in its header");
    headerLen = byteAt(8) | (size_t{byteAt(9)} << 8) | (size_t{byteAt(10)} << 16) | (size_t{byteAt(11)} << 24);
    headerStart = 12;
  } else {
    fail(where, "unsupported .npy version " + std::to_string(major));
  }
  if (bytes.size() - headerStart < headerLen) fail(where, "the .npy file is truncated in its header");
  std::string_view header = bytes.substr(headerStart, headerLen);

  std::string_view descr = headerValue(header, "descr", where);
  if (descr.size() < 2 || (descr.front() != '\'' && descr.front() != '"') || descr.back() != descr.front())
    fail(where, "the .npy dtype is not a string");
  descr = descr.substr(1, descr.size() - 2);
  if (descr.size() != 3 || (descr[0] != '<' && descr[0] != '>' && descr[0] != '|' && descr[0] != '=') ||
      (descr[1] != 'i' && descr[1] != 'u') || (descr[2] != '1' && descr[2] != '2' && descr[2] != '4' && descr[2] != '8'))
    fail(where, "dtype '" + std::string(descr) + "' is not an integer type (statistics are integer counts)");
  const bool bigEndian = descr[0] == '>';
  const bool isSigned = descr[1] == 'i';
  const size_t width = static_cast<size_t>(descr[2] - '0');
  std::string_view order = headerValue(header, "fortran_order", where);
  if (order != "False" && order != "True") fail(where, "the .npy header's fortran_order is malformed");
  const bool fortran = order == "True";

  NpyArray out;
  out.shape = parseShape(headerValue(header, "shape", where), where);
  size_t count = 1;
  for (int64_t d : out.shape)
    if (__builtin_mul_overflow(count, static_cast<size_t>(d), &count)) fail(where, "the .npy shape is too large");
  std::string_view body = bytes.substr(headerStart + headerLen);
  size_t need = 0;
  if (__builtin_mul_overflow(count, width, &need) || body.size() < need)
    fail(where, "the .npy data is truncated (" + std::to_string(body.size()) + " bytes for " +
                    std::to_string(count) + " elements of " + std::to_string(width) + " bytes)");
  out.values.resize(count);
  for (size_t k = 0; k < count; ++k) {
    uint64_t raw = 0;
    for (size_t b = 0; b < width; ++b) {
      unsigned char byte = static_cast<unsigned char>(body[k * width + b]);
      size_t shift = bigEndian ? (width - 1 - b) * 8 : b * 8;
      raw |= uint64_t{byte} << shift;
    }
    int64_t v;
    if (isSigned && width < 8 && (raw >> (width * 8 - 1)) & 1) {
      v = static_cast<int64_t>(raw | (~uint64_t{0} << (width * 8)));  // sign-extend
    } else if (!isSigned && width == 8 && raw > static_cast<uint64_t>(INT64_MAX)) {
      fail(where, "element " + std::to_string(k) + " does not fit in a signed 64-bit count");
    } else {
      v = static_cast<int64_t>(raw);
    }
    out.values[k] = v;
  }
  if (fortran && out.shape.size() == 2) {
    // Column-major on disk: transpose into row-major.
    size_t r = static_cast<size_t>(out.shape[0]), c = static_cast<size_t>(out.shape[1]);
    std::vector<int64_t> rowMajor(count);
    for (size_t i = 0; i < r; ++i)
      for (size_t j = 0; j < c; ++j) rowMajor[i * c + j] = out.values[j * r + i];
    out.values = std::move(rowMajor);
  } else if (fortran && out.shape.size() > 2) {
    fail(where, "Fortran-ordered arrays of more than two dimensions are not supported");
  }
  return out;
}

}  // namespace shardscope::sc
