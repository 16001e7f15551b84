// Files: open (MLIR modules off the UI thread; SparseCore jobs and FDO
// statistics go to the SparseCore tab), reload, the Open dialog, saving the
// source, asking about unsaved edits, recent files.
#include "main_window.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextDocument>
#include <QtConcurrent/QtConcurrentRun>

#include "core/axis_style.h"
#include "core/document_state.h"
#include "outline/op_tree_model.h"
#include "source/source_view.h"
#ifdef SHARDSCOPE_HAVE_SC_WORKSPACE
#include "sparsecore_workspace.h"
#endif

namespace shardscope::app {

using namespace shardscope::widgets;

namespace {
constexpr int kMaxRecent = 8;
const char* const kRecentKey = "recentFiles";
}  // namespace

void MainWindow::rebuildRecentMenu() {
  recentMenu_->clear();
  const QStringList recent = QSettings().value(QLatin1String(kRecentKey)).toStringList();
  for (const QString& f : recent) recentMenu_->addAction(f, this, [this, f] { openFile(f); });
  if (!recent.isEmpty()) {
    recentMenu_->addSeparator();
    recentMenu_->addAction(tr("Clear"), this, [this] {
      QSettings().remove(QLatin1String(kRecentKey));
      rebuildRecentMenu();
    });
  }
  recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::addRecent(const QString& path) {
  QSettings settings;
  QStringList recent = settings.value(QLatin1String(kRecentKey)).toStringList();
  const QString abs = QFileInfo(path).absoluteFilePath();
  recent.removeAll(abs);
  recent.prepend(abs);
  while (recent.size() > kMaxRecent) recent.removeLast();
  settings.setValue(QLatin1String(kRecentKey), recent);
  rebuildRecentMenu();
}

void MainWindow::openFile(const QString& path) {
#ifdef SHARDSCOPE_HAVE_SC_WORKSPACE
  if (path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
    scWorkspace_->openJob(path);
    tabs_->setCurrentWidget(scPage_);
    statusMessageTimer_.stop();
    statusLabel_->setText(tr("SparseCore job %1").arg(path));
    return;
  }
  // FDO statistics (fdo_stats_<process>_<time>.npz/.csv), or a folder of them.
  const QFileInfo info(path);
  if (path.endsWith(QLatin1String(".npz"), Qt::CaseInsensitive) ||
      (path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive) && info.fileName().startsWith(QLatin1String("fdo_stats"))) ||
      info.isDir()) {
    scWorkspace_->openStats({path});
    tabs_->setCurrentWidget(scPage_);
    statusMessageTimer_.stop();
    statusLabel_->setText(tr("FDO statistics %1").arg(path));
    return;
  }
#endif
  if (!maybeDiscardEdits()) return;
  const quint64 req = ++loadRequest_;
  loadingPath_ = path;
  statusMessageTimer_.stop();
  statusLabel_->setText(tr("Loading %1…").arg(path));
  loader_.setProperty("request", QVariant::fromValue<qulonglong>(req));
  loader_.setFuture(QtConcurrent::run([p = path.toStdString()] {
    auto doc = api::loadDocument(p);
    OpTreeModel::prepare(doc);  // the op tree's rows, off the UI thread
    return doc;
  }));
}

void MainWindow::reload() {
  if (original_ && !original_->path.empty()) openFile(toQString(original_->path));
}
void MainWindow::openDialog() {
  const QString start = state_->document() && !state_->document()->path.empty()
                            ? QFileInfo(toQString(state_->document()->path)).absolutePath()
                            : sampleDir_;
  const QString path = QFileDialog::getOpenFileName(this, tr("Open MLIR"), start,
                                                    tr("MLIR modules and SparseCore jobs (*.mlir *.json);;"
                                                       "MLIR files (*.mlir);;SparseCore jobs (*.json);;"
                                                       "FDO statistics (*.npz *.csv);;All files (*)"));
  if (!path.isEmpty()) openFile(path);
}
bool MainWindow::isSourceModified() const { return source_->document()->isModified(); }

bool MainWindow::saveSourceTo(const QString& path, QString* error) {
  // While a large source is still being filled into the editor (read-only,
  // no edits possible) the editor holds only part of it: save the whole text.
  const QByteArray bytes = source_->text().toUtf8();
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
    if (error) *error = tr("Cannot save %1: %2").arg(path, f.errorString());
    return false;  // the buffer (and its modified flag) stays as it is
  }
  source_->document()->setModified(false);
  showStatusMessage(tr("Saved %1").arg(path), 5000);
  return true;
}

void MainWindow::saveSource() {
  if (!original_) return;
  if (original_->path.empty()) {
    saveSourceAs();
    return;
  }
  QString error;
  if (!saveSourceTo(toQString(original_->path), &error))
    QMessageBox::warning(this, tr("Save failed"),
                         error + tr("\n\nYour edits are still in the source view."));
}

bool MainWindow::saveSourceAs() {
  if (!original_) return false;
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Save Source As"), toQString(original_->path), tr("MLIR files (*.mlir)"));
  if (path.isEmpty()) return false;
  QString error;
  if (!saveSourceTo(path, &error)) {
    QMessageBox::warning(this, tr("Save failed"),
                         error + tr("\n\nYour edits are still in the source view."));
    return false;
  }
  addRecent(path);
  return true;
}

bool MainWindow::maybeDiscardEdits() {
  if (!isSourceModified()) return true;
  const auto answer = QMessageBox::question(
      this, tr("Unsaved edits"),
      tr("The source of %1 has edits that are not saved. Save them?")
          .arg(original_ ? toQString(original_->name) : tr("this module")),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Cancel) return false;
  if (answer == QMessageBox::Save) {
    if (!original_ || original_->path.empty()) return saveSourceAs();
    QString error;
    if (!saveSourceTo(toQString(original_->path), &error)) {
      QMessageBox::warning(this, tr("Save failed"), error);
      return false;
    }
  }
  return true;
}

}  // namespace shardscope::app
