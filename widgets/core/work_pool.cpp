#include "core/work_pool.h"

#include <QCoreApplication>
#include <QThread>
#include <QThreadPool>

namespace shardscope::widgets {

namespace {

// Destroyed at exit, after waiting for the work still running (as Qt's own
// global pool does).
Q_GLOBAL_STATIC(QThreadPool, pool)

// The work still running when the application ends (a communication report
// of a large module takes seconds) uses the engine's tables, which are
// function statics. Made after the pool, they are destroyed before it, so a
// pool that waits only in its own destructor let that work read freed
// tables: a crash at exit (seen closing a 1M-op window). The application's
// destructor runs before any static is destroyed; wait there.
void waitForTheWorkLeft() {
  if (pool.exists()) {
    pool()->clear();
    pool()->waitForDone();
  }
}

}  // namespace

QThreadPool* workPool() {
  QThreadPool* p = pool();
  static const bool sized = [p] {
    p->setMaxThreadCount(QThread::idealThreadCount());
    p->setObjectName(QStringLiteral("shardscope work"));
    qAddPostRoutine(waitForTheWorkLeft);
    return true;
  }();
  (void)sized;
  return p;
}

}  // namespace shardscope::widgets
