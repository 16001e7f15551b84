// The main window's life cycle: construction (the views and docks are built
// in main_window_docks.cpp, the menus in main_window_menus.cpp), showing a
// loaded document in stages, the status bar and title, closing.
//
// The other parts of MainWindow, one concern per file:
//   main_window_docks.cpp        centre tabs and docks, their wiring
//   main_window_menus.cpp        menus and actions, the sample menu
//   main_window_files.cpp        open, reload, save, recent files
//   main_window_export.cpp       File > Export, screenshots
//   main_window_propagation.cpp  propagation runs and the one timeline
//   main_window_what_if.cpp      what-if re-runs of the edited source
//   main_window_selection.cpp    op tree, value combo, diagnostics → selection
//   main_window_view.cpp         presentation mode, theme, saved settings
#include "main_window.h"
#include "diagnostics_dock.h"
#include "load_progress.h"

#include <QCloseEvent>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QLoggingCategory>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>

#include "core/axis_style.h"
#include "core/thread_cpu_time.h"
#include "core/document_state.h"
#include "diagnostics/diagnostics_model.h"
#include "outline/op_tree_model.h"
#include "propagation/propagation_panel.h"
#include "source/source_view.h"
#include "whatif/what_if_panel.h"
#include "window_layout.h"
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
#include "trace/trace_panel.h"
#endif

#ifndef SHARDSCOPE_SOURCE_SAMPLE_DIR
#define SHARDSCOPE_SOURCE_SAMPLE_DIR ""
#endif

namespace shardscope::app {

using namespace shardscope::widgets;

QString findSampleDir() {
  const QString exeDir = QCoreApplication::applicationDirPath();
  const QStringList candidates = {exeDir + QStringLiteral("/../../sample_models"),
                                  exeDir + QStringLiteral("/../share/shardscope/sample_models"),
                                  QStringLiteral(SHARDSCOPE_SOURCE_SAMPLE_DIR)};
  for (const QString& c : candidates)
    if (!c.isEmpty() && QFileInfo::exists(c + QStringLiteral("/matmul_chain.mlir")))
      return QDir(c).canonicalPath();
  return {};
}
namespace {
// Stage times of opening a document (QT_LOGGING_RULES="shardscope.open.debug=true").
Q_LOGGING_CATEGORY(lcOpen, "shardscope.open", QtWarningMsg)
}  // namespace

MainWindow::MainWindow(QString sampleDir, QWidget* parent)
    : QMainWindow(parent), sampleDir_(std::move(sampleDir)), state_(new DocumentState(this)) {
  setWindowTitle(tr("Shardscope[*]"));
  setAcceptDrops(true);
  // The bottom docks (the explanation: narration, factor table, Why) take
  // the window's whole width; the op tree and the source stand above them.
  setCorner(Qt::BottomLeftCorner, Qt::BottomDockWidgetArea);
  setCorner(Qt::BottomRightCorner, Qt::BottomDockWidgetArea);

  // The views and docks (main_window_docks.cpp), in this order: the centre
  // tabs, the op tree (left), the source (right), the bottom docks.
  createCentre();
  createOpTreeDock();
  createSourceDock();
  createBottomDocks();

  // One text in the status bar: the file's status, or for a while a message
  // in its place (showStatusMessage), never both drawn on top of each other.
  statusLabel_ = new QLabel(this);
  statusLabel_->setObjectName(QStringLiteral("statusLabel"));
  statusBar()->addWidget(statusLabel_, 1);
  opSourceLabel_ = new QLabel(this);
  opSourceLabel_->setObjectName(QStringLiteral("opSourceLabel"));
  opSourceLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  statusBar()->addPermanentWidget(opSourceLabel_);
  statusMessageTimer_.setSingleShot(true);
  connect(&statusMessageTimer_, &QTimer::timeout, this, &MainWindow::updateStatus);

  // Sizes and the saved layout (window_layout.h): the default is the layout
  // as built, with sizes for the window once it is shown.
  layout_ = new WindowLayout(this, tabs_);
  createActions();
  layout_->captureDefault();
  restoreSettings();
#ifdef SHARDSCOPE_HAVE_SC_WORKSPACE
  layout_->setFullWindowPage(scPage_);
#endif

  connect(state_, &DocumentState::selectionChanged, this, [this] {
    showValueInCombo(state_->selectedValue());
    syncTreeToSelection();
    updateOpSource();
  });
  openStageTimer_.setSingleShot(true);
  openStageTimer_.setInterval(0);
  connect(&openStageTimer_, &QTimer::timeout, this, &MainWindow::runOpenStage);
  // Opening a file: progress and Cancel (Esc) at the right of the status bar.
  loadProgress_ = new LoadProgress(this);
  statusBar()->addPermanentWidget(loadProgress_);
  connect(&loader_, &QFutureWatcher<Loaded>::progressValueChanged,
          loadProgress_, &LoadProgress::setValue);
  connect(&propagator_, &QFutureWatcher<PreparedRun>::progressValueChanged, loadProgress_,
          &LoadProgress::setValue);
  connect(loadProgress_, &LoadProgress::cancelRequested, this, &MainWindow::cancelLoading);
  connect(&loader_, &QFutureWatcher<Loaded>::finished, this,
          &MainWindow::onLoaderFinished);
}

MainWindow::~MainWindow() {
  loader_.disconnect(this);
  loader_.cancel();  // a file still being read need not be read to its end
  propagator_.disconnect(this);
  propagator_.cancel();
  whatIfWatcher_.disconnect(this);
  loader_.waitForFinished();
  propagator_.waitForFinished();
  whatIfWatcher_.waitForFinished();
}
void MainWindow::updateTitle(const QString& suffix) {
  const QString name = original_ ? toQString(original_->name) : QString();
  // `[*]`: the window's modified marker (unsaved source edits).
  setWindowTitle(suffix.isEmpty() ? tr("%1[*] — Shardscope").arg(name)
                                  : tr("%1[*] — %2 — Shardscope").arg(name, suffix));
}
void MainWindow::showDocument(std::shared_ptr<const api::Document> doc) {
  // A large module must not block the UI thread for long (target: no turn of
  // the event loop over 100 ms for 100,000 ops; tests/bench/gui_open_bench
  // --main-window). What is seen first is done in this turn: the document
  // state (the graph groups and lays out off the UI thread, the source goes
  // in by chunks), diagnostics, title and status. The rest runs in later
  // turns, one costly step each: the op tree's rows, its expansion, the
  // hidden trace explorer, recent files. `loaded` is emitted after the last
  // one; a newer document drops the stages still pending.
  QElapsedTimer clock;
  clock.start();
  double cpu = threadCpuMs();
  auto cpuSince = [&cpu] {
    const double now = threadCpuMs(), spent = now - cpu;
    cpu = now;
    return spent;
  };
  openStages_.clear();
  const bool readable = doc->module || !doc->text.empty();
  original_ = doc;
  run_.reset();
  ++propagateRequest_;
  ++whatIfRequest_;  // a re-run of the previous file is stale
  treeModel_->setDocument(nullptr);  // filled in a later turn (rows prepared off the UI thread)
  diagModel_->setDiagnostics(doc->diagnostics, errorName(*doc));
  diagView_->resizeColumnsToContents();
  source_->discardEdits();
  qCDebug(lcOpen) << "tree cleared, diagnostics:" << clock.restart() << "ms, CPU" << cpuSince();
  state_->setDocument(doc);
  qCDebug(lcOpen) << "DocumentState::setDocument (views):" << clock.restart() << "ms, CPU"
                  << cpuSince();
  source_->document()->setModified(false);
  clearWhatIfResults();
  trace_->setRun(nullptr);
  updatePropagationActions();
  updateTitle();
  updateDiagnosticsDock(this, *diagModel_);
  if (doc->hasErrors()) {
    const auto& diags = doc->diagnostics;
    if (!diags.empty() && diags.front().loc.known())
      source_->goToLine(static_cast<int>(diags.front().loc.line),
                        static_cast<int>(diags.front().loc.col));
  }
  updateStatus();
  qCDebug(lcOpen) << "title, status:" << clock.restart() << "ms, CPU" << cpuSince();
  queueOpenStage("op tree rows", [this, doc] {
    treeModel_->setDocument(doc);
    fitTreeColumns();
  });
  queueOpenStage("op tree expanded", [this] {
    expandTree();
    syncTreeToSelection();
  });
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
  // The source view's text (converted once, shared).
  queueOpenStage("trace explorer", [this, doc] {
    static_cast<trace::TracePanel*>(explorer_)->setModuleText(source_->appliedText(),
                                                              toQString(doc->name));
  });
#endif
  queueOpenStage("recent files, loaded", [this, doc, readable] {
    if (readable) addRecent(toQString(doc->path));
    emit loaded(doc->module != nullptr);
    if (autoPropagate_ && doc->module && !doc->hasErrors()) startPropagation(*autoPropagate_);
  });
}

void MainWindow::queueOpenStage(const char* name, std::function<void()> stage) {
  openStages_.push_back({name, std::move(stage)});
  if (!openStageTimer_.isActive()) openStageTimer_.start();
}

void MainWindow::runOpenStage() {
  if (openStages_.empty()) return;
  // Popped first: the last stage emits `loaded` with isOpening() false.
  OpenStage stage = std::move(openStages_.front());
  openStages_.pop_front();
  QElapsedTimer clock;
  clock.start();
  const double cpu = threadCpuMs();
  stage.run();
  qCDebug(lcOpen) << stage.name << clock.elapsed() << "ms, UI-thread CPU" << threadCpuMs() - cpu
                  << "ms";
  if (!openStages_.empty()) openStageTimer_.start();  // the next one in the next turn
}
void MainWindow::showStatusMessage(const QString& message, int ms) {
  statusLabel_->setText(message.toHtmlEscaped());
  statusMessageTimer_.start(ms);
}

void MainWindow::updateStatus() {
  if (statusMessageTimer_.isActive()) return;  // back when the message expires
  statusLabel_->setText(statusText());
}

QString MainWindow::errorName(const api::Document& doc) {
  return doc.failedStage ? QString::fromLatin1(api::loadStageName(*doc.failedStage)) : QString();
}

int MainWindow::functionOpCount(const ir::Module& module) {
  int ops = 0;
  for (ir::Op* f : module.functions()) f->walk([&](ir::Op& op) { ops += &op != f; });
  return ops;
}

QString MainWindow::statusText() const {
  const auto& doc = state_->document();
  if (!doc) return statusLabel_->text();
  int ops = 0;
  if (doc->module) {
    if (countedDoc_.lock() != doc) {
      countedDoc_ = doc;
      countedOps_ = functionOpCount(*doc->module);
    }
    ops = countedOps_;
  }
  const int errors = doc->errorCount();
  QString text = tr("%1 — %2 function(s), %3 ops")
                     .arg(toQString(doc->name))
                     .arg(state_->functions().size())
                     .arg(ops);
  // Which kind of error (api::LoadStage): a file that cannot be read, text
  // that does not parse, a module that does not verify.
  const QString kind = doc->failedStage ? errorName(*doc) : tr("error");
  if (errors)
    text += tr(" — <span style='color:#c01c28'><b>%1 %2(s)</b></span>").arg(errors).arg(kind);
  else if (!doc->diagnostics.empty())
    text += tr(" — %1 diagnostic(s)").arg(doc->diagnostics.size());
  return text;
}
void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
  if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
  const auto urls = e->mimeData()->urls();
  for (const QUrl& u : urls)
    if (u.isLocalFile()) {
      openFile(u.toLocalFile());
      e->acceptProposedAction();
      return;
    }
}

void MainWindow::closeEvent(QCloseEvent* e) {
  if (!maybeDiscardEdits()) {
    e->ignore();
    return;
  }
  QSettings settings;
  // In presentation mode, keep the normal layout (and geometry).
  if (presentation_)
    settings.setValue(QStringLiteral("windowState"), normalState_);
  else
    layout_->save(settings);
  QMainWindow::closeEvent(e);
}

}  // namespace shardscope::app
