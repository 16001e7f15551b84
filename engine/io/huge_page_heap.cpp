// Restarting with glibc's huge-page heap (see huge_page_heap.h).
#include "io/huge_page_heap.h"

#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace shardscope::io {

namespace {

constexpr const char* kTunable = "glibc.malloc.hugetlb";

// Whether the kernel gives huge pages to memory that asks for them and not
// already to all memory: `[madvise]` in its THP mode (with `[always]` the
// heap has them without asking, with `[never]` asking does nothing).
bool kernelHugePagesOnRequest() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  std::getline(in, mode);
  return mode.find("[madvise]") != std::string::npos;
}

}  // namespace

void restartWithHugePageHeap(char** argv) {
#if defined(__GLIBC__)
  if (const char* off = std::getenv("SHARDSCOPE_HUGE_PAGES"); off && std::strcmp(off, "0") == 0) return;
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  std::string value = tunables ? tunables : "";
  // Set already, by the user or by the restart itself: never restart twice.
  if (value.find(kTunable) != std::string::npos) return;
  if (!kernelHugePagesOnRequest()) return;
  if (!value.empty()) value += ':';
  value += kTunable;
  value += "=1";
  if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  // Not restarted (no /proc, say): go on as before, without the variable,
  // so that nothing this process starts inherits a half-done change.
  if (tunables)
    setenv("GLIBC_TUNABLES", tunables, 1);
  else
    unsetenv("GLIBC_TUNABLES");
#else
  (void)argv;
#endif
}

void shareMainHeapWithThreads() {
#if defined(__GLIBC__)
  mallopt(M_ARENA_MAX, 1);
#endif
}

}  // namespace shardscope::io
