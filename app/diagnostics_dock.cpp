#include "diagnostics_dock.h"

#include <QAbstractItemModel>
#include <QDockWidget>
#include <QMainWindow>

namespace shardscope::app {

void updateDiagnosticsDock(QMainWindow* window, const QAbstractItemModel& diagnostics,
                           const char* insteadDock) {
  auto* diag = window->findChild<QDockWidget*>(QStringLiteral("diagnosticsDock"));
  if (!diag) return;
  const int n = diagnostics.rowCount();
  diag->setWindowTitle(n == 0 ? QMainWindow::tr("Diagnostics")
                              : QMainWindow::tr("Diagnostics (%1)").arg(n));
  if (n > 0) {
    diag->show();
    diag->raise();
    return;
  }
  // Nothing to say: give the place back unless the user chose the tab (it
  // is not in front) or floats it. Before the window is shown it is in
  // front, as the window builds it.
  const bool inFront = !window->isVisible() || !diag->visibleRegion().isEmpty();
  if (!inFront || diag->isFloating()) return;
  QDockWidget* other = nullptr;
  if (insteadDock) {
    other = window->findChild<QDockWidget*>(QLatin1String(insteadDock));
  } else {
    other = window->findChild<QDockWidget*>(QStringLiteral("traceExplorerDock"));
    if (!other) other = window->findChild<QDockWidget*>(QStringLiteral("traceDock"));
  }
  if (other && !other->isHidden() && window->tabifiedDockWidgets(diag).contains(other))
    other->raise();
}

}  // namespace shardscope::app
