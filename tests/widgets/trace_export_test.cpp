// Export of the trace explorer views (factors, trace) as PNG, SVG and PDF:
// valid, non-blank files; bad requests fail with a message. Set
// SHARDSCOPE_TRACE_PNG_DIR to keep the PNGs for looking at them.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

#include "api/document.h"
#include "test_util.h"
#include "trace/propagation_runner.h"
#include "trace/trace_export.h"
#include "trace_test_util.h"

using namespace shardscope;
using namespace shardscope::widgets::trace;

namespace {
// Fraction of pixels that are not (near) white.
double inkRatio(const QImage& img) {
  qint64 ink = 0;
  for (int y = 0; y < img.height(); y += 2)
    for (int x = 0; x < img.width(); x += 2) {
      const QRgb c = img.pixel(x, y);
      if (qRed(c) < 235 || qGreen(c) < 235 || qBlue(c) < 235) ++ink;
    }
  return double(ink) / (double(img.width() / 2) * double(img.height() / 2));
}

QString keepDir() { return qEnvironmentVariable("SHARDSCOPE_TRACE_PNG_DIR"); }
}  // namespace

class TraceExportTest : public QObject {
  Q_OBJECT
 private slots:
  void views_data();
  void views();
  void formats_data();
  void formats();
  void badRequests_data();
  void badRequests();
  void samples_data();
  void samples();
};

void TraceExportTest::views_data() {
  QTest::addColumn<QString>("module");
  QTest::addColumn<QString>("view");
  QTest::addColumn<QString>("op");
  QTest::addColumn<int>("step");
  QTest::addColumn<QString>("strategy");
  QTest::addColumn<bool>("dims");
  QTest::newRow("factors-dot") << test::dotModule() << QStringLiteral("factors") << QStringLiteral("dot_general") << -1
                               << QStringLiteral("basic") << false;
  QTest::newRow("factors-dot-dims") << test::dotModule() << QStringLiteral("factors") << QStringLiteral("%0") << -1
                                    << QStringLiteral("basic") << true;
  QTest::newRow("factors-step0") << test::chainModule() << QStringLiteral("factors") << QString() << 0
                                 << QStringLiteral("op-priority") << false;
  QTest::newRow("factors-unchanged-op")
      << QStringLiteral("sdy.mesh @mesh = <[\"a\"=2]>\n"
                        "func.func @main(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {\n"
                        "  %0 = stablehlo.negate %arg0 : tensor<8x4xf32>\n"
                        "  return %0 : tensor<8x4xf32>\n}\n")
      << QStringLiteral("factors") << QStringLiteral("negate") << -1 << QStringLiteral("basic") << false;
  QTest::newRow("trace-last") << test::chainModule() << QStringLiteral("trace") << QString() << -1
                              << QStringLiteral("user-priority") << false;
  QTest::newRow("trace-dot") << test::chainModule() << QStringLiteral("trace") << QStringLiteral("stablehlo.dot_general")
                             << -1 << QStringLiteral("basic") << false;
}

void TraceExportTest::views() {
  QFETCH(QString, module);
  QFETCH(QString, view);
  QFETCH(QString, op);
  QFETCH(int, step);
  QFETCH(QString, strategy);
  QFETCH(bool, dims);
  TraceExportOptions o;
  QVERIFY(parseTraceExportView(view, &o.view));
  QVERIFY(parseStrategy(strategy, &o.strategy));
  o.op = op;
  o.step = step;
  o.dimensionView = dims;
  QTemporaryDir tmp;
  const QString dir = keepDir().isEmpty() ? tmp.path() : keepDir();
  const QString path = QDir(dir).filePath(QStringLiteral("trace_%1.png").arg(QString::fromLatin1(QTest::currentDataTag())));
  QString error;
  QVERIFY2(exportTracePanel(path, module, QStringLiteral("test.mlir"), o, &error), qPrintable(error));
  QImage img(path);
  QVERIFY(!img.isNull());
  QVERIFY(img.width() > 300);
  QVERIFY(img.height() > 150);
  const double ink = inkRatio(img);
  QVERIFY2(ink > 0.02 && ink < 0.8, qPrintable(QString::number(ink)));
}

void TraceExportTest::formats_data() {
  QTest::addColumn<QString>("suffix");
  QTest::addColumn<QString>("view");
  for (const char* s : {"png", "svg", "pdf"})
    for (const char* v : {"factors", "trace"})
      QTest::newRow(qPrintable(QStringLiteral("%1-%2").arg(QLatin1String(v), QLatin1String(s))))
          << QString::fromLatin1(s) << QString::fromLatin1(v);
}

void TraceExportTest::formats() {
  QFETCH(QString, suffix);
  QFETCH(QString, view);
  TraceExportOptions o;
  QVERIFY(parseTraceExportView(view, &o.view));
  o.strategy = Strategy::Basic;
  auto run = runPropagation(test::chainModule().toStdString(), "chain.mlir", optionsFor(o.strategy));
  QTemporaryDir tmp;
  const QString path = tmp.filePath(QStringLiteral("out.") + suffix);
  QString error;
  QVERIFY2(exportTracePanel(path, *run, o, &error), qPrintable(error));
  QFile f(path);
  QVERIFY(f.open(QIODevice::ReadOnly));
  const QByteArray bytes = f.readAll();
  QVERIFY(bytes.size() > 1000);
  if (suffix == QLatin1String("png")) {
    QImage img;
    QVERIFY(img.loadFromData(bytes, "PNG"));
    QVERIFY(inkRatio(img) > 0.02);
  } else if (suffix == QLatin1String("svg")) {
    QVERIFY(bytes.contains("<svg"));
    QSvgRenderer r(bytes);
    QVERIFY(r.isValid());
    QImage img(r.defaultSize(), QImage::Format_ARGB32);
    img.fill(Qt::white);
    QPainter p(&img);
    r.render(&p);
    p.end();
    QVERIFY(inkRatio(img) > 0.02);
  } else {
    QVERIFY(bytes.startsWith("%PDF"));
  }
  // The in-memory image too.
  QString err2;
  const QImage img = renderTracePicture(traceExportPicture(*run, o, &err2), 1.0);
  QVERIFY2(!img.isNull(), qPrintable(err2));
  QVERIFY(inkRatio(img) > 0.02);
}

void TraceExportTest::badRequests_data() {
  QTest::addColumn<QString>("module");
  QTest::addColumn<QString>("op");
  QTest::addColumn<int>("step");
  QTest::addColumn<QString>("path");
  QTest::addColumn<QString>("message");
  QTest::newRow("no such op") << test::chainModule() << QStringLiteral("%99") << -1 << QStringLiteral("x.png")
                              << QStringLiteral("no op named '%99'");
  QTest::newRow("step out of range") << test::chainModule() << QString() << 999 << QStringLiteral("x.png")
                                     << QStringLiteral("step 999 does not exist");
  QTest::newRow("bad suffix") << test::chainModule() << QString() << -1 << QStringLiteral("x.bmp")
                              << QStringLiteral("unsupported file type");
  QTest::newRow("does not parse") << QStringLiteral("func.func @main( {") << QString() << -1
                                  << QStringLiteral("x.png") << QStringLiteral("failed");
}

void TraceExportTest::badRequests() {
  QFETCH(QString, module);
  QFETCH(QString, op);
  QFETCH(int, step);
  QFETCH(QString, path);
  QFETCH(QString, message);
  QTemporaryDir tmp;
  TraceExportOptions o;
  o.op = op;
  o.step = step;
  o.strategy = Strategy::Basic;
  QString error;
  QVERIFY(!exportTracePanel(tmp.filePath(path), module, QStringLiteral("t.mlir"), o, &error));
  QVERIFY2(error.contains(message), qPrintable(error));
}

void TraceExportTest::samples_data() { test::addSampleRows(); }

void TraceExportTest::samples() {
  QFETCH(QString, path);
  auto doc = api::loadDocument(path.toStdString());
  if (!doc->module || doc->hasErrors()) QSKIP("sample does not load");
  QTemporaryDir tmp;
  for (TraceExportView v : {TraceExportView::Factors, TraceExportView::Trace}) {
    TraceExportOptions o;
    o.view = v;
    QString error;
    const QString name = QStringLiteral("sample_%1_%2.png")
                             .arg(QFileInfo(path).completeBaseName(),
                                  v == TraceExportView::Factors ? QStringLiteral("factors") : QStringLiteral("trace"));
    const QString out = keepDir().isEmpty() ? tmp.filePath(name) : QDir(keepDir()).filePath(name);
    // Every sample's run has a step of an op with a rule: by default both
    // views draw the last such step (not a result sync or the closing
    // normalisation step, which have no factor table).
    QVERIFY2(exportTracePanel(out, *doc, o, &error), qPrintable(error));
    QVERIFY(inkRatio(QImage(out)) > 0.01);
  }
}

QTEST_MAIN(TraceExportTest)
#include "trace_export_test.moc"
