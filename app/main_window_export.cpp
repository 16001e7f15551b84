// Export: File > Export Picture (Ctrl+E) and Export View, and the
// screenshot of the window taken by `shardscope --screenshot`.
#include "main_window.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPixmap>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

#include "core/axis_style.h"
#include "core/document_state.h"
#include "core/picture_export.h"
#include "export/view_export.h"
#include "graph/graph_view.h"
#include "source/source_view.h"

namespace shardscope::app {

using namespace shardscope::widgets;

void MainWindow::exportDialog(int view) {
  const auto& doc = state_->document();
  if (!doc) return;
  ExportRequest req;
  if (view >= 0) {
    req.view = static_cast<ExportView>(view);
  } else {
    req.view = tabs_->currentIndex() == 1 ? ExportView::Mesh : ExportView::Graph;
    if (source_->hasFocus()) req.view = ExportView::Source;
  }
  req.op = state_->selectedOp() ? state_->selectedOp() : state_->function();
  req.value = state_->selectedValue();
  if (req.view == ExportView::Source) req.op = nullptr;
  static const char* const shortNames[] = {"graph", "mesh", "source"};
  const QString base = QFileInfo(toQString(doc->name)).completeBaseName();
  const QString dir =
      doc->path.empty() ? QDir::homePath() : QFileInfo(toQString(doc->path)).absolutePath();
  const QString suggested = QDir(dir).filePath(
      base + u'_' + QLatin1String(shortNames[static_cast<int>(req.view)]) + QStringLiteral(".png"));
  QString filter;
  QString path = QFileDialog::getSaveFileName(
      this, tr("Export %1").arg(exportViewName(req.view)), suggested,
      tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"), &filter);
  if (path.isEmpty()) return;
  if (pictureFormatForPath(path) == PictureFormat::Unknown) {
    // No (known) suffix typed: take the one of the chosen filter.
    path += filter.contains(QLatin1String("svg"))   ? QStringLiteral(".svg")
            : filter.contains(QLatin1String("pdf")) ? QStringLiteral(".pdf")
                                                    : QStringLiteral(".png");
  }
  QString error;
  const Picture pic = exportPicture(*doc, req, &error);
  if (pic.isNull() || !writePicture(pic, path, &error)) {
    QMessageBox::warning(this, tr("Export failed"), error);
    return;
  }
  showStatusMessage(tr("Exported %1").arg(path), 5000);
}
void MainWindow::screenshotAndQuit(const QString& path, const QString& tab) {
  screenshotPath_ = path;
  screenshotTab_ = tab;
  auto grabLater = [this] {
    if (screenshotTab_ == QLatin1String("mesh")) tabs_->setCurrentIndex(1);
    QTimer::singleShot(300, this, [this] {
      const QPixmap pm = grab();
      const bool ok = pm.save(screenshotPath_);
      if (!ok) qWarning("screenshot: cannot write %s", qPrintable(screenshotPath_));
      QCoreApplication::exit(ok ? 0 : 1);
    });
  };
  // Grab once the graph is laid out (after propagation when it runs).
  auto conn = std::make_shared<QMetaObject::Connection>();
  *conn = connect(graph_, &GraphView::layoutFinished, this, [this, conn, grabLater] {
    const bool waitingForRun =
        autoPropagate_ && original_ && original_->module && !original_->hasErrors() && !run_;
    if (waitingForRun) return;
    disconnect(*conn);
    grabLater();
  });
}

}  // namespace shardscope::app
