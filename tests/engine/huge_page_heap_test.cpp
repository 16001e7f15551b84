// io::restartWithHugePageHeap: when it restarts the program and when not.
//
// A restart replaces the test process by a fresh run of this binary with the
// arguments given, so each case hands it arguments that run one of the
// DISABLED_ cases below (which only such a restart runs): a restart that must
// not happen then fails loudly instead of silently re-running the suite.
#include "io/huge_page_heap.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

using shardscope::io::restartWithHugePageHeap;
using shardscope::io::shareMainHeapWithThreads;

bool kernelOffersHugePagesOnRequest() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  std::getline(in, mode);
  return mode.find("[madvise]") != std::string::npos;
}

// Arguments that run only the case `name` (a DISABLED_ one) of this binary.
struct RestartArgs {
  explicit RestartArgs(const char* name) : filter(std::string("--gtest_filter=HugePageHeapRestarted.") + name) {
    argv[1] = all.data();
    argv[2] = filter.data();
  }
  std::string self = "huge_page_heap_test", all = "--gtest_also_run_disabled_tests", filter;
  char* argv[4] = {self.data(), nullptr, nullptr, nullptr};
};

TEST(HugePageHeap, NoRestartWhenTheTunableIsSetAlready) {
  const char* before = std::getenv("GLIBC_TUNABLES");
  std::string saved = before ? before : "";
  setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=0", 1);
  RestartArgs args("DISABLED_MustNotRun");
  restartWithHugePageHeap(args.argv);  // returns: the user said no
  EXPECT_STREQ(std::getenv("GLIBC_TUNABLES"), "glibc.malloc.hugetlb=0");
  if (before)
    setenv("GLIBC_TUNABLES", saved.c_str(), 1);
  else
    unsetenv("GLIBC_TUNABLES");
}

TEST(HugePageHeap, NoRestartWhenSwitchedOff) {
  setenv("SHARDSCOPE_HUGE_PAGES", "0", 1);
  RestartArgs args("DISABLED_MustNotRun");
  restartWithHugePageHeap(args.argv);
  unsetenv("SHARDSCOPE_HUGE_PAGES");
  SUCCEED();
}

TEST(HugePageHeap, RestartsOnceWithTheTunableAdded) {
  if (!kernelOffersHugePagesOnRequest()) GTEST_SKIP() << "the kernel's THP mode is not [madvise]";
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    setenv("GLIBC_TUNABLES", "glibc.malloc.check=0", 1);  // kept, the new one appended
    unsetenv("SHARDSCOPE_HUGE_PAGES");
    RestartArgs args("DISABLED_SeesTheTunable");
    restartWithHugePageHeap(args.argv);
    _exit(3);  // not restarted
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "3: no restart; 1: the restarted run saw the wrong variable";
}

#if defined(__GLIBC__)
// The number of heaps (arenas) malloc_info lists after a new thread has
// allocated, in a forked child so that earlier cases' threads do not count:
// 1 when the thread allocated from the main heap.
int heapsAfterAThreadAllocates(bool share) {
  int pipeFds[2];
  if (pipe(pipeFds) != 0) return -1;
  pid_t child = fork();
  if (child < 0) return -1;
  if (child == 0) {
    close(pipeFds[0]);
    if (share) shareMainHeapWithThreads();
    std::thread worker([] {
      void* volatile block = std::malloc(1 << 20);  // past the thread's cache
      std::free(block);
    });
    worker.join();
    char* text = nullptr;
    size_t size = 0;
    FILE* out = open_memstream(&text, &size);
    malloc_info(0, out);
    std::fclose(out);
    int heaps = 0;
    for (const char* at = text; (at = std::strstr(at, "<heap nr=")) != nullptr; ++at) ++heaps;
    const char count = static_cast<char>(heaps);
    (void)!write(pipeFds[1], &count, 1);
    _exit(0);
  }
  close(pipeFds[1]);
  char count = -1;
  (void)!read(pipeFds[0], &count, 1);
  close(pipeFds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  return count;
}

TEST(HugePageHeap, WorkerThreadsAllocateFromTheMainHeap) {
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer replaces malloc: glibc's heaps serve nothing, and
  // malloc_info lists one whatever the threads do.
  GTEST_SKIP() << "glibc's heaps are not used under AddressSanitizer";
#endif
  // Without the call a new thread gets a heap of its own (off the huge
  // pages); with it, the main heap serves it.
  EXPECT_EQ(heapsAfterAThreadAllocates(false), 2);
  EXPECT_EQ(heapsAfterAThreadAllocates(true), 1);
}
#endif

// Run only in a restarted process.
TEST(HugePageHeapRestarted, DISABLED_MustNotRun) { ADD_FAILURE() << "restarted although it must not"; }

TEST(HugePageHeapRestarted, DISABLED_SeesTheTunable) {
  const char* t = std::getenv("GLIBC_TUNABLES");
  ASSERT_NE(t, nullptr);
  EXPECT_STREQ(t, "glibc.malloc.check=0:glibc.malloc.hugetlb=1");
  // A second call finds the tunable and does not restart again.
  RestartArgs args("DISABLED_MustNotRun");
  restartWithHugePageHeap(args.argv);
}

}  // namespace
