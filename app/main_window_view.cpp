// How the window looks: presentation mode, the light/dark theme, and the
// settings restored at start (geometry, dock layout, theme; closeEvent
// saves them).
#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QSettings>
#include <QTimer>

#include "graph/graph_view.h"
#include "mesh/mesh_view.h"
#include "presentation_caption.h"
#include "source/source_view.h"
#include "window_layout.h"
#ifdef SHARDSCOPE_HAVE_SC_WORKSPACE
#include "sparsecore_workspace.h"
#endif

namespace shardscope::app {

using namespace shardscope::widgets;

namespace {
const char* const kThemeKey = "theme";
}  // namespace

void MainWindow::restoreSettings() {
  // Window geometry and dock layout, theme (recent files: addRecent).
  QSettings settings;
  layout_->restore(settings);
  if (themeFromName(settings.value(QLatin1String(kThemeKey)).toString()) == Theme::Dark)
    setTheme(Theme::Dark);
}

void MainWindow::setPresentationMode(bool on) {
  if (on == presentation_) return;
  presentation_ = on;
  if (presentationAction_ && presentationAction_->isChecked() != on) {
    QSignalBlocker block(presentationAction_);
    presentationAction_->setChecked(on);
  }
  if (on) {
    normalState_ = saveState();
    normalWindowState_ = windowState();
    for (QDockWidget* d : findChildren<QDockWidget*>()) d->hide();
    QFont f = QApplication::font();
    if (f.pointSizeF() > 0)
      f.setPointSizeF(f.pointSizeF() * 1.6);
    else
      f.setPixelSize(qRound(f.pixelSize() * 1.6));
    setFont(f);
    source_->setFontScale(1.6);
    graph_->setTextScale(1.6);  // the legend, and Fit's smallest and largest zoom
    mesh_->setTextScale(1.6);   // the device grid: never smaller than outside it
#ifdef SHARDSCOPE_HAVE_SC_WORKSPACE
    scWorkspace_->setTextScale(1.6);  // the charts' texts, as large as the widgets around them
#endif
    // The step and its narration, large, under the graph.
    caption_->show();
    updatePresentationCaption();
    setWindowState(normalWindowState_ | Qt::WindowFullScreen);
  } else {
    caption_->hide();
    setFont(QFont());  // inherit the application font again
    source_->setFontScale(1.0);
    graph_->setTextScale(1.0);
    mesh_->setTextScale(1.0);
#ifdef SHARDSCOPE_HAVE_SC_WORKSPACE
    scWorkspace_->setTextScale(1.0);
#endif
    setWindowState(normalWindowState_);
    restoreState(normalState_);
  }
  QTimer::singleShot(0, graph_, &GraphView::zoomFit);
}

void MainWindow::setTheme(Theme theme) {
  theme_ = theme;
  applyTheme(theme);
  QSettings().setValue(QLatin1String(kThemeKey), themeName(theme));
  if (auto* a = findChild<QAction*>(QString(QStringLiteral("theme_") + themeName(theme))))
    a->setChecked(true);
}

}  // namespace shardscope::app

namespace shardscope::app {

void MainWindow::resetLayout() {
  if (presentation_) setPresentationMode(false);
  layout_->reset();
}

}  // namespace shardscope::app
