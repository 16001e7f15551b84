// Export of every view of every sample: valid, non-blank PNG/SVG/PDF files.
#include "core/picture_export.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <set>

#include "test_util.h"
#include "core/svg_fonts.h"
#include "api/communication.h"
#include "api/propagate.h"
#include "export/view_export.h"

using namespace shardscope;
using namespace shardscope::widgets;

namespace {

// Fraction of pixels that are not (near) white, and the number of distinct colours seen.
std::pair<double, int> inkOf(const QImage& img) {
  qint64 ink = 0;
  std::set<QRgb> colours;
  for (int y = 0; y < img.height(); y += 2)
    for (int x = 0; x < img.width(); x += 2) {
      const QRgb c = img.pixel(x, y);
      if (qRed(c) < 235 || qGreen(c) < 235 || qBlue(c) < 235) ++ink;
      if (colours.size() < 64) colours.insert(c);
    }
  return {double(ink) / (double(img.width() / 2) * (img.height() / 2)), int(colours.size())};
}

void checkFile(const QString& path) {
  QFile f(path);
  QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
  const QByteArray data = f.readAll();
  QVERIFY(data.size() > 1000);
  switch (pictureFormatForPath(path)) {
    case PictureFormat::Png: {
      QImage img;
      QVERIFY(img.loadFromData(data, "PNG"));
      QVERIFY(img.width() > 200 && img.height() > 100);
      const auto [ink, colours] = inkOf(img);
      QVERIFY2(ink > 0.01, qPrintable(QStringLiteral("ink %1").arg(ink)));
      QVERIFY(colours > 3);
      break;
    }
    case PictureFormat::Svg: {
      QVERIFY(data.contains("<svg"));
      QSvgRenderer r(data);
      QVERIFY(r.isValid());
      QVERIFY(r.defaultSize().width() > 100);
      // Rasterise and check it is not blank.
      QImage img(r.defaultSize(), QImage::Format_ARGB32);
      img.fill(Qt::white);
      QPainter p(&img);
      r.render(&p);
      p.end();
      QVERIFY(inkOf(img).first > 0.01);
      break;
    }
    case PictureFormat::Pdf:
      QVERIFY(data.startsWith("%PDF-"));
      QVERIFY(data.trimmed().endsWith("%%EOF"));
      break;
    case PictureFormat::Unknown:
      QFAIL("unknown format");
  }
}

}  // namespace

class PictureExportTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void everyView_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("suffix");
    for (const QString& p : test::samplePaths())
      for (const char* v : {"graph", "mesh", "source"})
        QTest::newRow(qPrintable(QFileInfo(p).completeBaseName() + u'/' + QLatin1String(v)))
            << p << v << "png";
    const QString mc = QDir(test::sampleDir()).filePath(QStringLiteral("mlp_megatron.mlir"));
    for (const char* v : {"graph", "mesh", "source"})
      for (const char* s : {"svg", "pdf"})
        QTest::newRow(qPrintable(
            QStringLiteral("mlp_megatron/%1.%2").arg(QLatin1String(v), QLatin1String(s))))
            << mc << v << s;
  }
  void everyView() {
    QFETCH(QString, path);
    QFETCH(QString, view);
    QFETCH(QString, suffix);
    auto doc = api::loadDocument(path.toStdString());
    QVERIFY(doc->module);
    ExportRequest req;
    QVERIFY(parseExportView(view, &req.view));
    QString error;
    const Picture pic = exportPicture(*doc, req, &error);
    QVERIFY2(!pic.isNull(), qPrintable(error));
    const QString out =
        dir_.filePath(QFileInfo(path).completeBaseName() + u'_' + view + u'.' + suffix);
    QVERIFY2(writePicture(pic, out, &error), qPrintable(error));
    checkFile(out);
  }

  // SVG text names a generic family after its own (svg_fonts.h).
  void genericFontFamilies_data() {
    QTest::addColumn<QByteArray>("in");
    QTest::addColumn<QByteArray>("out");
    QTest::newRow("sans") << QByteArray(R"(<text font-family="DejaVu Sans" x="1">a</text>)")
                          << QByteArray(R"(<text font-family="'DejaVu Sans', sans-serif" x="1">a</text>)");
    QTest::newRow("mono") << QByteArray(R"(<g font-family="DejaVu Sans Mono">)")
                          << QByteArray(R"(<g font-family="'DejaVu Sans Mono', monospace">)");
    QTest::newRow("serif") << QByteArray(R"(<g font-family="Noto Serif">)")
                           << QByteArray(R"(<g font-family="'Noto Serif', serif">)");
    QTest::newRow("qt's sans alias") << QByteArray(R"(<g font-family="Sans Serif">)")
                                     << QByteArray(R"(<g font-family="'Sans Serif', sans-serif">)");
    QTest::newRow("already generic") << QByteArray(R"(<g font-family="'A', monospace">)")
                                     << QByteArray(R"(<g font-family="'A', monospace">)");
    QTest::newRow("a list") << QByteArray(R"(<g font-family="'A', 'B'">)")
                            << QByteArray(R"(<g font-family="'A', 'B', sans-serif">)");
    QTest::newRow("two runs") << QByteArray(R"(<g font-family="X"/><g font-family="Y Mono"/>)")
                              << QByteArray(R"(<g font-family="'X', sans-serif"/><g font-family="'Y Mono', monospace"/>)");
    QTest::newRow("no text") << QByteArray("<svg><rect/></svg>") << QByteArray("<svg><rect/></svg>");
  }
  void genericFontFamilies() {
    QFETCH(QByteArray, in);
    QFETCH(QByteArray, out);
    QCOMPARE(addGenericFontFamilies(in), out);
  }

  // A written SVG picture: every text run has its generic family.
  void svgFilesNameGenericFamilies() {
    const auto doc = test::loadSample(QStringLiteral("mlp_megatron.mlir"));
    QString error;
    for (ExportView v : {ExportView::Graph, ExportView::Mesh, ExportView::Source}) {
      ExportRequest req;
      req.view = v;
      const Picture pic = exportPicture(*doc, req, &error);
      const QString path = dir_.filePath(QStringLiteral("fonts_%1.svg").arg(int(v)));
      QVERIFY2(writePicture(pic, path, &error), qPrintable(error));
      QFile f(path);
      QVERIFY(f.open(QIODevice::ReadOnly));
      const QByteArray svg = f.readAll();
      QVERIFY(svg.contains("font-family="));
      QCOMPARE(addGenericFontFamilies(svg), svg);  // nothing left to add
    }
  }

  // The graph with its communication layer (graph_comm_layer.h): the glyphs'
  // texts and the legend are in the SVG, and only when a report is given.
  void graphExportShowsTheCommunicationLayer_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QStringList>("words");
    QTest::newRow("mlp_megatron: the all-reduce")
        << QStringLiteral("mlp_megatron.mlir")
        << QStringList{QStringLiteral("AR"), QStringLiteral("3.00 KiB"),
                       QStringLiteral("Communication on tpu-v5p"),
                       QStringLiteral("1 collective · 5.12 ns"), QStringLiteral("3.00 KiB per device"),
                       QStringLiteral("all-reduce")};
    QTest::newRow("priorities: four kinds")
        << QStringLiteral("priorities.mlir")
        << QStringList{QStringLiteral("A2A"), QStringLiteral("AG"), QStringLiteral("AR"),
                       QStringLiteral("6 collectives · "), QStringLiteral("time, up to")};
  }
  void graphExportShowsTheCommunicationLayer() {
    QFETCH(QString, sample);
    QFETCH(QStringList, words);
    auto input = api::loadDocument(QDir(test::sampleDir()).filePath(sample).toStdString());
    propagation::PropagationOptions options;
    options.level = propagation::PropagationLevel::Pipeline;  // the GUI's Propagate
    auto run = api::propagateDocument(*input, options);
    QVERIFY(run->ok);
    const api::Document& doc = *run->result;
    ExportRequest req;
    req.view = ExportView::Graph;
    QString error;
    const QString plain = dir_.filePath(sample + QStringLiteral("_plain.svg"));
    QVERIFY2(writePicture(exportPicture(doc, req, &error), plain, &error), qPrintable(error));
    req.comm = std::make_shared<const api::CommunicationReport>(api::analyzeCommunication(doc));
    QVERIFY(req.comm->ok);
    const Picture pic = exportPicture(doc, req, &error);
    QVERIFY2(!pic.isNull(), qPrintable(error));
    const QString out = dir_.filePath(sample + QStringLiteral("_comm.svg"));
    QVERIFY2(writePicture(pic, out, &error), qPrintable(error));
    checkFile(out);
    QFile with(out), without(plain);
    QVERIFY(with.open(QIODevice::ReadOnly) && without.open(QIODevice::ReadOnly));
    const QString withText = QString::fromUtf8(with.readAll());
    const QString withoutText = QString::fromUtf8(without.readAll());
    for (const QString& w : words) {
      QVERIFY2(withText.contains(w), qPrintable(w));
      if (w.contains(QLatin1String("collective"))) QVERIFY(!withoutText.contains(w));
    }
  }

  void badFileStillExportsSource() {
    auto doc = api::parseDocument(test::kBadInputs[1].text, "bad.mlir");
    QVERIFY(doc->hasErrors());
    QString error;
    ExportRequest req;
    req.view = ExportView::Source;
    const Picture pic = exportPicture(*doc, req, &error);
    QVERIFY(!pic.isNull());
    const QString out = dir_.filePath(QStringLiteral("bad_source.png"));
    QVERIFY(writePicture(pic, out, &error));
    checkFile(out);
    if (!doc->module) {
      req.view = ExportView::Graph;
      QVERIFY(exportPicture(*doc, req, &error).isNull());
      QVERIFY(error.contains(QLatin1String("could not be parsed")));
    }
  }

  void errors() {
    Picture pic;
    pic.size = QSizeF(10, 10);
    pic.paint = [](QPainter&) {};
    QString error;
    QVERIFY(!writePicture(pic, dir_.filePath(QStringLiteral("x.bmpx")), &error));
    QVERIFY(error.contains(QLatin1String("unsupported")));
    QVERIFY(!writePicture(pic, QStringLiteral("/nonexistent/dir/x.png"), &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!writePicture(Picture(), dir_.filePath(QStringLiteral("empty.png")), &error));
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(PictureExportTest)
#include "picture_export_test.moc"
