// Workshop and review use: presentation mode (docks hidden, large fonts,
// the layout restored after), light/dark themes (palette; exports stay
// light), settings kept.
#include <QAction>
#include <QTextBrowser>
#include <QStatusBar>
#include <QMenuBar>
#include <QLabel>
#include <QApplication>
#include <QDockWidget>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QScopeGuard>
#include <QTableView>
#include <QScrollBar>
#include <algorithm>

#include "comm/communication_feed.h"
#include "comm/communication_panel.h"
#include "core/document_state.h"
#include "core/step_words.h"
#include "graph/graph_view.h"
#include "main_window.h"
#include "mesh/mesh_view.h"
#include <QRegularExpression>
#include <QTabWidget>
#include "core/picture_export.h"
#include "source/source_view.h"
#include "trace/trace_panel.h"
#include "main_window_test_util.h"
#include "core/theme_palette.h"
#include "export/view_export.h"
#ifdef SHARDSCOPE_HAVE_SC_WORKSPACE
#include <QDir>
#include <QScrollArea>
#include "hbm_usage_plot.h"
#include "id_distribution_plot.h"
#include "partition_load_plot.h"
#include "pipeline_gantt_plot.h"
#include "sparsecore_workspace.h"
#include "spmem_occupancy_plot.h"
#endif

using namespace shardscope;
using namespace shardscope::widgets;

namespace {

using test::openSample;

QStringList visibleDocks(const QMainWindow& w) {
  QStringList out;
  for (const QDockWidget* d : w.findChildren<QDockWidget*>())
    if (d->isVisible()) out << d->objectName();
  out.sort();
  return out;
}

// Shows `w` at `size` in the theme asked for, opens mlp_megatron.mlir and
// propagates it; false when a step failed. The caller sets the light theme
// back (a scope guard beside the window).
bool showPropagatedMlp(app::MainWindow& w, QSize size, bool dark) {
  w.resize(size);
  w.show();
  w.setTheme(dark ? Theme::Dark : Theme::Light);
  if (!openSample(w, QStringLiteral("mlp_megatron.mlir"))) return false;
  w.findChild<QAction*>(QStringLiteral("propagateAction"))->trigger();
  return QTest::qWaitFor([&] { return w.state()->stepCount() > 1; }, 30000);
}

// Mean lightness of an image (0 black .. 255 white).
int meanLightness(const QImage& img) {
  qint64 sum = 0, n = 0;
  for (int y = 0; y < img.height(); y += 4)
    for (int x = 0; x < img.width(); x += 4) {
      sum += QColor(img.pixel(x, y)).lightness();
      ++n;
    }
  return n ? static_cast<int>(sum / n) : 0;
}

// Only the keys this test writes (other tests share the test-mode settings).
void clearKeys() {
  QSettings s;
  for (const char* key : {"theme", "geometry", "windowState"}) s.remove(QLatin1String(key));
}

}  // namespace

class PresentationTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    clearKeys();
  }
  void cleanupTestCase() {
    applyTheme(Theme::Light);
    clearKeys();
  }

  void presentationHidesAndRestoresDocks() {
    app::MainWindow w(test::sampleDir());
    w.show();
    QVERIFY(openSample(w, QStringLiteral("matmul_chain.mlir")));
    const QStringList before = visibleDocks(w);
    QVERIFY(before.contains(QStringLiteral("sourceDock")));
    QVERIFY(before.contains(QStringLiteral("opsDock")));
    const qreal fontBefore = QFontInfo(w.font()).pixelSize();
    const qreal sourceBefore = QFontInfo(w.sourceView()->font()).pixelSize();
    // F11 (the View menu action).
    auto* act = w.findChild<QAction*>(QStringLiteral("presentationAction"));
    QVERIFY(act);
    QCOMPARE(act->shortcut(), QKeySequence(Qt::Key_F11));
    act->trigger();
    QVERIFY(w.isPresentationMode());
    QVERIFY(visibleDocks(w).isEmpty());
    QVERIFY(QFontInfo(w.font()).pixelSize() > fontBefore);
    QVERIFY(QFontInfo(w.sourceView()->font()).pixelSize() > sourceBefore);
    QTest::qWait(400);
    w.grab().save(QStringLiteral("/tmp/presentation.png"));
    act->trigger();
    QVERIFY(!w.isPresentationMode());
    QTRY_COMPARE(visibleDocks(w), before);
    QCOMPARE(QFontInfo(w.font()).pixelSize(), fontBefore);
    QCOMPARE(QFontInfo(w.sourceView()->font()).pixelSize(), sourceBefore);
  }

  // Presentation mode tells the step large: its place on the timeline and
  // its narration under the graph; no text gets smaller; the status bar
  // holds one text.
  void presentationShowsTheStepLarge() {
    app::MainWindow w(test::sampleDir());
    w.show();
    w.resize(1280, 800);
    QVERIFY(openSample(w, QStringLiteral("mlp_megatron.mlir")));
    w.findChild<QAction*>(QStringLiteral("propagateAction"))->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(w.state()->stepCount() > 1, 30000);
    auto* caption = w.findChild<QWidget*>(QStringLiteral("presentationCaption"));
    QVERIFY(caption);
    QVERIFY(!caption->isVisible());
    auto* step = w.findChild<QLabel*>(QStringLiteral("presentationStep"));
    auto* narration = w.findChild<QTextBrowser*>(QStringLiteral("presentationNarration"));
    QVERIFY(step && narration);
    auto* status = w.findChild<QLabel*>(QStringLiteral("statusLabel"));
    QVERIFY(status);
    const int statusBefore = QFontInfo(status->font()).pixelSize();
    const int menuBefore = QFontInfo(w.menuBar()->font()).pixelSize();
    // The communication legend under the mesh legend (this sample needs an
    // all-reduce) grows with the graph's text, as the mesh legend does.
    auto* commLegend = w.graphView()->findChild<QWidget*>(QStringLiteral("communicationLegend"));
    QVERIFY(commLegend);
    // The report of the propagated state, not the one of the module as
    // written (the legend's rows follow it).
    QTRY_VERIFY_WITH_TIMEOUT(w.communicationPanel()->feed()->isCurrent(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(commLegend->isVisible(), 30000);
    QTest::qWait(200);
    const QSize legendBefore = commLegend->size();
    w.findChild<QAction*>(QStringLiteral("presentationAction"))->trigger();
    QTRY_VERIFY(caption->isVisible());
    QTRY_VERIFY2(commLegend->height() >= legendBefore.height() * 3 / 2,
                 qPrintable(QStringLiteral("%1 -> %2").arg(legendBefore.height()).arg(commLegend->height())));
    QVERIFY(commLegend->width() >= legendBefore.width() * 3 / 2);
    // Entered on the Mesh tab: the graph's legend grows all the same (it
    // stayed at the old size, found in the final picture pass).
    w.findChild<QAction*>(QStringLiteral("presentationAction"))->trigger();
    QTRY_VERIFY(!caption->isVisible());
    QTRY_COMPARE(commLegend->height(), legendBefore.height());
    auto* tabs = w.findChild<QTabWidget*>(QStringLiteral("centreTabs"));
    QVERIFY(tabs);
    tabs->setCurrentIndex(1);  // Mesh
    QTRY_VERIFY(!commLegend->isVisible());
    w.findChild<QAction*>(QStringLiteral("presentationAction"))->trigger();
    QTRY_VERIFY(caption->isVisible());
    tabs->setCurrentIndex(0);
    QTRY_VERIFY(commLegend->isVisible());
    QTRY_VERIFY2(commLegend->height() >= legendBefore.height() * 3 / 2,
                 qPrintable(QStringLiteral("entered on the Mesh tab: %1 -> %2")
                                .arg(legendBefore.height()).arg(commLegend->height())));
    const int n = w.state()->stepCount();
    w.state()->setStepsApplied(2);
    QCoreApplication::processEvents();
    QCOMPARE(step->text().left(widgets::stepPlace(2, n).size()), widgets::stepPlace(2, n));
    QVERIFY2(step->text().contains(QLatin1String("line")), qPrintable(step->text()));
    QVERIFY2(narration->toPlainText().contains(QLatin1String("factor")),
             qPrintable(narration->toPlainText()));
    // The step's headline once: in the caption, not again as the
    // narration's first line (the dock's narration keeps it).
    auto* explorer = w.findChild<widgets::trace::TracePanel*>();
    QVERIFY(explorer);
    const QString headline = explorer->stepHeadline();
    QVERIFY(!headline.isEmpty());
    QVERIFY2(step->text().contains(headline), qPrintable(step->text()));
    QVERIFY2(!narration->toPlainText().contains(headline), qPrintable(narration->toPlainText()));
    QVERIFY2(explorer->narrationText().startsWith(headline), qPrintable(explorer->narrationText()));
    // Large: the caption above the window's (already larger) font.
    QVERIFY(QFontInfo(step->font()).pixelSize() > QFontInfo(w.font()).pixelSize());
    QVERIFY(QFontInfo(narration->font()).pixelSize() >= QFontInfo(w.font()).pixelSize());
    QVERIFY(narration->height() >= 3 * QFontMetrics(narration->font()).lineSpacing());
    // As tall as its text: all of it shows, unless the narration already
    // takes the most it may (two fifths of the window).
    QTRY_VERIFY2(narration->verticalScrollBar()->maximum() == 0 || narration->height() >= w.height() * 2 / 5 - 1,
                 qPrintable(QStringLiteral("%1 px, scrolls %2").arg(narration->height()).arg(narration->verticalScrollBar()->maximum())));
    QVERIFY2(narration->height() <= std::max(w.height() * 2 / 5, 3 * QFontMetrics(narration->font()).lineSpacing() + 8),
             qPrintable(QString::number(narration->height())));
    // Nothing shrinks.
    QVERIFY(QFontInfo(status->font()).pixelSize() >= statusBefore);
    QVERIFY(QFontInfo(w.menuBar()->font()).pixelSize() >= menuBefore);
    QVERIFY(w.graphView()->textScale() > 1.0);
    QVERIFY(w.graphView()->view()->transform().m11() >=
            GraphView::kMinReadableScale * w.graphView()->textScale() - 1e-6);
    // Stepping moves the caption.
    w.state()->setStepsApplied(n);
    QCoreApplication::processEvents();
    QVERIFY(step->text().startsWith(widgets::stepPlace(n, n)));
    QTest::qWait(300);
    w.grab().save(QStringLiteral("/tmp/presentation_caption.png"));
    // One text in the status bar: a message replaces the file's status and
    // the Qt message area stays empty.
    w.showStatusMessage(QStringLiteral("Saved x"), 200);
    QCOMPARE(status->text(), QStringLiteral("Saved x"));
    QVERIFY(w.statusBar()->currentMessage().isEmpty());
    QTRY_VERIFY(status->text() != QLatin1String("Saved x"));
    // Under the SparseCore tab (a job, not the module stepped) no caption:
    // it was an empty band a sixth of the window high; back on the graph,
    // the caption again.
    QWidget* sparseCore = nullptr;
    for (int i = 0; i < tabs->count(); ++i)
      if (tabs->tabText(i) == QLatin1String("SparseCore")) sparseCore = tabs->widget(i);
    if (sparseCore) {
      tabs->setCurrentWidget(sparseCore);
      QTRY_VERIFY(!caption->isVisible());
      tabs->setCurrentWidget(w.graphView());
      QTRY_VERIFY(caption->isVisible());
      QVERIFY(step->text().startsWith(widgets::stepPlace(n, n)));
    }
    w.findChild<QAction*>(QStringLiteral("presentationAction"))->trigger();
    QTRY_VERIFY(!caption->isVisible());
    QCOMPARE(w.graphView()->textScale(), 1.0);
    QTRY_COMPARE(commLegend->size(), legendBefore);
  }

  // The mesh view's device grid is drawn larger in presentation mode, as the
  // graph's text is: at every window size its scale is above the largest
  // it has outside presentation mode (fonts grow, never shrink), and it
  // comes back after.
  void presentationGrowsTheMesh_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("sample");
    QTest::newRow("1280x800 mlp") << QSize(1280, 800) << QStringLiteral("mlp_megatron.mlir");
    QTest::newRow("1600x1000 mlp") << QSize(1600, 1000) << QStringLiteral("mlp_megatron.mlir");
    QTest::newRow("1280x800 matmul") << QSize(1280, 800) << QStringLiteral("matmul_chain.mlir");
  }
  void presentationGrowsTheMesh() {
    QFETCH(QSize, size);
    QFETCH(QString, sample);
    app::MainWindow w(test::sampleDir());
    w.resize(size);
    w.show();
    QVERIFY(openSample(w, sample));
    auto* mesh = w.findChild<MeshView*>();
    QVERIFY(mesh);
    const ir::Value* arg = w.state()->module()->functions().front()->regions().front()->front().arguments().front();
    QVERIFY(arg);
    w.state()->selectValue(arg);
    auto* tabs = w.findChild<QTabWidget*>(QStringLiteral("centreTabs"));
    QVERIFY(tabs);
    tabs->setCurrentIndex(1);
    QTRY_VERIFY(mesh->isVisible());
    QTRY_VERIFY(mesh->shownScale() > 0);
    QVERIFY(mesh->tensor().drawsDevices());
    const qreal before = mesh->shownScale();
    QVERIFY(before <= 1.0);
    auto* act = w.findChild<QAction*>(QStringLiteral("presentationAction"));
    act->trigger();
    QTRY_VERIFY(mesh->shownScale() > 1.0);
    QVERIFY2(mesh->shownScale() > before,
             qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(mesh->shownScale())));
    QCOMPARE(mesh->textScale(), 1.6);
    act->trigger();
    QCOMPARE(mesh->textScale(), 1.0);
    QTRY_VERIFY(mesh->shownScale() <= 1.0);
  }

  // Under the SparseCore tab F11 enlarges the charts' texts too (they kept
  // their size beside the 1.6x widgets), folds the settings and messages
  // away so the tab needs no scrolling, and leaving gives all of it back.
  void presentationEnlargesTheSparseCoreCharts() {
#ifndef SHARDSCOPE_HAVE_SC_WORKSPACE
    QSKIP("built without the SparseCore workspace");
#else
    app::MainWindow w(test::sampleDir());
    w.resize(1280, 800);
    w.show();
    auto* ws = w.findChild<scw::SparseCoreWorkspace*>();
    QVERIFY(ws);
    QSignalSpy analysed(ws, &scw::SparseCoreWorkspace::analysisUpdated);
    w.openFile(QDir(test::sampleDir()).filePath(QStringLiteral("sparsecore/dlrm_like.json")));
    QVERIFY(analysed.wait(30000) && ws->analysis());
    const int titleBefore = QFontInfo(ws->hbmPlot()->shownTexts().front().font).pixelSize();
    auto* settings = ws->findChild<QScrollArea*>(QStringLiteral("scSettingsScroll"));
    QVERIFY(settings);
    QTRY_VERIFY(settings->width() > 0);
    const int settingsWidth = settings->width();
    auto* act = w.findChild<QAction*>(QStringLiteral("presentationAction"));
    act->trigger();
    QCOMPARE(ws->textScale(), 1.6);
    for (plots::SparseCorePlot* p : std::initializer_list<plots::SparseCorePlot*>{
             ws->loadPlot(), ws->spmemPlot(), ws->hbmPlot(), ws->pipelinePlot(), ws->idsPlot()})
      QCOMPARE(p->textScale(), 1.6);
    QVERIFY(QFontInfo(ws->hbmPlot()->shownTexts().front().font).pixelSize() > titleBefore);
    QTRY_COMPARE(settings->width(), 0);  // folded away
    act->trigger();
    QCOMPARE(ws->textScale(), 1.0);
    QCOMPARE(QFontInfo(ws->hbmPlot()->shownTexts().front().font).pixelSize(), titleBefore);
    QTRY_VERIFY(settings->width() > 0);
    QVERIFY(std::abs(settings->width() - settingsWidth) <= 4);
#endif
  }

  // The factor table's plain-text cells (T, tensor) contrast with the
  // table in either theme: light text in the dark one, dark in the light.
  // Every colour of the presentation's narration reads on the strip, 4.5:1
  // at least: its grey context and rule lines were ~2.6:1 in the light
  // theme (mixed towards the text's base colour, drawn on the window's).
  void presentationNarrationReads_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
  }
  void presentationNarrationReads() {
    QFETCH(bool, dark);
    app::MainWindow w(test::sampleDir());
    auto lightAgain = qScopeGuard([&] { w.setTheme(Theme::Light); });
    QVERIFY(showPropagatedMlp(w, QSize(1280, 800), dark));
    auto* act = w.findChild<QAction*>(QStringLiteral("presentationAction"));
    act->trigger();
    auto offAgain = qScopeGuard([&] { if (act->isChecked()) act->trigger(); });
    auto* caption = w.findChild<QWidget*>(QStringLiteral("presentationCaption"));
    auto* narration = w.findChild<QTextBrowser*>(QStringLiteral("presentationNarration"));
    QVERIFY(caption && narration);
    QTRY_VERIFY(caption->isVisible());
    w.state()->setStepsApplied(2);
    QCoreApplication::processEvents();
    const QString html = narration->toHtml();
    QVERIFY2(narration->toPlainText().contains(QLatin1String("rule")), qPrintable(narration->toPlainText()));
    const QColor strip = caption->palette().color(QPalette::Window);
    static const QRegularExpression colour(QStringLiteral("color:(#[0-9a-fA-F]{6})"));
    int colours = 0;
    for (auto it = colour.globalMatch(html); it.hasNext();) {
      const QColor c(it.next().captured(1));
      ++colours;
      const double ratio = widgets::trace::TracePanel::contrast(c, strip);
      QVERIFY2(ratio >= 4.5, qPrintable(QStringLiteral("%1 on %2: %3:1").arg(c.name(), strip.name()).arg(ratio, 0, 'f', 2)));
    }
    QVERIFY(colours > 0);  // the context and the rule are coloured
  }

  void factorTableTextReadableInEitherTheme_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
  }
  void factorTableTextReadableInEitherTheme() {
    QFETCH(bool, dark);
    app::MainWindow w(test::sampleDir());
    auto lightAgain = qScopeGuard([&] { w.setTheme(Theme::Light); });
    QVERIFY(showPropagatedMlp(w, QSize(1600, 1000), dark));
    auto* table = w.findChild<QTableView*>(QStringLiteral("factorTable"));
    QVERIFY(table);
    QTRY_VERIFY(table->isVisible() && table->model()->rowCount() > 0);
    QTest::qWait(100);
    const QImage img = table->viewport()->grab().toImage();
    const QColor background = table->palette().color(QPalette::Base);
    for (const int column : {0, 1}) {  // T, tensor
      const QRect cell = table->visualRect(table->model()->index(0, column));
      QVERIFY(!cell.isEmpty());
      int maxContrast = 0;
      for (int y = cell.top(); y <= cell.bottom(); ++y)
        for (int x = cell.left(); x <= cell.right(); ++x)
          maxContrast = std::max(maxContrast,
                                 std::abs(QColor(img.pixel(x, y)).lightness() - background.lightness()));
      QVERIFY2(maxContrast >= 120, qPrintable(QStringLiteral("column %1: text contrast %2")
                                                  .arg(column)
                                                  .arg(maxContrast)));
    }
  }

  void themeChangesPalette() {
    app::MainWindow w(test::sampleDir());
    w.show();
    QVERIFY(openSample(w, QStringLiteral("matmul_chain.mlir")));
    auto* dark = w.findChild<QAction*>(QStringLiteral("theme_dark"));
    auto* light = w.findChild<QAction*>(QStringLiteral("theme_light"));
    QVERIFY(dark && light);
    dark->trigger();
    QCOMPARE(w.theme(), Theme::Dark);
    QVERIFY(isDark(QApplication::palette()));
    QTRY_VERIFY(isDark(w.sourceView()->palette()));
    QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 100);
    QCOMPARE(QSettings().value(QStringLiteral("theme")).toString(), QStringLiteral("dark"));
    QTest::qWait(300);
    w.grab().save(QStringLiteral("/tmp/dark.png"));
    // Export pictures stay light in the dark theme.
    ExportRequest req;
    req.view = ExportView::Source;
    QString error;
    const Picture pic = exportPicture(*w.state()->document(), req, &error);
    QVERIFY2(!pic.isNull(), qPrintable(error));
    QImage img(pic.size.toSize(), QImage::Format_ARGB32);
    img.fill(Qt::white);
    {
      QPainter p(&img);
      pic.paint(p);
    }
    QVERIFY(meanLightness(img) > 200);
    img.save(QStringLiteral("/tmp/dark_export_source.png"));
    // A new window starts in the saved theme.
    {
      app::MainWindow again(test::sampleDir());
      QCOMPARE(again.theme(), Theme::Dark);
    }
    light->trigger();
    QCOMPARE(w.theme(), Theme::Light);
    QVERIFY(!isDark(QApplication::palette()));
    QTRY_VERIFY(!isDark(w.sourceView()->palette()));
  }

  void settingsKeepGeometryAndLayout() {
    QSize saved;
    {
      app::MainWindow w(test::sampleDir());
      w.show();
      // Within the screen (a saved geometry is fitted to it, see layout_test).
      const QSize available = w.screen()->availableGeometry().size();
      w.resize(std::min(1234, available.width() - 10), std::min(950, available.height() - 10));
      saved = w.size();  // (the docks' minimum sizes may make it taller)
      if (auto* d = w.findChild<QDockWidget*>(QStringLiteral("sourceDock"))) d->hide();
      w.close();
    }
    app::MainWindow w(test::sampleDir());
    w.show();
    auto* d = w.findChild<QDockWidget*>(QStringLiteral("sourceDock"));
    QVERIFY(d);
    QVERIFY(!d->isVisible());
    QCOMPARE(w.size(), saved);
    d->show();
    w.close();
  }
};

QTEST_MAIN(PresentationTest)
#include "presentation_test.moc"
