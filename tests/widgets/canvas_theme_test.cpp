// Canvases follow the theme: the graph scene (background, node fills, text,
// edges) and the mesh view are dark in the dark theme, light in the light
// one, switching at run time; axis colours stay readable on both; exported
// pictures stay light in either theme.
#include <QApplication>
#include <QCheckBox>
#include <QGraphicsView>
#include <QRadioButton>
#include <QStyle>
#include <QStyleOptionButton>
#include <QVBoxLayout>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "core/axis_style.h"
#include "core/document_state.h"
#include "graph/graph_view.h"
#include "mesh/mesh_view.h"
#include "core/picture_export.h"
#include "test_util.h"
#include "core/theme_palette.h"
#include "export/view_export.h"

using namespace shardscope;
using namespace shardscope::widgets;

namespace {

bool near(const QColor& a, const QColor& b, int tolerance = 6) {
  return std::abs(a.red() - b.red()) <= tolerance && std::abs(a.green() - b.green()) <= tolerance &&
         std::abs(a.blue() - b.blue()) <= tolerance;
}

// Share of the pixels of `img` darker than mid-grey.
double darkShare(const QImage& img) {
  qint64 dark = 0, all = 0;
  for (int y = 0; y < img.height(); y += 3)
    for (int x = 0; x < img.width(); x += 3) {
      ++all;
      dark += QColor(img.pixel(x, y)).lightness() < 128;
    }
  return all ? double(dark) / double(all) : 0;
}

}  // namespace

class CanvasThemeTest : public QObject {
  Q_OBJECT
 private slots:
  void cleanup() { applyTheme(Theme::Light); }

  // An empty check box (and radio button) has an edge that reads on the
  // window, 3:1 at least (a control's boundary): Fusion's edge is the
  // window colour darkened, and an unchecked box in the dark theme was a
  // dark square with no border (the Why tab, the SparseCore side pane);
  // in the light one its grey edge was 1.7:1.
  void emptyCheckBoxesHaveAnEdge_data() {
    QTest::addColumn<bool>("dark");
    QTest::addColumn<bool>("radio");
    for (bool dark : {false, true})
      for (bool radio : {false, true})
        QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(dark ? QStringLiteral("dark") : QStringLiteral("light"),
                                                             radio ? QStringLiteral("radio button")
                                                                   : QStringLiteral("check box"))))
            << dark << radio;
  }
  void emptyCheckBoxesHaveAnEdge() {
    QFETCH(bool, dark);
    QFETCH(bool, radio);
    applyTheme(dark ? Theme::Dark : Theme::Light);
    QWidget box;
    box.setPalette(QApplication::palette());
    box.setAutoFillBackground(true);
    auto* layout = new QVBoxLayout(&box);
    QAbstractButton* button = radio ? static_cast<QAbstractButton*>(new QRadioButton(QStringLiteral("follow steps")))
                                    : new QCheckBox(QStringLiteral("follow steps"));
    button->setChecked(false);
    layout->addWidget(button);
    box.resize(200, 40);
    box.show();
    QVERIFY(QTest::qWaitForWindowExposed(&box));
    const QImage img = button->grab().toImage();
    QStyleOptionButton opt;
    opt.initFrom(button);
    const QRect indicator = button->style()->subElementRect(
        radio ? QStyle::SE_RadioButtonIndicator : QStyle::SE_CheckBoxIndicator, &opt, button);
    QVERIFY(!indicator.isEmpty());
    const QColor window = QApplication::palette().color(QPalette::Window);
    double best = 1;
    const qreal dpr = img.devicePixelRatio();
    for (int y = indicator.top(); y <= indicator.bottom(); ++y)
      for (int x = indicator.left(); x <= indicator.right(); ++x)
        best = std::max(best, test::contrastRatio(QColor(img.pixel(int(x * dpr), int(y * dpr))), window));
    QVERIFY2(best >= 3.0, qPrintable(QStringLiteral("edge at most %1:1 on the window").arg(best, 0, 'f', 2)));
  }

  void axisColoursReadable_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
  }
  void axisColoursReadable() {
    QFETCH(bool, dark);
    const CanvasColors& cc = canvasColors(dark);
    QCOMPARE(cc.dark, dark);
    for (int i = 0; i < 16; ++i) {
      const QColor c = readableOn(axisColor(i), dark);
      if (!dark) {
        QCOMPARE(c, axisColor(i));  // the light theme keeps the palette as it is
        continue;
      }
      // Lightened with the same hue (still matches its legend swatch).
      QVERIFY2(test::contrastRatio(c, cc.background) >= 4.5, qPrintable(c.name()));
      QCOMPARE(c.hslHue(), axisColor(i).hslHue());
    }
    // Text colours of the canvas against its node fills.
    for (const QColor& fill : {cc.opFill, cc.sdyOpFill, cc.argumentFill, cc.valueFill,
                               cc.returnFill, cc.groupFill, cc.matchFill})
      QVERIFY2(test::contrastRatio(cc.text, fill) >= 7, qPrintable(fill.name()));
    // Inline colours of node labels: greys and axis colours made readable.
    const QString html = QStringLiteral("<span style=\"color:#333\">a</span>"
                                        "<span style=\"color:%1\">x</span>")
                             .arg(axisColor(0).name());
    const QString themed = readableHtml(html, dark);
    if (!dark) {
      QCOMPARE(themed, html);
    } else {
      QVERIFY(!themed.contains(QLatin1String("#333")));
      QVERIFY(themed.contains(readableOn(axisColor(0), true).name()));
    }
  }

  // The graph canvas and the mesh view in each theme, and switching.
  void canvasesFollowTheme_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
  }
  void canvasesFollowTheme() {
    QFETCH(bool, dark);
    applyTheme(Theme::Light);
    auto doc = test::loadSample(QStringLiteral("mlp_megatron.mlir"));
    QVERIFY(doc->module);
    DocumentState state;
    GraphView graph(&state);
    graph.resize(900, 600);
    MeshView mesh(&state);
    mesh.resize(800, 500);
    graph.show();
    mesh.show();
    QSignalSpy laid(&graph, &GraphView::layoutFinished);
    state.setDocument(doc);
    QVERIFY(laid.wait(60000));
    state.selectValue(state.defaultValue());
    // Switch at run time (as View > Theme does).
    applyTheme(dark ? Theme::Dark : Theme::Light);
    QCoreApplication::processEvents();
    QCOMPARE(isDark(graph.scene()), dark);
    const CanvasColors& cc = canvasColors(dark);
    const QImage g = graph.view()->viewport()->grab().toImage();
    // The canvas background (a corner away from the legend and the map).
    QVERIFY2(near(QColor(g.pixel(3, g.height() / 2)), cc.background),
             qPrintable(QColor(g.pixel(3, g.height() / 2)).name()));
    const QImage mi = mesh.grab().toImage();
    QVERIFY2(near(QColor(mi.pixel(mi.width() - 3, mi.height() - 3)), cc.background),
             qPrintable(QColor(mi.pixel(mi.width() - 3, mi.height() - 3)).name()));
    // Mostly dark (or light) pixels, nodes and cells included.
    if (dark) {
      QVERIFY2(darkShare(g) > 0.9, qPrintable(QString::number(darkShare(g))));
      QVERIFY2(darkShare(mi) > 0.8, qPrintable(QString::number(darkShare(mi))));
    } else {
      QVERIFY2(darkShare(g) < 0.1, qPrintable(QString::number(darkShare(g))));
      QVERIFY2(darkShare(mi) < 0.2, qPrintable(QString::number(darkShare(mi))));
    }
    const QString suffix = dark ? QStringLiteral("dark") : QStringLiteral("light");
    g.save(QStringLiteral("/tmp/canvas_graph_%1.png").arg(suffix));
    mi.save(QStringLiteral("/tmp/canvas_mesh_%1.png").arg(suffix));
  }

  // Exports are light in either theme.
  void exportsStayLight_data() {
    QTest::addColumn<int>("view");
    QTest::newRow("graph") << int(ExportView::Graph);
    QTest::newRow("mesh") << int(ExportView::Mesh);
  }
  void exportsStayLight() {
    QFETCH(int, view);
    applyTheme(Theme::Dark);
    auto doc = test::loadSample(QStringLiteral("mlp_megatron.mlir"));
    QVERIFY(doc->module);
    ExportRequest req;
    req.view = static_cast<ExportView>(view);
    QString error;
    const Picture pic = exportPicture(*doc, req, &error);
    QVERIFY2(!pic.isNull(), qPrintable(error));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("x.png"));
    QVERIFY2(writePicture(pic, path, &error, 1.0), qPrintable(error));
    const QImage img(path);
    QVERIFY(!img.isNull());
    QVERIFY2(darkShare(img) < 0.15, qPrintable(QString::number(darkShare(img))));
  }
};

QTEST_MAIN(CanvasThemeTest)
#include "canvas_theme_test.moc"
