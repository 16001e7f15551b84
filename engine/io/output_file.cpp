#include "io/output_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace shardscope::io {

namespace {

std::string writeError(const std::string& name) {
  std::string e = "cannot write '" + name + "'";
  if (errno != 0) e += std::string(": ") + std::strerror(errno);
  return e;
}

}  // namespace

bool OutputFile::open(const std::string& path, std::string& error) {
  if (path == "-") {
    name_ = "<stdout>";
    out_ = &std::cout;
    return true;
  }
  name_ = path;
  errno = 0;
  file_.open(path, std::ios::binary | std::ios::trunc);
  if (!file_) {
    error = "cannot create '" + path + "'";
    if (errno != 0) error += std::string(": ") + std::strerror(errno);
    return false;
  }
  out_ = &file_;
  return true;
}

bool OutputFile::close(std::string& error) {
  if (!out_) return true;
  if (out_ == &std::cout) {
    out_ = nullptr;
    return flushStdout(error);
  }
  if (file_.good()) errno = 0;
  bool ok = static_cast<bool>(file_.flush());
  file_.close();  // the last buffered bytes are written here
  ok = ok && !file_.fail();
  out_ = nullptr;
  if (!ok) error = writeError(name_);
  return ok;
}

bool flushStdout(std::string& error) {
  // A stream already in error keeps the errno of the write that failed.
  if (std::cout.good()) errno = 0;
  bool ok = static_cast<bool>(std::cout.flush());
  ok = std::fflush(stdout) == 0 && ok;
  ok = !std::ferror(stdout) && ok;
  if (!ok) error = writeError("<stdout>");
  return ok;
}

}  // namespace shardscope::io
