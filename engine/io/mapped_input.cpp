// Inputs mapped in place (see mapped_input.h).
#include "io/mapped_input.h"

#include "io/input_file.h"

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define SS_HAVE_MMAP 1
#endif

namespace shardscope::io {

MappedInput::~MappedInput() { release(); }

void MappedInput::release() {
#ifdef SS_HAVE_MMAP
  if (mapped_) munmap(const_cast<char*>(mapped_), size_);
#endif
  mapped_ = nullptr;
  size_ = 0;
  owned_.clear();
}

bool MappedInput::load(const std::string& path, uint64_t maxBytes, std::string& error) {
  release();
#ifdef SS_HAVE_MMAP
  // Only a regular file that fits the limit and whose last page has room
  // after its end (the zeroes there read as a string's terminator) is
  // mapped; everything else, errors included, goes the reading way, which
  // gives the messages.
  struct stat st {};
  if (path != "-" && stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
      static_cast<uint64_t>(st.st_size) <= maxBytes) {
    const auto size = static_cast<size_t>(st.st_size);
    const long page = sysconf(_SC_PAGESIZE);
    int fd = page > 0 && size % static_cast<size_t>(page) != 0 ? open(path.c_str(), O_RDONLY | O_CLOEXEC) : -1;
    if (fd >= 0) {
      int flags = MAP_PRIVATE;
#ifdef MAP_POPULATE
      flags |= MAP_POPULATE;  // the whole file is read: map it in one go
#endif
      void* m = mmap(nullptr, size, PROT_READ, flags, fd, 0);
      close(fd);
      if (m != MAP_FAILED) {
        mapped_ = static_cast<const char*>(m);
        size_ = size;
        return true;
      }
    }
  }
#endif
  return readInputFile(path, maxBytes, owned_, error);
}

}  // namespace shardscope::io
