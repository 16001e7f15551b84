// File > Open Dump Folder: a folder of module dumps (Shardy's
// module-dump-directory, XLA's shardy/ dumps) in a "Dump folder" tab of the
// centre (a diff wants the width a dock does not have), as a timeline with
// the diff between neighbours (widgets/dumps). The tab takes the whole
// window while it is current (the MLIR docks come back on another tab).
#include <QTabWidget>
#include <QFileDialog>
#include <QSettings>
#include <QStatusBar>

#include "dumps/dump_folder_view.h"
#include "graph/graph_view.h"
#include "main_window.h"
#include "window_layout.h"

namespace shardscope::app {

void MainWindow::openDumpFolderDialog() {
  QSettings settings;
  const QString start = settings.value(QStringLiteral("dumps/lastFolder"), sampleDir_).toString();
  const QString folder = QFileDialog::getExistingDirectory(this, tr("Open Dump Folder"), start);
  if (folder.isEmpty()) return;
  settings.setValue(QStringLiteral("dumps/lastFolder"), folder);
  openDumpFolder(folder);
}

bool MainWindow::openDumpFolder(const QString& folder, QString* error) {
  if (!dumpView_) {
    dumpView_ = new widgets::DumpFolderView(tabs_);
    connect(dumpView_, &widgets::DumpFolderView::openDumpRequested, this,
            [this](const QString& path) {
              if (!maybeDiscardEdits()) return;
              openFile(path);
              tabs_->setCurrentWidget(graph_);
            });
  }
  QString why;
  if (!dumpView_->setFolder(folder, &why)) {
    showStatusMessage(tr("Cannot open the dump folder: %1").arg(why), 8000);
    if (error) *error = why;
    return false;
  }
  if (tabs_->indexOf(dumpView_) < 0) {
    tabs_->addTab(dumpView_, tr("Dump folder"));
    // The timeline and its diffs take the whole window, as the SparseCore
    // tab does: the MLIR docks (empty for a folder) would leave them a third.
    layout_->setFullWindowPage(dumpView_);
  }
  tabs_->setTabToolTip(tabs_->indexOf(dumpView_), folder);
  tabs_->setCurrentWidget(dumpView_);
  showStatusMessage(
      tr("Dump folder %1: %n dump(s)", nullptr, dumpView_->dumpCount()).arg(folder), 5000);
  return true;
}

}  // namespace shardscope::app
