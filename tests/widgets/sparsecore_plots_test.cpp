// The SparseCore plots: they draw what the analysis reports and export
// non-blank PNG, SVG and PDF files.
#include <QFile>
#include <QPainterPath>
#include <array>
#include <QImage>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

#include "fdo_history_plot.h"
#include "hbm_usage_plot.h"
#include "partition_heatmap_plot.h"
#include "sparsecore/fdo_stats.h"
#include "id_distribution_plot.h"
#include "partition_load_plot.h"
#include "pipeline_gantt_plot.h"
#include "sparsecore/analysis.h"
#include "sparsecore/job_io.h"
#include "sparsecore/pipeline.h"
#include "spmem_occupancy_plot.h"

#include <cmath>

using namespace shardscope;

namespace {

// A dark palette as the application's dark theme sets it (what the charts
// look at to draw dark).
QPalette darkPalette(const QWidget& w) {
  QPalette dark = w.palette();
  dark.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
  dark.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x30));
  dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
  return dark;
}

// CIE76 colour difference (L*a*b*, D65): about 2 is just noticeable, 10
// clearly apart.
double deltaE(const QColor& a, const QColor& b) {
  auto lab = [](const QColor& c) {
    auto lin = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    const double r = lin(c.redF()), g = lin(c.greenF()), bl = lin(c.blueF());
    const double x = (0.4124 * r + 0.3576 * g + 0.1805 * bl) / 0.95047;
    const double y = 0.2126 * r + 0.7152 * g + 0.0722 * bl;
    const double z = (0.0193 * r + 0.1192 * g + 0.9505 * bl) / 1.08883;
    auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
    return std::array<double, 3>{116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
  };
  const auto p = lab(a), q = lab(b);
  return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

// Every font a chart draws with: axes, layout texts (title, captions),
// legend and its entries, texts on the plot.
QList<QFont> chartFonts(QCustomPlot* cp) {
  QList<QFont> out;
  for (QCPAxisRect* rect : cp->axisRects())
    for (QCPAxis* a : rect->axes()) out << a->labelFont() << a->tickLabelFont();
  for (QCPLayoutElement* e : cp->plotLayout()->elements(true))
    if (auto* t = qobject_cast<QCPTextElement*>(e)) out << t->font();
  out << cp->legend->font();
  for (int i = 0; i < cp->legend->itemCount(); ++i)
    if (QCPAbstractLegendItem* item = cp->legend->item(i)) out << item->font();
  for (int i = 0; i < cp->itemCount(); ++i)
    if (auto* t = qobject_cast<QCPItemText*>(cp->item(i))) out << t->font();
  return out;
}

// The legend's entries as a reader takes them in: row by row.
QStringList legendInReadingOrder(QCustomPlot* cp) {
  QStringList out;
  QCPLegend* legend = cp->legend;
  for (int r = 0; r < legend->rowCount(); ++r)
    for (int c = 0; c < legend->columnCount(); ++c)
      if (auto* item = legend->hasElement(r, c) ? qobject_cast<QCPPlottableLegendItem*>(legend->element(r, c)) : nullptr)
        out << item->plottable()->name();
  return out;
}

// The plottables that have a legend entry, in the order the chart made them.
QStringList legendEntriesMade(QCustomPlot* cp) {
  QStringList out;
  for (int i = 0; i < cp->plottableCount(); ++i)
    if (cp->legend->hasItemWithPlottable(cp->plottable(i))) out << cp->plottable(i)->name();
  return out;
}

sc::AnalysisReport sampleReport(const char* file) {
  const QString path =
      QStringLiteral(SHARDSCOPE_SAMPLE_DIR "/sparsecore/") + QString::fromLatin1(file);
  return sc::analyze(sc::loadJobFile(path.toStdString()));
}

// A PNG is "drawn" when it has more than a handful of distinct colours.
bool pngHasContent(const QString& path) {
  QImage image(path);
  if (image.isNull()) return false;
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 7)
    for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
  return colours.size() > 4;
}

QByteArray head(const QString& path, int n) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.read(n) : QByteArray();
}

std::unique_ptr<plots::SparseCorePlot> makePlot(const QString& kind) {
  if (kind == QLatin1String("partition_load")) {
    auto plot = std::make_unique<plots::PartitionLoadPlot>();
    plot->setStats(sampleReport("stacked_tables.json").tables[0].stats,
                   plots::PartitionLoadPlot::Measure::TotalPerTable);
    return plot;
  }
  if (kind == QLatin1String("overview")) {
    auto plot = std::make_unique<plots::PartitionLoadPlot>();
    plot->setStack(sampleReport("zipf_dropping.json"), 0);
    return plot;
  }
  if (kind == QLatin1String("partition_max")) {
    auto plot = std::make_unique<plots::PartitionLoadPlot>();
    plot->setStats(sampleReport("zipf_dropping.json").tables[0].stats,
                   plots::PartitionLoadPlot::Measure::MaxPerSource);
    return plot;
  }
  if (kind == QLatin1String("spmem")) {
    auto plot = std::make_unique<plots::SpmemOccupancyPlot>();
    plot->setReport(sampleReport("dlrm_like.json"));
    return plot;
  }
  if (kind == QLatin1String("hbm")) {
    auto plot = std::make_unique<plots::HbmUsagePlot>();
    plot->setReport(sampleReport("dlrm_like.json"));
    return plot;
  }
  if (kind == QLatin1String("ids")) {
    auto plot = std::make_unique<plots::IdDistributionPlot>();
    const QString path = QStringLiteral(SHARDSCOPE_SAMPLE_DIR "/sparsecore/zipf_dropping.json");
    plot->setDistribution(plots::computeIdDistribution(sc::loadJobFile(path.toStdString())));
    return plot;
  }
  auto plot = std::make_unique<plots::PipelineGanttPlot>();
  plot->setComparison(sc::comparePipelines({1, 2, 2, 1}, 6), 12, 4);
  return plot;
}

}  // namespace

class SparseCorePlotsTest : public QObject {
  Q_OBJECT
 private slots:
  void exports_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("suffix");
    for (const char* kind : {"partition_load", "partition_max", "overview", "spmem", "hbm", "gantt", "ids"})
      for (const char* suffix : {"png", "svg", "pdf"})
        QTest::newRow(
            qPrintable(QStringLiteral("%1.%2").arg(QLatin1String(kind), QLatin1String(suffix))))
            << QString::fromLatin1(kind) << QString::fromLatin1(suffix);
  }
  void exports() {
    QFETCH(QString, kind);
    QFETCH(QString, suffix);
    auto plot = makePlot(kind);
    QVERIFY(plot->hasData());
    QVERIFY(plot->elementCount() > 0);
    QTemporaryDir dir;
    const QString path = dir.filePath(kind + QStringLiteral(".") + suffix);
    QString error;
    QVERIFY2(plot->exportTo(path, QSize(800, 450), &error), qPrintable(error));
    if (suffix == QLatin1String("png")) QVERIFY(pngHasContent(path));
    if (suffix == QLatin1String("svg")) QVERIFY(head(path, 400).contains("<svg"));
    if (suffix == QLatin1String("pdf")) QVERIFY(head(path, 5).startsWith("%PDF"));
  }

  // Titles, captions and legend entries are never cut off: at any width their lines fit
  // the rect the layout gives them, inside the plot (the workspace at
  // 1280x800 gives a chart about 560 px; long stack names, the figures
  // line).
  void textsFitTheWidth_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("width");
    for (const char* kind : {"partition_load", "partition_max", "overview", "spmem", "hbm", "gantt", "ids"})
      for (int width : {320, 460, 560, 800, 1200})
        QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(QLatin1String(kind)).arg(width)))
            << QString::fromLatin1(kind) << width;
  }
  void textsFitTheWidth() {
    QFETCH(QString, kind);
    QFETCH(int, width);
    auto plot = makePlot(kind);
    plot->resize(width, 480);
    plot->show();
    QTest::qWait(50);  // the queued replot of the resize
    const auto texts = plot->shownTexts();
    QVERIFY(!texts.empty());
    QCOMPARE(texts.front().text.simplified(), plot->title().simplified());
    for (const auto& t : texts) {
      const QFontMetricsF fm(t.font);
      QVERIFY2(QRect(0, 0, width, 480).contains(t.rect), qPrintable(t.text));
      for (const QString& line : t.text.split(u'\n'))
        QVERIFY2(fm.horizontalAdvance(line) <= t.rect.width() + 1,
                 qPrintable(QStringLiteral("'%1': %2 px in %3 px")
                                .arg(line)
                                .arg(fm.horizontalAdvance(line))
                                .arg(t.rect.width())));
    }
    // Nor the legend's entries: a row across the chart (the HBM chart's
    // too, above both its panels) has as many columns as their texts fit;
    // the id distribution's goes under the plot when beside it would be cut.
    auto* cp = plot->findChild<QCustomPlot*>();
    QVERIFY(cp);
    if (cp->legend->visible())
      for (int i = 0; i < cp->legend->itemCount(); ++i) {
        QCPAbstractLegendItem* item = cp->legend->item(i);
        if (!item) continue;
        const int given = item->outerRect().width();
        const int needed = item->minimumOuterSizeHint().width();
        QVERIFY2(given >= needed && item->outerRect().right() <= width,
                 qPrintable(QStringLiteral("legend entry %1: %2 px of %3 at x %4")
                                .arg(i)
                                .arg(given)
                                .arg(needed)
                                .arg(item->outerRect().x())));
      }
  }

  // On screen the charts follow the theme: on a dark palette the
  // background is dark and every axis, title, caption and legend text is
  // light (they stayed black on white); back on a light palette every
  // colour is the one the chart chose; a picture taken while dark is
  // light, as the graph's pictures are.
  void followsTheTheme_data() {
    QTest::addColumn<QString>("kind");
    for (const char* kind : {"partition_load", "partition_max", "overview", "spmem", "hbm", "gantt", "ids"})
      QTest::newRow(kind) << QString::fromLatin1(kind);
  }
  void followsTheTheme() {
    QFETCH(QString, kind);
    auto plot = makePlot(kind);
    plot->resize(700, 450);
    plot->show();
    auto* cp = plot->findChild<QCustomPlot*>();
    QVERIFY(cp);
    // Every text colour of the chart: axes (labels, ticks), text elements
    // (title, captions), legend entries.
    auto texts = [cp] {
      QList<QColor> out;
      for (QCPAxisRect* rect : cp->axisRects())
        for (QCPAxis* a : rect->axes()) out << a->tickLabelColor() << a->labelColor() << a->basePen().color();
      for (QCPLayoutElement* e : cp->plotLayout()->elements(true))
        if (auto* t = qobject_cast<QCPTextElement*>(e)) out << t->textColor();
      for (int i = 0; i < cp->legend->itemCount(); ++i)
        if (QCPAbstractLegendItem* item = cp->legend->item(i)) out << item->textColor();
      return out;
    };
    const QList<QColor> light = texts();
    QVERIFY(!plot->drawnDark());
    for (const QColor& c : light) QVERIFY2(c.lightness() < 128, qPrintable(c.name()));

    QPalette dark = plot->palette();
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x30));
    dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    plot->setPalette(dark);
    QVERIFY(plot->drawnDark());
    // What is drawn: a corner of the chart as it paints.
    auto corner = [cp] { return cp->toPixmap(300, 200).toImage().pixelColor(1, 1); };
    QVERIFY2(corner().lightness() < 64, qPrintable(corner().name()));
    for (const QColor& c : texts()) QVERIFY2(c.lightness() >= 128, qPrintable(c.name()));
    if (cp->legend->visible()) QVERIFY(cp->legend->brush().color().lightness() < 64);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("dark.png"));
    QVERIFY(plot->exportTo(path, QSize(600, 400)));
    const QImage picture(path);
    QCOMPARE(QColor(picture.pixel(2, 2)).lightness(), 255);  // the picture's paper is white
    QVERIFY(plot->drawnDark());  // and the screen dark again
    QVERIFY(corner().lightness() < 64);

    plot->setPalette(QApplication::palette());
    QVERIFY(!plot->drawnDark());
    QCOMPARE(texts(), light);
    QCOMPARE(corner(), QColor(Qt::white));
  }

  // With no statistics file the FDO history chart takes its width: its
  // axes and title span the widget (its empty legend row shrank the whole
  // chart to ~100 px at 1280x800, the title broken word by word).
  void emptyHistoryTakesItsWidth_data() {
    QTest::addColumn<int>("width");
    for (int width : {320, 420, 640}) QTest::newRow(qPrintable(QString::number(width))) << width;
  }
  void emptyHistoryTakesItsWidth() {
    QFETCH(int, width);
    plots::FdoHistoryPlot plot;
    plot.resize(width, 400);
    plot.show();
    QTest::qWait(50);
    QVERIFY(!plot.hasData());
    auto* cp = plot.findChild<QCustomPlot*>();
    QVERIFY(cp);
    QVERIFY2(cp->axisRect()->outerRect().width() >= width * 8 / 10,
             qPrintable(QString::number(cp->axisRect()->outerRect().width())));
    const auto texts = plot.shownTexts();
    QVERIFY(!texts.empty());
    QVERIFY2(texts.front().rect.width() >= width * 8 / 10, qPrintable(texts.front().text));
    QVERIFY2(texts.front().text.count(u'\n') <= 1, qPrintable(texts.front().text));
  }

  // The pipeline chart's box labels show only where they fit their box as
  // drawn (they overflowed at 1280x800, the chart about 560 px wide).
  void pipelineLabelsFitTheirBoxes_data() {
    QTest::addColumn<int>("width");
    for (int width : {420, 560, 900, 1400}) QTest::newRow(qPrintable(QString::number(width))) << width;
  }
  void pipelineLabelsFitTheirBoxes() {
    QFETCH(int, width);
    auto plot = makePlot(QStringLiteral("gantt"));
    plot->resize(width, 480);
    plot->show();
    QTest::qWait(50);
    auto* cp = plot->findChild<QCustomPlot*>();
    QVERIFY(cp);
    cp->replot();
    int boxes = 0, shown = 0;
    for (int i = 0; i < cp->itemCount(); ++i) {
      auto* box = qobject_cast<QCPItemRect*>(cp->item(i));
      if (!box) continue;
      ++boxes;
      const QRectF r = QRectF(box->topLeft->pixelPosition(), box->bottomRight->pixelPosition()).normalized();
      for (int j = 0; j < cp->itemCount(); ++j) {
        auto* text = qobject_cast<QCPItemText*>(cp->item(j));
        if (!text || !text->visible() || !r.contains(text->position->pixelPosition())) continue;
        if (text->positionAlignment() != Qt::AlignCenter) continue;  // step and staleness notes
        ++shown;
        const double w = QFontMetricsF(text->font()).horizontalAdvance(text->text());
        QVERIFY2(w <= r.width(), qPrintable(QStringLiteral("'%1': %2 px in a box of %3 px")
                                                .arg(text->text())
                                                .arg(w)
                                                .arg(r.width())));
      }
    }
    QVERIFY(boxes > 0);
    if (width >= 1400) QVERIFY(shown > 0);  // wide enough for some
  }

  // Presentation mode: every text of a chart grows with the text scale
  // (ticks, axis labels, legend, title, captions, labels on the plot) and
  // comes back to exactly its size at 1; a picture is the same at either
  // scale (drawn at the chosen sizes).
  void textScaleGrowsEveryText_data() {
    QTest::addColumn<QString>("kind");
    for (const char* kind : {"partition_load", "overview", "spmem", "hbm", "gantt", "ids"})
      QTest::newRow(kind) << QString::fromLatin1(kind);
  }
  void textScaleGrowsEveryText() {
    QFETCH(QString, kind);
    auto plot = makePlot(kind);
    plot->resize(1000, 560);  // the id distribution's legend beside the plot at both scales
    plot->show();
    auto* cp = plot->findChild<QCustomPlot*>();
    QVERIFY(cp);
    const QList<QFont> before = chartFonts(cp);
    QVERIFY(!before.isEmpty());
    QTemporaryDir dir;
    QVERIFY(plot->exportTo(dir.filePath(QStringLiteral("1.png")), QSize(700, 420)));
    plot->setTextScale(1.6);
    QCOMPARE(plot->textScale(), 1.6);
    const QList<QFont> large = chartFonts(cp);
    QCOMPARE(large.size(), before.size());
    for (int i = 0; i < before.size(); ++i)
      QVERIFY2(std::abs(large[i].pointSizeF() - 1.6 * before[i].pointSizeF()) < 0.01,
               qPrintable(QStringLiteral("font %1: %2 pt -> %3 pt")
                              .arg(i)
                              .arg(before[i].pointSizeF())
                              .arg(large[i].pointSizeF())));
    // A new result while large is drawn large too (and not twice as large).
    if (kind == QLatin1String("hbm")) {
      static_cast<plots::HbmUsagePlot*>(plot.get())->setReport(sampleReport("dlrm_like.json"));
      QCOMPARE(chartFonts(cp), large);
    }
    QVERIFY(plot->exportTo(dir.filePath(QStringLiteral("16.png")), QSize(700, 420)));
    const QImage atOne(dir.filePath(QStringLiteral("1.png"))), whileLarge(dir.filePath(QStringLiteral("16.png")));
    if (kind == QLatin1String("ids")) {
      // Its log axes' tick labels (10 with a raised exponent) come from
      // QCustomPlot's label cache, which moves the axes by a few pixels
      // after a font change: the title band (the text, not the axes) is
      // compared.
      const QRect band(0, 0, atOne.width(), 60);
      QCOMPARE(whileLarge.copy(band), atOne.copy(band));
    } else {
      QCOMPARE(whileLarge, atOne);
    }
    QCOMPARE(chartFonts(cp), large);  // the screen large again after the picture
    plot->setTextScale(1.0);
    QCOMPARE(chartFonts(cp), before);
  }

  // Large text still fits: titles, captions and legend entries at the
  // widths the workspace gives a chart in presentation mode.
  // Each y axis's title fits its panel, shortened when the panel is short
  // (the overview's two panels at 1.6x text ran into each other at
  // 1280x800 in presentation mode), and whole again when there is room.
  void sideAxisTitlesFitTheirPanels_data() {
    QTest::addColumn<int>("height");
    QTest::addColumn<bool>("shortened");
    QTest::newRow("short panels") << 420 << true;
    QTest::newRow("tall panels") << 1400 << false;
  }
  void sideAxisTitlesFitTheirPanels() {
    QFETCH(int, height);
    QFETCH(bool, shortened);
    auto plot = makePlot(QStringLiteral("overview"));
    plot->setTextScale(1.6);
    plot->resize(900, height);
    plot->show();
    QTest::qWait(50);
    auto* cp = plot->findChild<QCustomPlot*>();
    cp->replot();
    QCOMPARE(cp->axisRects().size(), 2);
    bool anyShortened = false;
    for (QCPAxisRect* rect : cp->axisRects()) {
      QCPAxis* y = rect->axis(QCPAxis::atLeft);
      const int advance = QFontMetrics(y->labelFont()).horizontalAdvance(y->label());
      QVERIFY2(advance <= rect->height(), qPrintable(QStringLiteral("'%1': %2 px along a %3 px panel")
                                                         .arg(y->label()).arg(advance).arg(rect->height())));
      anyShortened |= !y->label().contains(QLatin1String(" over "));
    }
    QCOMPARE(anyShortened, shortened);
  }

  void largeTextsFitTheWidth_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("width");
    for (const char* kind : {"overview", "spmem", "hbm", "gantt", "ids"})
      for (int width : {600, 800, 1100})
        QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(QLatin1String(kind)).arg(width)))
            << QString::fromLatin1(kind) << width;
  }
  void largeTextsFitTheWidth() {
    QFETCH(QString, kind);
    QFETCH(int, width);
    auto plot = makePlot(kind);
    plot->setTextScale(1.6);
    plot->resize(width, 600);
    plot->show();
    QTest::qWait(50);
    for (const auto& t : plot->shownTexts()) {
      const QFontMetricsF fm(t.font);
      QVERIFY2(QRect(0, 0, width, 600).contains(t.rect), qPrintable(t.text));
      for (const QString& line : t.text.split(u'\n'))
        QVERIFY2(fm.horizontalAdvance(line) <= t.rect.width() + 1, qPrintable(line));
    }
    auto* cp = plot->findChild<QCustomPlot*>();
    for (int i = 0; i < cp->legend->itemCount(); ++i)
      if (QCPAbstractLegendItem* item = cp->legend->item(i)) {
        QVERIFY2(item->outerRect().width() >= item->minimumOuterSizeHint().width() &&
                     item->outerRect().right() <= width,
                 qPrintable(QString::number(i)));
        // Room under the text for its underscores: an entry is as tall as
        // its icon or its text, so the icon grows with the text
        // ("max_ids_per_partition" read "max ids per partition").
        QVERIFY2(cp->legend->iconSize().height() >= QFontMetrics(item->font()).height() + 2,
                 qPrintable(QStringLiteral("icon %1 px for %2 px text")
                                .arg(cp->legend->iconSize().height())
                                .arg(QFontMetrics(item->font()).height())));
      }
  }

  // The HBM chart's "% padding" shares start above the x axis's tick marks
  // (which point up into the plot): on a bar near zero the ticks crossed
  // their first characters. Every character is inside the plot.
  void hbmPaddingSharesClearTheAxis_data() {
    QTest::addColumn<int>("width");
    QTest::addColumn<double>("scale");
    // Presentation mode's text where the workspace gives the chart 800 px
    // or more (1280x800): 28 bars in 200 px are too narrow for its labels.
    for (int width : {560, 800, 1200})
      for (double scale : {1.0, 1.6})
        if (scale == 1.0 || width >= 800)
          QTest::newRow(qPrintable(QStringLiteral("%1 x%2").arg(width).arg(scale))) << width << scale;
  }
  void hbmPaddingSharesClearTheAxis() {
    QFETCH(int, width);
    QFETCH(double, scale);
    plots::HbmUsagePlot plot;
    plot.setTextScale(scale);
    plot.setReport(sampleReport("dlrm_like.json"));
    plot.resize(width, 520);
    plot.show();
    QTest::qWait(50);
    auto* cp = plot.findChild<QCustomPlot*>();
    cp->replot();
    QCPAxisRect* rect = cp->axisRect(0);
    const int axisY = rect->bottom();
    const int tickTop = axisY - cp->xAxis->tickLengthIn();
    int shares = 0, nearZero = 0;
    for (int i = 0; i < cp->itemCount(); ++i) {
      auto* t = qobject_cast<QCPItemText*>(cp->item(i));
      if (!t || !t->text().endsWith(QLatin1String("% padding"))) continue;
      ++shares;
      // Written upwards: the box's bottom is where the text starts, the
      // padding below its first character.
      QPolygonF box;
      for (QCPItemAnchor* a : {t->topLeft, t->topRight, t->bottomRight, t->bottomLeft}) box << a->pixelPosition();
      const QRectF r = box.boundingRect();
      const double firstGlyph = r.bottom() - t->padding().left();
      if (axisY - t->position->pixelPosition().y() < 6) ++nearZero;
      QVERIFY2(firstGlyph <= tickTop - 1,
               qPrintable(QStringLiteral("'%1' starts at y %2, tick marks from %3").arg(t->text()).arg(firstGlyph).arg(tickTop)));
      QVERIFY2(r.top() >= rect->top() && r.left() >= rect->left() && r.right() <= rect->right(),
               qPrintable(QStringLiteral("'%1' at %2,%3 %4x%5 outside the plot %6,%7 %8x%9")
                              .arg(t->text()).arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height())
                              .arg(rect->left()).arg(rect->top()).arg(rect->width()).arg(rect->height())));
    }
    QVERIFY(shares > 0);
    QVERIFY(nearZero > 0);  // the case that was cut: bars near zero
  }

  // The pipeline chart says what its arrows mean in the caption under the
  // title; no note sits in the plot, where the arrows of later batches and
  // the step lines crossed it and it lay on the time axis. The texts left
  // in the plot (box and step labels) cross no arrow.
  void pipelineNoteHasAClearPlace_data() {
    QTest::addColumn<int>("width");
    QTest::addColumn<double>("scale");
    for (int width : {560, 900, 1400})
      for (double scale : {1.0, 1.6})
        QTest::newRow(qPrintable(QStringLiteral("%1 x%2").arg(width).arg(scale))) << width << scale;
  }
  void pipelineNoteHasAClearPlace() {
    QFETCH(int, width);
    QFETCH(double, scale);
    plots::PipelineGanttPlot plot;
    plot.setTextScale(scale);
    const sc::PipelineComparison c = sc::comparePipelines({1, 2, 2, 1}, 10);
    plot.setComparison(c, 12, 4, 12);
    plot.resize(width, 520);
    plot.show();
    QTest::qWait(50);
    auto* cp = plot.findChild<QCustomPlot*>();
    cp->replot();
    QVERIFY2(plot.captionText().simplified().contains(
                 QStringLiteral("update of batch 0 lands %1 steps later (stale)").arg(c.stalenessSteps)),
             qPrintable(plot.captionText()));
    QVERIFY(plot.captionText().simplified().contains(QLatin1String("same step")));
    bool captionShown = false;
    for (const auto& t : plot.shownTexts()) captionShown |= t.text == plot.captionText();
    QVERIFY(captionShown);
    // Arrows as the points of their curves.
    std::vector<QPolygonF> arrows;
    for (int i = 0; i < cp->itemCount(); ++i)
      if (auto* curve = qobject_cast<QCPItemCurve*>(cp->item(i))) {
        QPainterPath path(curve->start->pixelPosition());
        path.cubicTo(curve->startDir->pixelPosition(), curve->endDir->pixelPosition(), curve->end->pixelPosition());
        arrows.push_back(path.toFillPolygon());
      }
    QCOMPARE(int(arrows.size()), plot.stalenessArrowCount());
    for (int i = 0; i < cp->itemCount(); ++i) {
      auto* t = qobject_cast<QCPItemText*>(cp->item(i));
      if (!t || !t->visible()) continue;
      QVERIFY2(!t->text().contains(QLatin1String("stale")) && !t->text().contains(QLatin1String("update")),
               qPrintable(t->text()));
      const QRectF r = QRectF(t->topLeft->pixelPosition(), t->bottomRight->pixelPosition()).normalized();
      if (!r.intersects(QRectF(cp->axisRect()->rect()))) continue;  // panned out of view
      for (const QPolygonF& arrow : arrows)
        for (const QPointF& point : arrow)
          QVERIFY2(!r.adjusted(1, 1, -1, -1).contains(point),
                   qPrintable(QStringLiteral("'%1' crossed by an arrow").arg(t->text())));
    }
  }

  // Charts whose x axis counts keys from 0 (partitions, recorded batches)
  // draw no solid zero line through the first key: the others have the
  // dotted grid line (partition 0 and batch 0 had a solid one).
  void keyAxesHaveNoZeroLine_data() {
    QTest::addColumn<QString>("chart");
    QTest::newRow("partition load, both panels") << QStringLiteral("load");
    QTest::newRow("FDO history") << QStringLiteral("fdo");
  }
  void keyAxesHaveNoZeroLine() {
    QFETCH(QString, chart);
    std::unique_ptr<plots::SparseCorePlot> plot;
    if (chart == QLatin1String("load")) {
      auto load = std::make_unique<plots::PartitionLoadPlot>();
      const sc::AnalysisReport report = sampleReport("dlrm_like.json");
      load->setStack(report, plots::PartitionLoadPlot::hottestStack(report));
      plot = std::move(load);
    } else {
      plot = std::make_unique<plots::FdoHistoryPlot>();
    }
    plot->resize(900, 520);
    plot->show();
    QTest::qWait(20);
    auto* cp = plot->findChild<QCustomPlot*>();
    const QList<QCPAxisRect*> rects = cp->axisRects();
    QVERIFY(!rects.isEmpty());
    if (chart == QLatin1String("load")) QCOMPARE(rects.size(), 2);  // the overview's two panels
    for (QCPAxisRect* rect : rects)
      QCOMPARE(rect->axis(QCPAxis::atBottom)->grid()->zeroLinePen().style(), Qt::NoPen);
  }

  // The SPMEM chart's rows all have the same dotted grid line: the last
  // stack (key 0) had the grid's solid zero line through its bar.
  void spmemRowsHaveAlikeGridLines_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
  }
  void spmemRowsHaveAlikeGridLines() {
    QFETCH(bool, dark);
    plots::SpmemOccupancyPlot plot;
    plot.setReport(sampleReport("dlrm_like.json"));
    plot.resize(900, 520);
    if (dark) plot.setPalette(darkPalette(plot));
    plot.show();
    QTest::qWait(50);
    auto* cp = plot.findChild<QCustomPlot*>();
    cp->replot();
    const QImage image = cp->toPixmap(cp->width(), cp->height(), 1.0).toImage();
    QCPAxisRect* rect = cp->axisRect();
    const QColor background = image.pixelColor(rect->left() + 2, rect->top() + 2);
    // Right of every bar and of the TileSpmem line: only the grid lines.
    double barsEnd = 0;
    for (int i = 0; i < cp->plottableCount(); ++i)
      if (auto* bars = qobject_cast<QCPBars*>(cp->plottable(i)))
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
          double stacked = it->value;
          for (QCPBars* below = bars->barBelow(); below; below = below->barBelow())
            for (auto b = below->data()->constBegin(); b != below->data()->constEnd(); ++b)
              if (b->key == it->key) stacked += b->value;
          barsEnd = std::max(barsEnd, stacked);
        }
    const int from = int(cp->xAxis->coordToPixel(barsEnd)) + 8;
    const int to = rect->right() - 3;
    QVERIFY2(to - from >= 12, qPrintable(QStringLiteral("%1..%2").arg(from).arg(to)));
    QList<double> inked;
    const int rows = int(std::lround(cp->yAxis->range().upper + 0.4));
    for (int key = 0; key < rows; ++key) {
      const int y = int(std::lround(cp->yAxis->coordToPixel(key)));
      int ink = 0;
      for (int x = from; x <= to; ++x)
        for (int dy = -1; dy <= 1; ++dy)  // the line's pixel row, whatever the rounding
          if (std::abs(image.pixelColor(x, y + dy).lightness() - background.lightness()) > 12) {
            ++ink;
            break;
          }
      inked << double(ink) / double(to - from + 1);
    }
    QVERIFY(rows >= 2);
    for (int key = 0; key < rows; ++key)
      QVERIFY2(std::abs(inked[key] - inked.back()) < 0.2 && inked[key] < 0.8,
               qPrintable(QStringLiteral("row %1: %2 of its grid line inked, top row %3")
                              .arg(key)
                              .arg(inked[key])
                              .arg(inked.back())));
  }

  // The legend reads in the order the chart made its entries, whatever the
  // theme and however often it was filled (a second fill put the limits
  // and "max ids over sources" into the first row's free cells).
  void legendKeepsItsOrder_data() {
    QTest::addColumn<bool>("dark");
    QTest::addColumn<int>("fills");
    QTest::addColumn<int>("width");
    for (bool dark : {false, true})
      for (int fills : {1, 2, 3})
        for (int width : {560, 840, 1200})
          QTest::newRow(qPrintable(QStringLiteral("%1 %2 fills %3").arg(QLatin1String(dark ? "dark" : "light")).arg(fills).arg(width)))
              << dark << fills << width;
  }
  void legendKeepsItsOrder() {
    QFETCH(bool, dark);
    QFETCH(int, fills);
    QFETCH(int, width);
    const sc::AnalysisReport report = sampleReport("dlrm_like.json");
    plots::PartitionLoadPlot plot;
    plot.resize(width, 560);
    plot.show();
    QTest::qWait(20);
    for (int i = 0; i < fills; ++i) {
      if (i == 1) plot.setPalette(dark ? darkPalette(plot) : QApplication::palette());
      plot.setStack(report, plots::PartitionLoadPlot::hottestStack(report));
      QTest::qWait(20);
    }
    auto* cp = plot.findChild<QCustomPlot*>();
    cp->replot();
    const QStringList made = legendEntriesMade(cp);
    QVERIFY(made.size() > 8);
    QCOMPARE(legendInReadingOrder(cp), made);
  }

  // Series colours stay apart in both themes: the id distribution's lines
  // (ten tables) as drawn, the dark theme's lightened ones too (cat_24 and
  // cat_01 were both pale blue in dark).
  void seriesColoursStayApart_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
  }
  void seriesColoursStayApart() {
    QFETCH(bool, dark);
    plots::IdDistributionPlot plot;
    const QString path = QStringLiteral(SHARDSCOPE_SAMPLE_DIR "/sparsecore/dlrm_like.json");
    plot.setDistribution(plots::computeIdDistribution(sc::loadJobFile(path.toStdString())));
    QCOMPARE(plot.seriesCount(), 10);
    if (dark) plot.setPalette(darkPalette(plot));
    QCOMPARE(plot.drawnDark(), dark);
    auto* cp = plot.findChild<QCustomPlot*>();
    QList<QColor> pens;
    for (int i = 0; i < cp->graphCount(); ++i) pens << cp->graph(i)->pen().color();
    QCOMPARE(pens.size(), 10);
    for (int i = 0; i < pens.size(); ++i)
      for (int j = i + 1; j < pens.size(); ++j)
        QVERIFY2(deltaE(pens[i], pens[j]) >= 10,
                 qPrintable(QStringLiteral("%1 and %2: %3 and %4, delta E %5")
                                .arg(cp->graph(i)->name().section(u'\n', 0, 0))
                                .arg(cp->graph(j)->name().section(u'\n', 0, 0))
                                .arg(pens[i].name(), pens[j].name())
                                .arg(deltaE(pens[i], pens[j]))));
  }

  // The heatmap with no statistics takes its width: the colour scale's
  // column goes with the scale (~80 px were left blank at its right), and
  // comes back with a matrix.
  void emptyHeatmapTakesItsWidth() {
    plots::PartitionHeatmapPlot plot;
    plot.resize(500, 400);
    plot.show();
    QTest::qWait(50);
    auto* cp = plot.findChild<QCustomPlot*>();
    cp->replot();
    QVERIFY(!plot.hasData());
    QVERIFY2(cp->axisRect()->outerRect().right() >= 500 - 12,
             qPrintable(QString::number(cp->axisRect()->outerRect().right())));
    sc::StatMatrix m;
    m.cols = 4;
    m.values = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    plot.setMatrix(QStringLiteral("t: max ids by batch"), m, QStringLiteral("partition"));
    cp->replot();
    QVERIFY(plot.hasData());
    QCPColorScale* scale = plot.findChild<QCPColorScale*>();
    if (!scale)  // the scale is the plot's layerable, not a QObject child of the widget
      for (QCPLayoutElement* e : cp->plotLayout()->elements(true))
        if ((scale = qobject_cast<QCPColorScale*>(e))) break;
    QVERIFY(scale && scale->visible());
    QVERIFY(scale->outerRect().left() >= cp->axisRect()->outerRect().right());
    QVERIFY(scale->outerRect().right() <= 500);
    plot.clear();
    cp->replot();
    QVERIFY(cp->axisRect()->outerRect().right() >= 500 - 12);
  }

  void partitionBarsFollowTheStats() {
    sc::AnalysisReport report = sampleReport("stacked_tables.json");
    const sc::StackStats& stats = report.tables[0].stats;
    plots::PartitionLoadPlot plot;
    plot.setStats(stats, plots::PartitionLoadPlot::Measure::TotalPerTable);
    // One bar series per member table, plus the mean line and its label.
    QCOMPARE(plot.elementCount(), int(stats.tables.size()) + 2);
    QCOMPARE(plot.figures().maxIdsLimit, stats.maxIdsLimit);
    QCOMPARE(plot.figures().observedMaxIds, stats.observedMaxIds());
    QVERIFY(plot.figures().skew >= 1.0);
    // "partitions 0 and 4 carry the hot low ids" (sample README).
    QVERIFY(plot.figures().hottestPartition == 0 || plot.figures().hottestPartition == 4);
  }

  void droppedIdsAreMarked() {
    sc::AnalysisReport report = sampleReport("zipf_dropping.json");
    plots::PartitionLoadPlot plot;
    plot.setStack(report, plots::PartitionLoadPlot::hottestStack(report));
    QCOMPARE(plot.figures().droppedIds, report.tables[0].stats.droppedIds);
    QVERIFY(plot.figures().droppedIds > 0);
    QVERIFY(plot.figures().overLimitPartitions > 0);
    QVERIFY(plot.figuresText().contains(QLatin1String("ids dropped")));
  }

  // The limits are named in the legend row, never by a label on their
  // line (one sat on the bars of the last partitions once they passed it).
  void limitsNamedInTheLegend_data() {
    QTest::addColumn<QString>("sample");
    for (const char* f : {"zipf_dropping.json", "zipf_minibatching.json", "stacked_tables.json"})
      QTest::newRow(f) << QString::fromLatin1(f);
  }
  void limitsNamedInTheLegend() {
    QFETCH(QString, sample);
    sc::AnalysisReport report = sampleReport(qPrintable(sample));
    plots::PartitionLoadPlot plot;
    plot.resize(840, 560);
    plot.show();
    const int stack = plots::PartitionLoadPlot::hottestStack(report);
    plot.setStack(report, stack);
    const sc::StackStats& stats = report.tables[size_t(stack)].stats;
    // The chart's QCustomPlot, read as a user sees it (the plots keep it private).
    auto* cp = plot.findChild<QCustomPlot*>();
    QVERIFY(cp);
    QStringList names;
    for (int i = 0; i < cp->legend->itemCount(); ++i)
      if (auto* item = qobject_cast<QCPPlottableLegendItem*>(cp->legend->item(i)))
        names << item->plottable()->name();
    QVERIFY2(names.contains(QStringLiteral("max_ids_per_partition %1").arg(stats.maxIdsLimit)),
             qPrintable(names.join(QStringLiteral(" | "))));
    if (stats.maxUniqueIdsLimit != stats.maxIdsLimit)
      QVERIFY(names.contains(
          QStringLiteral("max_unique_ids_per_partition %1").arg(stats.maxUniqueIdsLimit)));
    for (int i = 0; i < cp->itemCount(); ++i)
      if (auto* text = qobject_cast<QCPItemText*>(cp->item(i)))
        QVERIFY2(!text->text().startsWith(QLatin1String("max_")), qPrintable(text->text()));
  }

  void spmemOverflowIsRed() {
    sc::Job job = sc::loadJobFile(
        (QStringLiteral(SHARDSCOPE_SAMPLE_DIR "/sparsecore/zipf_dropping.json")).toStdString());
    plots::SpmemOccupancyPlot plot;
    plot.setReport(sc::analyze(job));
    QCOMPARE(plot.overflowCount(), 0);
    job.tables[0].maxIdsPerPartition = 1 << 20;
    job.tables[0].maxUniqueIdsPerPartition = 1 << 20;
    plot.setReport(sc::analyze(job));
    QCOMPARE(plot.overflowCount(), 1);
    QVERIFY(plot.errorText().contains(QLatin1String("do not fit in TileSpmem")));
  }

  void ganttDrawsEveryStage() {
    plots::PipelineGanttPlot plot;
    sc::PipelineComparison c = sc::comparePipelines({1, 2, 2, 1}, 3);
    plot.setComparison(c);
    // 12 serial + 12 pipelined stages.
    QCOMPARE(plot.stageBoxCount(), 24);
    QCOMPARE(plot.stepBoundaryCount(), c.serial.steps + c.pipelined.steps);
    QCOMPARE(plot.stalenessArrowCount(), 1 + 3);
    plot.setComparison(c, 1);
    QCOMPARE(plot.stageBoxCount(), 8);
    // Four SparseCore rows: SparseCore stages drawn on each.
    plot.setComparison(c, 12, 4);
    QCOMPARE(plot.stageBoxCount(), 2 * (3 * 2 + 3 * 2 * 4));
  }

  // A failed job clears the chart (clearPlot deletes its items, the box
  // labels among them); the next layout and zoom must not touch the deleted
  // labels (a use after free that corrupted the heap in
  // sparsecore_workspace_test::badFilesShowTheEngineError).
  void ganttClearedThenLaidOut() {
    plots::PipelineGanttPlot plot;
    plot.resize(900, 400);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.setComparison(sc::comparePipelines({1, 2, 2, 1}, 3));
    QVERIFY(plot.hasData());
    QVERIFY(plot.elementCount() > 0);
    plot.clearPlot(QStringLiteral("job failed"));
    QVERIFY(!plot.hasData());
    QCOMPARE(plot.elementCount(), 0);
    plot.resize(640, 300);  // a layout: labels' visibility checked again
    QCoreApplication::processEvents();
    QCPAxis* x = plot.findChild<QCustomPlot*>()->xAxis;
    x->setRange(0, 5);  // a zoom: checked again
    QCOMPARE(plot.elementCount(), 0);
    plot.setComparison(sc::comparePipelines({1, 2, 2, 1}, 3));  // and drawn again
    QCOMPARE(plot.stageBoxCount(), 24);
  }

  void idDistributionSlopes() {
    const QString path = QStringLiteral(SHARDSCOPE_SAMPLE_DIR "/sparsecore/zipf_dropping.json");
    plots::IdDistribution d = plots::computeIdDistribution(sc::loadJobFile(path.toStdString()));
    QCOMPARE(int(d.series.size()), 2);
    QCOMPARE(d.series[0].table, std::string("user"));
    QVERIFY(d.series[0].slope < -0.5);                 // Zipf 1.3: steep
    QVERIFY(d.series[1].slope > -0.5);                 // uniform: flat
    QVERIFY(d.series[0].topCount > d.series[1].topCount);
    plots::IdDistributionPlot plot;
    plot.setDistribution(d);
    QCOMPARE(plot.seriesCount(), 2);
  }

  void badSuffixFails() {
    plots::HbmUsagePlot plot;
    plot.setReport(sampleReport("stacked_tables.json"));
    QTemporaryDir dir;
    QString error;
    QVERIFY(!plot.exportTo(dir.filePath(QStringLiteral("x.bmpx")), {}, &error));
    QVERIFY(error.contains(QLatin1String("unknown picture format")));
  }

  void emptyPlotHasNoData() {
    plots::PartitionLoadPlot plot;
    plot.clear();
    QVERIFY(!plot.hasData());
  }
};

QTEST_MAIN(SparseCorePlotsTest)
#include "sparsecore_plots_test.moc"
