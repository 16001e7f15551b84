#include "io/input_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>

namespace shardscope::io {

namespace {

namespace fs = std::filesystem;

// Appends `in` to `text` in blocks until end of input; stops with an error as
// soon as more than `maxBytes` arrived.
bool readStream(std::istream& in, const std::string& name, uint64_t maxBytes, std::string& text,
                std::string& error) {
  constexpr size_t kBlock = size_t{1} << 20;
  size_t used = 0;
  try {
    while (in) {
      // One byte past the limit tells "exactly at the limit" from "over it".
      uint64_t room = maxBytes + 1 - used;
      size_t want = room < kBlock ? static_cast<size_t>(room) : kBlock;
      if (want == 0) break;
      text.resize(used + want);
      in.read(text.data() + used, static_cast<std::streamsize>(want));
      used += static_cast<size_t>(in.gcount());
      if (used > maxBytes) break;
    }
    if (in.bad()) {
      error = name + ": read error";
      return false;
    }
  } catch (const std::bad_alloc&) {
    text.clear();
    text.shrink_to_fit();
    error = name + ": does not fit in memory (" + describeByteCount(used) + " read)";
    return false;
  }
  if (used > maxBytes) {
    text.clear();
    text.shrink_to_fit();
    error = name + ": larger than the input limit of " + describeByteCount(maxBytes);
    return false;
  }
  text.resize(used);
  return true;
}

}  // namespace

bool readInputFile(const std::string& path, uint64_t maxBytes, std::string& text,
                   std::string& error) {
  text.clear();
  if (path == "-") return readStream(std::cin, "<stdin>", maxBytes, text, error);
  if (!checkInputPath(path, error)) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot open file: " + std::strerror(errno);
    return false;
  }
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) {
    uintmax_t size = fs::file_size(path, ec);
    if (!ec && size > maxBytes) {
      error = path + ": larger than the input limit of " + describeByteCount(maxBytes);
      return false;
    }
    // One allocation for the usual case; the read below still stops at the
    // limit if the file grows meanwhile.
    if (!ec) {
      try {
        text.reserve(static_cast<size_t>(size) + 1);
      } catch (const std::bad_alloc&) {
        error = path + ": does not fit in memory (" + describeByteCount(size) + ")";
        return false;
      }
    }
  }
  return readStream(in, path, maxBytes, text, error);
}

bool checkInputPath(const std::string& path, std::string& error) {
  std::error_code ec;
  fs::file_status status = fs::status(path, ec);
  if (ec) {
    error = path + ": cannot open file: " + ec.message();
    return false;
  }
  if (fs::is_directory(status)) {
    error = path + ": is a directory, not a file";
    return false;
  }
  if (fs::is_block_file(status) || fs::is_character_file(status) || fs::is_socket(status)) {
    error = path + ": is a device, not a file";
    return false;
  }
  return true;
}

std::string describeByteCount(uint64_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  uint64_t whole = bytes;
  while (unit < 4 && whole >= 1024 && whole % 1024 == 0) {
    whole /= 1024;
    ++unit;
  }
  if (unit == 0 && bytes >= 1024) {  // not a round number: one decimal in the largest unit
    double v = static_cast<double>(bytes);
    while (unit < 4 && v >= 1024) {
      v /= 1024;
      ++unit;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %s", v, units[unit]);
    return buf;
  }
  return std::to_string(whole) + " " + units[unit];
}

}  // namespace shardscope::io
