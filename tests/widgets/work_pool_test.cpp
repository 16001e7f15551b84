// workPool(): the views' long work runs on a pool of its own, so painting
// on the UI thread never waits for it. Qt 6.4's raster engine hands the
// pieces of a large fill to QThreadPool::globalInstance() and waits for
// them; each case fills every thread of workPool() with work that only ends
// when a timer thread says so (3 s later), then paints on the UI thread and
// measures how long that took.
#include <QImage>
#include <QLinearGradient>
#include <QPainter>
#include <QProcess>
#include <QTemporaryDir>
#include <QScrollBar>
#include <QSemaphore>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <QtTest>

#include <chrono>
#include <functional>
#include <thread>

#include "core/work_pool.h"

using namespace shardscope::widgets;

class WorkPoolTest : public QObject {
  Q_OBJECT
 private slots:
  void separateFromQtsPool() {
    QVERIFY(workPool() != nullptr);
    QVERIFY(workPool() != QThreadPool::globalInstance());
    QCOMPARE(workPool(), workPool());
    QCOMPARE(workPool()->maxThreadCount(), QThread::idealThreadCount());
  }

  // A window closed while a long report is still made: the application's
  // end waits for that work, so it never runs on into the destruction of
  // the engine's static tables (a crash at exit at a million ops).
  void applicationEndWaitsForTheWorkLeft() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString marker = dir.filePath(QStringLiteral("marker"));
    QProcess probe;
    probe.start(QStringLiteral(WORK_POOL_EXIT_PROBE), {marker});
    QVERIFY(probe.waitForFinished(30000));
    QCOMPARE(probe.exitStatus(), QProcess::NormalExit);
    QCOMPARE(probe.exitCode(), 0);
    QFile f(marker);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(f.readAll()), QStringLiteral("before parsed"));
  }

  void paintingWhileTheWorkPoolIsFull_data() {
    QTest::addColumn<QString>("what");
    // A gradient over a large image: one span per row, split over threads.
    QTest::newRow("gradient fill 1600x1000") << QStringLiteral("gradient");
    // What stalled the main window for seconds: a tall scroll bar's groove.
    QTest::newRow("scroll bar 20x1000") << QStringLiteral("scrollbar");
  }
  void paintingWhileTheWorkPoolIsFull() {
    QFETCH(QString, what);
    const int threads = workPool()->maxThreadCount();
    QSemaphore release, started;
    QList<QFuture<void>> work;
    for (int i = 0; i < threads; ++i)
      work.append(QtConcurrent::run(workPool(), [&] {
        started.release();
        release.acquire();
      }));
    QVERIFY(started.tryAcquire(threads, 10000));
    // Released from another thread: a paint that waits for the work pool
    // ends after 3 s (and fails below) instead of never.
    std::thread releaser([&] {
      std::this_thread::sleep_for(std::chrono::seconds(3));
      release.release(threads);
    });
    QElapsedTimer clock;
    clock.start();
    QImage image(1600, 1000, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    if (what == QLatin1String("gradient")) {
      QPainter p(&image);
      QLinearGradient g(0, 0, 1600, 1000);
      g.setColorAt(0, Qt::white);
      g.setColorAt(1, Qt::darkBlue);
      p.fillRect(image.rect(), g);
    } else {
      QScrollBar bar(Qt::Vertical);
      bar.setRange(0, 1000000);
      bar.resize(20, 1000);
      QPainter p(&image);
      bar.render(&p);
    }
    const qint64 ms = clock.elapsed();
    releaser.join();
    for (QFuture<void>& f : work) f.waitForFinished();
    QVERIFY2(ms < 1500, qPrintable(QStringLiteral("painting took %1 ms").arg(ms)));
    QVERIFY(qAlpha(image.pixel(10, 500)) > 0);  // painted, not just returned
  }
};

QTEST_MAIN(WorkPoolTest)
#include "work_pool_test.moc"
