// Shared by the GUI benchmarks (gui_open_bench, gui_step_bench): the UI
// thread's CPU time, a heartbeat that measures how late the UI thread
// answers, and running the event loop until something is done.
#pragma once
#include <QElapsedTimer>
#include <QEventLoop>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <functional>
#include <vector>

namespace shardscope::bench {

// CPU time of the whole process (all threads), ns.
inline qint64 processCpuNs() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// CPU time of the calling thread, ns.
inline qint64 threadCpuNs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// Heartbeat: a 10 ms timer; the longest gap beyond its period is the longest
// time the UI thread did not process events (wall time: what a user feels,
// inflated when other processes load the machine). The UI thread's own CPU
// time during each gap is kept too (the work done in it, whatever the load).
// Gaps over 20 ms are kept with the time they ended (ms since start()), to
// tell which stage stalled.
class Heartbeat : public QObject {
 public:
  Heartbeat() {
    timer_.setTimerType(Qt::PreciseTimer);
    timer_.setInterval(10);
    connect(&timer_, &QTimer::timeout, this, [this] {
      const qint64 now = clock_.nsecsElapsed();
      const qint64 cpu = threadCpuNs();
      if (last_ >= 0) {
        const double gap = (now - last_) / 1e6 - 10.0;
        const double busy = (cpu - lastCpu_) / 1e6;
        worst_ = std::max(worst_, gap);
        worstCpu_ = std::max(worstCpu_, busy);
        if (gap > 20) stalls_.push_back({now / 1e6, gap, busy});
      }
      last_ = now;
      lastCpu_ = cpu;
    });
  }
  void start() {
    clock_.start();
    last_ = -1;
    worst_ = 0;
    timer_.start();
  }
  double worstMs() const { return std::max(0.0, worst_); }
  // The most UI-thread CPU time spent between two beats.
  double worstCpuMs() const { return worstCpu_; }
  void reset() {
    worst_ = 0;
    worstCpu_ = 0;
    last_ = -1;
    stalls_.clear();
  }
  double nowMs() const { return clock_.nsecsElapsed() / 1e6; }
  struct Stall {
    double endMs, wallMs, cpuMs;
  };
  // Stalls over 20 ms (wall).
  const std::vector<Stall>& stalls() const { return stalls_; }

 private:
  QTimer timer_;
  QElapsedTimer clock_;
  qint64 last_ = -1, lastCpu_ = 0;
  double worst_ = 0, worstCpu_ = 0;
  std::vector<Stall> stalls_;
};

// Run the event loop until `done` or `timeoutMs`.
inline bool waitFor(const std::function<bool()>& done, int timeoutMs = 300000) {
  QElapsedTimer t;
  t.start();
  QEventLoop loop;
  QTimer poll;
  poll.setInterval(1);
  QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
    if (done() || t.elapsed() > timeoutMs) loop.quit();
  });
  poll.start();
  if (!done()) loop.exec();
  return done();
}

// Write a transformer of about `ops` ops to `path` (tests/bench/gen_transformer.py),
// with `locations` JAX-style name scopes and Python lines on every op.
inline bool writeTransformer(int ops, const QString& path, bool locations = false) {
  QStringList args = {QStringLiteral(SHARDSCOPE_SOURCE_DIR "/tests/bench/gen_transformer.py"),
                      QStringLiteral("--ops"), QString::number(ops), QStringLiteral("-o"), path};
  if (locations) args << QStringLiteral("--locations");
  const int rc = QProcess::execute(QStringLiteral("python3"), args);
  if (rc != 0) std::fprintf(stderr, "generator failed (%d)\n", rc);
  return rc == 0;
}

}  // namespace shardscope::bench
