// Export: every view as a picture from the GUI (File > Export Picture, Ctrl+E,
// for the view in use; File > Export View for any), and the screenshot of
// the window taken by `shardscope --screenshot`.
//
// Views are named as `shardscope --export --view` names them: graph, mesh,
// source, comm, factors, trace, why, and the SparseCore charts sc-load,
// sc-spmem, sc-hbm, sc-pipeline, sc-ids, sc-stats; `compare` is the result
// of Propagation > Compare Strategies (headless: `--view compare`). Titles say the
// state shown (as written, before/after propagation, which strategy, which
// step); pictures are light in either theme and carry no selection halo.
// The save dialog starts in the folder of the last export.
#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPixmap>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

#include "api/communication.h"
#include "comm/communication_export.h"
#include "comm/communication_feed.h"
#include "comm/communication_panel.h"
#include "core/axis_style.h"
#include "core/document_state.h"
#include "core/html_picture.h"
#include "core/picture_export.h"
#include "core/timeline_caption.h"
#include "export/view_export.h"
#include "graph/graph_view.h"
#include "mesh/mesh_view.h"
#include "main_window.h"
#include "source/source_view.h"
#ifdef SHARDSCOPE_HAVE_SC_WORKSPACE
#include "sparsecore_workspace.h"
#endif
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
#include "trace/strategy_compare_export.h"
#include "trace/strategy_compare_widget.h"
#include "trace/trace_export.h"
#include "trace/trace_panel.h"
#include "trace/trace_state.h"
#include "trace/why_panel.h"
#endif

namespace shardscope::app {

using namespace shardscope::widgets;

namespace {
const char* const kExportFolderKey = "export/lastFolder";

struct ExportEntry {
  const char* view;
  const char* menuText;
  const char* objectName;
};
// The File > Export View menu, in order (nullptr view: a separator).
const ExportEntry kExportEntries[] = {
    {"graph", QT_TRANSLATE_NOOP("MainWindow", "Dataflow &Graph…"), "exportGraphAction"},
    {"mesh", QT_TRANSLATE_NOOP("MainWindow", "&Mesh View…"), "exportMeshAction"},
    {"source", QT_TRANSLATE_NOOP("MainWindow", "&Source…"), "exportSourceAction"},
    {"comm", QT_TRANSLATE_NOOP("MainWindow", "&Communication…"), "exportCommAction"},
    {nullptr, nullptr, nullptr},
    {"factors", QT_TRANSLATE_NOOP("MainWindow", "&Factor Table…"), "exportFactorsAction"},
    {"trace", QT_TRANSLATE_NOOP("MainWindow", "Propagation &Trace…"), "exportTraceAction"},
    {"why", QT_TRANSLATE_NOOP("MainWindow", "&Why Chain…"), "exportWhyAction"},
    {"compare", QT_TRANSLATE_NOOP("MainWindow", "Strategy C&omparison…"), "exportCompareAction"},
    {nullptr, nullptr, nullptr},
    {"sc-load", QT_TRANSLATE_NOOP("MainWindow", "SparseCore Partition &Load…"),
     "exportScLoadAction"},
    {"sc-spmem", QT_TRANSLATE_NOOP("MainWindow", "SparseCore S&PMEM…"), "exportScSpmemAction"},
    {"sc-hbm", QT_TRANSLATE_NOOP("MainWindow", "SparseCore &HBM…"), "exportScHbmAction"},
    {"sc-pipeline", QT_TRANSLATE_NOOP("MainWindow", "SparseCore Pipe&line…"),
     "exportScPipelineAction"},
    {"sc-ids", QT_TRANSLATE_NOOP("MainWindow", "SparseCore &Id Distribution…"),
     "exportScIdsAction"},
    {"sc-stats", QT_TRANSLATE_NOOP("MainWindow", "SparseCore FDO &Statistics…"),
     "exportScStatsAction"},
};

bool isSparseCoreName(const QString& view) { return view.startsWith(QLatin1String("sc-")); }

// The views of the trace explorer (a build without it has none of them).
bool isExplorerName(const QString& view) {
  return view == QLatin1String("factors") || view == QLatin1String("trace") ||
         view == QLatin1String("why") || view == QLatin1String("compare");
}

// `w` is `ancestor` or inside it.
bool isInside(const QWidget* w, const QWidget* ancestor) {
  return w && ancestor && (w == ancestor || ancestor->isAncestorOf(w));
}

// The default save dialog: PNG, SVG or PDF; without a known suffix the
// chosen filter's is added.
QString askSavePath(QWidget* parent, const QString& caption, const QString& suggested) {
  QString filter;
  QString path = QFileDialog::getSaveFileName(
      parent, caption, suggested,
      MainWindow::tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"), &filter);
  if (!path.isEmpty() && pictureFormatForPath(path) == PictureFormat::Unknown)
    path += filter.contains(QLatin1String("svg"))   ? QStringLiteral(".svg")
            : filter.contains(QLatin1String("pdf")) ? QStringLiteral(".pdf")
                                                    : QStringLiteral(".png");
  return path;
}
}  // namespace

void MainWindow::createExportActions(QMenu* file) {
  QAction* exp = file->addAction(tr("&Export Picture…"), this, [this] { exportDialog({}); });
  exp->setObjectName(QStringLiteral("exportAction"));
  exp->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  exp->setToolTip(
      tr("Export the view in use (the current tab, or the source or trace "
         "explorer when you work there) as PNG, SVG or PDF"));
  QMenu* exportMenu = file->addMenu(tr("Export &View"));
  exportMenu->setObjectName(QStringLiteral("exportViewMenu"));
  for (const ExportEntry& e : kExportEntries) {
    if (!e.view) {
      exportMenu->addSeparator();
      continue;
    }
#ifndef SHARDSCOPE_HAVE_TRACE_WIDGETS
    if (isExplorerName(QLatin1String(e.view))) continue;
#endif
#ifndef SHARDSCOPE_HAVE_SC_WORKSPACE
    if (isSparseCoreName(QLatin1String(e.view))) continue;
#endif
    QAction* a = exportMenu->addAction(
        tr(e.menuText), this, [this, v = QString::fromLatin1(e.view)] { exportDialog(v); });
    a->setObjectName(QLatin1String(e.objectName));
  }
  // Which view is in use: the centre tab shown, unless the source, the
  // Communication dock or the trace explorer took the keyboard focus since.
  connect(tabs_, &QTabWidget::currentChanged, this, [this] { exportFocus_ = ExportFocus::Centre; });
  connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) {
    if (!now || !isAncestorOf(now)) return;
    if (isInside(now, source_))
      exportFocus_ = ExportFocus::Source;
    else if (isInside(now, explorer_))
      exportFocus_ = ExportFocus::Explorer;
    else if (isInside(now, communicationPanel()))
      exportFocus_ = ExportFocus::Communication;
    else if (isInside(now, tabs_))
      exportFocus_ = ExportFocus::Centre;
  });
}

QString MainWindow::currentExportView() const {
  if (exportFocus_ == ExportFocus::Source) return QStringLiteral("source");
  if (exportFocus_ == ExportFocus::Communication) return QStringLiteral("comm");
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
  if (exportFocus_ == ExportFocus::Explorer) {
    auto* explorer = static_cast<trace::TracePanel*>(explorer_);
    const QWidget* focus = QApplication::focusWidget();
    if (isInside(focus, explorer->whyPanel())) return QStringLiteral("why");
    if (isInside(focus, explorer->factorTableWidget())) return QStringLiteral("factors");
    if (isInside(focus, explorer->compareWidget())) return QStringLiteral("compare");
    return QStringLiteral("trace");
  }
#endif
  QWidget* tab = tabs_->currentWidget();
#ifdef SHARDSCOPE_HAVE_SC_WORKSPACE
  if (isInside(scWorkspace_, tab)) return scWorkspace_->currentViewName();
#endif
  if (tab == graph_) return QStringLiteral("graph");
  if (isInside(mesh_, tab)) return QStringLiteral("mesh");
  return {};  // a tab without a picture (the dump folder)
}

void MainWindow::setSavePathChooser(SavePathChooser chooser) {
  savePathChooser_ = std::move(chooser);
}

void MainWindow::exportDialog(const QString& requested) {
  const QString view = requested.isEmpty() ? currentExportView() : requested;
  if (view.isEmpty()) {
    showStatusMessage(tr("This tab has no picture to export (File > Export View "
                                "lists the views that do)."),
                             8000);
    return;
  }
  // The file the picture is of: the module, or the SparseCore job.
  QString file = state_->document() ? toQString(state_->document()->path) : QString();
#ifdef SHARDSCOPE_HAVE_SC_WORKSPACE
  if (isSparseCoreName(view)) file = scWorkspace_->jobPath();
#endif
  QString folder = QSettings().value(QLatin1String(kExportFolderKey)).toString();
  if (folder.isEmpty() || !QFileInfo(folder).isDir())
    folder = file.isEmpty() ? QDir::homePath() : QFileInfo(file).absolutePath();
  const QString base =
      file.isEmpty() ? QStringLiteral("shardscope") : QFileInfo(file).completeBaseName();
  const QString suggested = QDir(folder).filePath(base + u'_' + view + QStringLiteral(".png"));
  const QString caption = tr("Export %1").arg(view);
  const QString path = savePathChooser_ ? savePathChooser_(caption, suggested)
                                        : askSavePath(this, caption, suggested);
  if (path.isEmpty()) return;
  QString error, title;
  if (!exportViewTo(view, path, &error, &title)) {
    if (savePathChooser_)
      showStatusMessage(tr("Export failed: %1").arg(error), 8000);
    else
      QMessageBox::warning(this, tr("Export failed"), error);
    emit exportFailed(view, error);
    return;
  }
  QSettings().setValue(QLatin1String(kExportFolderKey), QFileInfo(path).absolutePath());
  showStatusMessage(tr("Exported %1").arg(path), 5000);
  emit viewExported(view, path, title);
}

bool MainWindow::exportViewTo(const QString& view, const QString& path, QString* error,
                              QString* title) {
  auto fail = [&](const QString& message) {
    if (error) *error = message;
    return false;
  };
  Picture pic;
  ExportView basic;
  if (parseExportView(view, &basic)) {
    const auto& doc = state_->document();
    if (!doc) return fail(tr("Open a module first."));
    ExportRequest req;
    req.view = basic;
    req.state = timelineCaption(*state_);
    if (basic == ExportView::Graph) {
      req.op = state_->function();
      // Mid-timeline: the last step's axis moves drawn on the graph.
      const api::SteppedRun* run = state_->steppedRun();
      const int k = state_->stepsApplied();
      if (run && k > 0 && k < state_->stepCount())
        req.step = &run->run->trace.steps[static_cast<size_t>(k - 1)];
    } else if (basic == ExportView::Mesh) {
      req.op = state_->selectedOp() ? state_->selectedOp() : state_->function();
      req.value = state_->selectedValue();
    } else {
      req.state = tr("as written");  // the text, whatever step the timeline is at
    }
    pic = exportPicture(*doc, req, error);
    if (pic.isNull()) return false;
#ifdef SHARDSCOPE_HAVE_SC_WORKSPACE
  } else if (isSparseCoreName(view)) {
    if (!scWorkspace_->exportView(view, path, QSize(), error)) return false;
    if (title) *title = scWorkspace_->viewTitle(view);
    return true;
#endif
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
  } else if (view == QLatin1String("compare")) {
    auto* explorer = static_cast<trace::TracePanel*>(explorer_);
    pic = trace::strategyComparePicture(*explorer->compareWidget(), error);
    if (pic.isNull()) return false;
  } else if (isExplorerName(view)) {
    auto* explorer = static_cast<trace::TracePanel*>(explorer_);
    const trace::TraceState* ts = explorer->state();
    if (!ts->run())
      return fail(tr("Propagate first (Ctrl+P): the %1 shows a propagation run.").arg(view));
    if (view == QLatin1String("why")) {
      if (!ts->selectedValue())
        return fail(tr("Pick a value in the trace explorer's Why tab first."));
      const QString file = state_->document() ? toQString(state_->document()->name) : QString();
      pic = withTitle(htmlPicture(explorer->whyPanel()->explanationHtml(), 640),
                      file + QStringLiteral(" — Why chain — ") + timelineCaption(*state_),
                      tr("where each axis of the dimension came from, step by step back to "
                         "its seed"));
    } else {
      trace::TraceExportOptions o;
      trace::parseTraceExportView(view, &o.view);
      o.strategy = ts->run()->strategy();
      o.dimensionView = ts->dimensionView();
      o.before = ts->showBefore();
      o.step = ts->currentStep();
      if (o.step < 0) {  // the input: the first step's table before it
        o.step = 0;
        o.before = true;
      }
      pic = trace::traceExportPicture(*ts->run(), o, error);
      if (pic.isNull()) return false;
    }
#endif
  } else if (view == QLatin1String("comm")) {
    const auto& doc = state_->document();
    if (!doc) return fail(tr("Open a module first."));
    comm::CommunicationPanel* panel = communicationPanel();
    if (!panel) return fail(tr("This window has no Communication dock."));
    const QString state = timelineCaption(*state_);
    const QString file = toQString(doc->name);
    // The report the dock shows, when it is of the state shown now; else
    // (a step or an edit not analysed yet) the analysis the headless export
    // makes, for the dock's chip. The same picture either way.
    const comm::CommunicationFeed* feed = panel->feed();
    std::shared_ptr<const api::CommunicationReport> report;
    if (feed->isCurrent()) {
      report = feed->report();
    } else {
      api::CommunicationOptions options;
      options.chip = panel->chip().toStdString();
      report = std::make_shared<const api::CommunicationReport>(
          api::analyzeCommunication(*doc, options));
    }
    if (!report->ok) return fail(comm::reportFailedMessage(file, report->error));
    pic = comm::communicationPicture(*report, comm::communicationTitle(file, state));
  } else {
    return fail(tr("No view named '%1' can be exported here.").arg(view));
  }
  if (!writePicture(pic, path, error)) return false;
  if (title) *title = pic.title;
  return true;
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
