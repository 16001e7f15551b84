#include "core/work_pool.h"

#include <QThread>
#include <QThreadPool>

namespace shardscope::widgets {

namespace {

// Destroyed at exit, after waiting for the work still running (as Qt's own
// global pool does).
Q_GLOBAL_STATIC(QThreadPool, pool)

}  // namespace

QThreadPool* workPool() {
  QThreadPool* p = pool();
  static const bool sized = [p] {
    p->setMaxThreadCount(QThread::idealThreadCount());
    p->setObjectName(QStringLiteral("shardscope work"));
    return true;
  }();
  (void)sized;
  return p;
}

}  // namespace shardscope::widgets
