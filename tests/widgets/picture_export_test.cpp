// Export of every view of every sample: valid, non-blank PNG/SVG/PDF files.
#include "core/picture_export.h"

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <set>

#include "test_util.h"
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
