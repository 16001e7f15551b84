// The calling thread's CPU time, for the stage logs of opening a module and
// of grouping a graph: on a loaded machine wall time says more about the
// other processes than about the stage.
//
//   const double cpu = threadCpuMs();
//   prepare(doc);
//   qCDebug(lc) << "prepared:" << threadCpuMs() - cpu << "ms of CPU";
#pragma once
#include <ctime>

namespace shardscope::widgets {

inline double threadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

}  // namespace shardscope::widgets
