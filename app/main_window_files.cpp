// Files: open (MLIR modules off the UI thread, with progress and Cancel in
// the status bar; SparseCore jobs and FDO
// statistics go to the SparseCore tab), reload, the Open dialog, saving the
// source, asking about unsaved edits, recent files.
#include "main_window.h"
#include "core/thread_cpu_time.h"
#include "core/work_pool.h"

#include <QFileDialog>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextDocument>
#include <QtConcurrent/QtConcurrentRun>

#include "diagnostics_dock.h"
#include "graph/graph_view.h"
#include "graph/prepared_grouping.h"
#include "api/staged_load.h"
#include "window_layout.h"
#include "load_progress.h"

#include "core/axis_style.h"
#include "core/document_state.h"
#include "diagnostics/diagnostics_model.h"
#include "propagation/propagation_panel.h"
#include "outline/op_tree_model.h"
#include "source/source_view.h"
#ifdef SHARDSCOPE_HAVE_SC_WORKSPACE
#include "sparsecore_workspace.h"
#endif

namespace shardscope::app {

using namespace shardscope::widgets;

namespace {
constexpr int kMaxRecent = 8;
// Files larger than this are converted for the source view while they are
// parsed (below it, converting after the parse costs < 50 ms).
constexpr qint64 kConvertAheadBytes = 8 * 1000 * 1000;
const char* const kRecentKey = "recentFiles";
// The loader thread's stage times (QT_LOGGING_RULES="shardscope.open.loader.debug=true").
Q_LOGGING_CATEGORY(lcLoader, "shardscope.open.loader", QtWarningMsg)
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
  // A module opened from a tab that takes the whole window (SparseCore, a
  // dump folder): its views come back with it, as a job opened elsewhere
  // brings the SparseCore tab. Kept there, the explorer came back over the
  // tab's lower half as the module loaded (final picture pass).
  if (layout_ && layout_->isFullWindowPageCurrent()) tabs_->setCurrentWidget(graph_);
  const quint64 req = ++loadRequest_;
  // An earlier open still reading is of no use now: stop it. So is a
  // propagation of the document shown (the new one replaces it).
  loader_.cancel();
  if (isPropagating()) {
    ++propagateRequest_;
    propagator_.cancel();
    trace_->setRun(run_);
  }
  busy_ = Busy::Loading;
  loadingPath_ = path;
  const QFileInfo file(path);
  statusMessageTimer_.stop();
  statusLabel_->setText(tr("Opening %1 (%2)…").arg(file.fileName(), fileSizeText(file.size())));
  loadProgress_->start(tr("Opening %1").arg(path));
  // While loading, the Diagnostics dock stays behind unless it lists the
  // problems of the document shown; the new document's decide after.
  if (diagModel_->rowCount() == 0) updateDiagnosticsDock(this, *diagModel_);
  loader_.setProperty("request", QVariant::fromValue<qulonglong>(req));
  // A large file's text is converted for the source view beside the parse,
  // on the other core (for 1M ops: ~1 s less before the graph can start).
  const bool convertAhead = file.size() > kConvertAheadBytes;
  // The graph's grouping is made beside the op tree and the source text
  // (prepared_grouping.h), for the options the graph has now.
  const GroupingOptions groupingOptions = graph_->groupingOptions();
  loader_.setFuture(QtConcurrent::run(widgets::workPool(), [p = path.toStdString(), convertAhead,
                                                            groupingOptions](QPromise<Loaded>& promise) {
    // A large file's text is converted for the source view on the other
    // core once it is read, beside the parse (no second read of the file).
    QFuture<QString> converted;
    promise.setProgressRange(0, LoadProgress::kRange);
    // The document's share of the bar; the op tree's rows are the rest.
    constexpr double kDocumentShare = 0.95;
    const api::LoadProgress progress{
        [&](double f) { promise.setProgressValue(int(f * kDocumentShare * LoadProgress::kRange)); },
        [&] { return promise.isCanceled(); }};
    QElapsedTimer clock;  // stage times for the shardscope.open log
    clock.start();
    // The graph's grouping starts once the module is parsed, on the other
    // core, beside the verifier, the op tree's rows and the source text.
    GroupingBesideLoad grouping(groupingOptions, [&promise] { return promise.isCanceled(); });
    api::AfterParse afterParse;
    if (convertAhead)
      afterParse.read = [&](const std::shared_ptr<const api::Document>& read) {
        converted = QtConcurrent::run(widgets::workPool(), [read] {
          const double cpu = threadCpuMs();
          QString text = SourceView::convert(*read);
          qCDebug(lcLoader) << "source text converted ahead: thread CPU" << threadCpuMs() - cpu << "ms";
          return text;
        });
      };
    grouping.addTo(afterParse);
    auto doc = api::loadDocument(p, &progress, afterParse);
    const qint64 loadedMs = clock.elapsed();
    const double loadedCpu = threadCpuMs();
    // Cancelled: no result, the shown one stays (a conversion still under
    // way finishes on its own and is dropped).
    if (doc->cancelled || promise.isCanceled()) return;
    // What showing it costs in proportion to its size, here: the op tree's
    // rows, the source view's text.
    OpTreeModel::prepare(doc);
    const double treeCpu = threadCpuMs();
    const qint64 treeMs = clock.elapsed();
    if (promise.isCanceled()) return;
    if (converted.isValid())
      SourceView::prepare(doc, converted.takeResult());
    else
      SourceView::prepare(doc);
    const qint64 preparedMs = clock.elapsed();
    // Counted while the grouping may still run (a walk of every op: tens of
    // ms at 1M ops, off the path to the first frame then).
    const int ops = doc->module ? functionOpCount(*doc->module) : 0;
    grouping.finish(doc);
    if (promise.isCanceled()) return;
    qCDebug(lcLoader) << "read, parsed, verified:" << loadedMs << "ms (thread CPU" << loadedCpu
                      << "); op tree by" << treeMs << "ms (" << treeCpu - loadedCpu
                      << "), source text by" << preparedMs << "ms (" << threadCpuMs() - treeCpu
                      << "); the graph's grouping by" << clock.elapsed() << "ms";
    promise.setProgressValue(LoadProgress::kRange);
    promise.addResult(Loaded{std::move(doc), ops});
  }));
}

void MainWindow::cancelLoading() {
  // The reader stops within a few thousand ops, a propagation before its
  // next pass; `finished` follows.
  if (isLoading()) loader_.cancel();
  if (isPropagating()) propagator_.cancel();
}

void MainWindow::onLoaderFinished() {
  const quint64 req = loader_.property("request").toULongLong();
  if (req != loadRequest_) return;  // stale: a newer open is under way
  busy_ = Busy::None;
  loadProgress_->stop();
  if (loader_.isCanceled() || loader_.future().resultCount() == 0) {
    // Cancelled: the document shown (if any) stays exactly as it was.
    showStatusMessage(tr("Opening %1 cancelled").arg(QFileInfo(loadingPath_).fileName()), 5000);
    emit loadCancelled(loadingPath_);
    return;
  }
  const Loaded loaded = loader_.result();
  countedDoc_ = loaded.doc;
  countedOps_ = loaded.ops;
  showDocument(loaded.doc);
}

QString MainWindow::fileSizeText(qint64 bytes) {
  if (bytes >= 1000 * 1000) return tr("%1 MB").arg(double(bytes) / 1e6, 0, 'f', 0);
  if (bytes >= 1000) return tr("%1 kB").arg(double(bytes) / 1e3, 0, 'f', 0);
  return tr("%1 bytes").arg(bytes);
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
