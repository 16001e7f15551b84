// Backing the heap of a large run with transparent huge pages.
//
// Reading a 143 MB module builds about 1.3 GB of IR. With 4 KiB pages that
// is some 320,000 page faults, and every walk over the IR misses the TLB on
// almost every op: on this project's 1M-op benchmark, a third of the
// pipeline's CPU time. glibc's malloc can ask the kernel for 2 MiB pages
// (`madvise(MADV_HUGEPAGE)` on the memory it takes from the system), but only
// when told so at start-up, through the `GLIBC_TUNABLES` environment
// variable. So a tool that is about to read a large input restarts itself
// once with `glibc.malloc.hugetlb=1` added to it:
//
//   if (inputBytes >= io::kHugePageHeapMinInput) io::restartWithHugePageHeap(argv);
//   // (returns only when no restart was needed or possible)
//
// Nothing changes in what the program computes or prints; the restart
// happens before any input is read (the process keeps its id, arguments,
// open files and the rest of its environment). It is skipped when the
// kernel has transparent huge pages off (or on for everything already),
// when GLIBC_TUNABLES already says something about `glibc.malloc.hugetlb`
// (which also ends the restart loop), and when SHARDSCOPE_HUGE_PAGES=0.
#pragma once
#include <cstdint>

namespace shardscope::io {

// Inputs from this size on are worth the restart (a few milliseconds): a
// 4 MiB module (30k ops) builds about 40 MB of IR, and with huge pages its
// pipeline already takes a fifth less CPU time (10k page faults -> 2k).
inline constexpr uint64_t kHugePageHeapMinInput = 4ull << 20;

// Re-executes this program (`/proc/self/exe`, same `argv`) with glibc's
// huge-page heap switched on, when that applies (see above). Returns when it
// does not apply or the re-execution failed; then the run simply goes on
// with ordinary pages.
void restartWithHugePageHeap(char** argv);

// Makes every thread allocate from the main heap (glibc's main arena),
// which the restart above put on huge pages. Without it, glibc gives a
// thread that allocates its own arena, built from 64 MiB blocks that the
// tunable does not advise: a GUI that reads a module on a worker thread
// builds its IR on ordinary pages again. At a million ops the read then took
// 4.1-4.6 s of thread CPU instead of 2.1-2.8 s (tests/bench/load_stages_bench
// --whole --thread). Call it first thing in main, before any thread starts
// (a thread that has allocated keeps its arena):
//
//   io::restartWithHugePageHeap(argv);
//   io::shareMainHeapWithThreads();
//   QApplication app(argc, argv);   // and its loader threads
//
// The threads then share the main heap's lock; small blocks still come from
// each thread's own cache without it.
void shareMainHeapWithThreads();

}  // namespace shardscope::io
