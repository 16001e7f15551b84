// A whole input held for reading in place. A regular file is mapped from the
// page cache instead of copied into the heap: reading a 140 MB module into a
// string cost a fill, a copy and a page fault per 4 KB, a tenth of reading
// and printing it. Stdin, pipes and files the system will not map are read
// into memory as readInputFile does, with the same checks and messages.
//
//   io::MappedInput input;
//   std::string error;
//   if (!input.load("model.mlir", io::kDefaultMaxInputBytes, error)) ...
//   ir::parseModule(input.text(), ...);   // valid while `input` lives
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace shardscope::io {

class MappedInput {
 public:
  MappedInput() = default;
  ~MappedInput();
  MappedInput(const MappedInput&) = delete;
  MappedInput& operator=(const MappedInput&) = delete;

  // As readInputFile(path, maxBytes, ...): false with `error` set when the
  // input cannot be opened, is not readable data or exceeds `maxBytes`.
  bool load(const std::string& path, uint64_t maxBytes, std::string& error);
  // The input's bytes. A character after the last one reads as '\0', as
  // after a std::string's.
  std::string_view text() const { return mapped_ ? std::string_view(mapped_, size_) : std::string_view(owned_); }
  // Whether the bytes are mapped rather than read (for tests).
  bool mapped() const { return mapped_ != nullptr; }

 private:
  void release();
  std::string owned_;
  const char* mapped_ = nullptr;
  size_t size_ = 0;
};

}  // namespace shardscope::io
