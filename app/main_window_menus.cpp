// The menus and actions of the main window (File, Edit, View, Propagation,
// Help) and the Open Sample menu.
#include "main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QTabWidget>

#include "core/document_state.h"
#include "help_dialogs.h"
#include "sample_catalog.h"
#include "export/view_export.h"
#include "graph/graph_view.h"
#include "propagation/propagation_panel.h"
#include "source/source_view.h"
#include "whatif/what_if_panel.h"
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
#include "trace/strategy_compare_widget.h"
#include "trace/trace_panel.h"
#include "trace/trace_player.h"
#endif

namespace shardscope::app {

using namespace shardscope::widgets;

void MainWindow::createActions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::openDialog);
  open->setShortcut(QKeySequence::Open);
  sampleMenu_ = file->addMenu(tr("Open &Sample"));
  sampleMenu_->setObjectName(QStringLiteral("sampleMenu"));
  sampleMenu_->setToolTipsVisible(true);
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  file->addAction(tr("Open &Dump Folder…"), this, &MainWindow::openDumpFolderDialog)
      ->setToolTip(tr("A folder of module dumps (Shardy's module-dump-directory) as a timeline"));
  recentMenu_->setObjectName(QStringLiteral("recentMenu"));
  QAction* reloadAct = file->addAction(tr("Re&load"), this, &MainWindow::reload);
  reloadAct->setShortcut(QKeySequence::Refresh);
  file->addSeparator();
  createExportActions(file);
  QAction* save = file->addAction(tr("&Save Source"), this, &MainWindow::saveSource);
  save->setShortcut(QKeySequence::Save);
  QAction* saveAs = file->addAction(tr("Save Source &As…"), this, [this] { saveSourceAs(); });
  saveAs->setShortcut(QKeySequence::SaveAs);
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  QAction* apply =
      edit->addAction(tr("&Apply Edits and Re-run"), this, &MainWindow::applySourceEdits);
  apply->setObjectName(QStringLiteral("applyEditsAction"));
  apply->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
  apply->setShortcutContext(Qt::WindowShortcut);
  edit->addAction(tr("Edit Selected &Sharding…"), this, [this] {
    if (auto* d = findChild<QDockWidget*>(QStringLiteral("whatIfDock"))) {
      d->show();
      d->raise();
    }
    whatIf_->shardingEdit()->setFocus();
    whatIf_->shardingEdit()->selectAll();
  })->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
  edit->addSeparator();
  edit->addAction(tr("&Undo"), source_, &QPlainTextEdit::undo)->setShortcut(QKeySequence::Undo);
  edit->addAction(tr("&Redo"), source_, &QPlainTextEdit::redo)->setShortcut(QKeySequence::Redo);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(tr("Zoom &In"), graph_, &GraphView::zoomIn);
  view->addAction(tr("Zoom &Out"), graph_, &GraphView::zoomOut);
  view->addAction(tr("&Fit Graph"), graph_, &GraphView::zoomFit);
  QAction* find = view->addAction(tr("&Find in Graph…"), this, [this] {
    tabs_->setCurrentWidget(graph_);
    graph_->showSearch();
  });
  find->setShortcut(QKeySequence::Find);
  view->addSeparator();
  presentationAction_ = view->addAction(tr("&Presentation Mode"));
  presentationAction_->setObjectName(QStringLiteral("presentationAction"));
  presentationAction_->setCheckable(true);
  presentationAction_->setShortcut(QKeySequence(Qt::Key_F11));
  connect(presentationAction_, &QAction::toggled, this, &MainWindow::setPresentationMode);
  QMenu* themeMenu = view->addMenu(tr("&Theme"));
  themeMenu->setObjectName(QStringLiteral("themeMenu"));
  auto* themes = new QActionGroup(themeMenu);
  for (Theme t : {Theme::Light, Theme::Dark}) {
    QAction* a = themeMenu->addAction(t == Theme::Light ? tr("&Light") : tr("&Dark"));
    a->setObjectName(QString(QStringLiteral("theme_") + themeName(t)));
    a->setCheckable(true);
    a->setChecked(t == theme_);
    themes->addAction(a);
    connect(a, &QAction::triggered, this, [this, t] { setTheme(t); });
  }
  if (auto* layer = findChild<QAction*>(QStringLiteral("communicationLayerAction")))
    view->addAction(layer);
  view->addAction(graph_->groupByNameScopeAction());
  view->addSeparator();
  for (QDockWidget* d : findChildren<QDockWidget*>()) view->addAction(d->toggleViewAction());
  view->addSeparator();
  QAction* resetLayoutAct = view->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);
  resetLayoutAct->setObjectName(QStringLiteral("resetLayoutAction"));
  resetLayoutAct->setToolTip(tr("Every dock back where it starts, sized for this window"));

  QMenu* prop = menuBar()->addMenu(tr("&Propagation"));
  propagateAction_ = prop->addAction(tr("&Propagate"), this, [this] {
    if (!canPropagate()) return;
    if (auto* d = findChild<QDockWidget*>(QStringLiteral("traceDock"))) d->raise();
    startPropagation(trace_->options());
  });
  propagateAction_->setObjectName(QStringLiteral("propagateAction"));
  propagateAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
  QAction* forward = prop->addAction(tr("Step &Forward"), this,
                                     [this] { state_->setStepsApplied(state_->stepsApplied() + 1); });
  forward->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Right));
  QAction* back = prop->addAction(tr("Step &Back"), this,
                                  [this] { state_->setStepsApplied(state_->stepsApplied() - 1); });
  back->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Left));
  stepActions_ = {forward, back};
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
  stepActions_ << prop->addAction(tr("&Replay"), this, [this] {
    static_cast<trace::TracePanel*>(explorer_)->player()->scrubTo(-1);
    static_cast<trace::TracePanel*>(explorer_)->player()->play();
  });
#endif
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
  prop->addSeparator();
  QAction* compare = prop->addAction(tr("&Compare Strategies…"), this, [this] {
    auto* explorer = static_cast<trace::TracePanel*>(explorer_);
    if (auto* d = findChild<QDockWidget*>(QStringLiteral("traceExplorerDock"))) {
      d->show();
      d->raise();
    }
    auto* cw = explorer->compareWidget();
    for (QWidget* w = cw->parentWidget(); w; w = w->parentWidget())
      if (auto* tabs = qobject_cast<QTabWidget*>(w)) {
        tabs->setCurrentWidget(cw);
        break;
      }
    // Scrolled into view when the dock is too small for the whole explorer.
    for (QWidget* w = cw->parentWidget(); w; w = w->parentWidget())
      if (auto* scroll = qobject_cast<QScrollArea*>(w)) {
        scroll->ensureWidgetVisible(cw);
        break;
      }
    cw->compare();
  });
  compare->setObjectName(QStringLiteral("compareStrategiesAction"));
  compare->setToolTip(tr("Run two strategies on the applied source, side by side, and list the "
                         "values whose sharding differs"));
#endif

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&Guided Tour"), this, &MainWindow::showGuidedTour)
      ->setObjectName(QStringLiteral("guidedTourAction"));
  help->addAction(tr("&Keyboard Shortcuts"), this,
                  [this] { showKeyboardShortcuts(this, menuBar()); })
      ->setObjectName(QStringLiteral("shortcutsAction"));
  help->addSeparator();
  help->addAction(tr("&About Shardscope"), this, [this] {
    QMessageBox::about(
        this, tr("About Shardscope"),
        tr("<b>Shardscope</b> %1<br>An explorer for Shardy-style sharding propagation.<br>"
           "Graphs laid out with Graphviz.")
            .arg(QCoreApplication::applicationVersion()));
  });
  rebuildSampleMenu();
  rebuildRecentMenu();
}

void MainWindow::rebuildSampleMenu() {
  sampleMenu_->clear();
  // Each entry says what the sample shows (sample_catalog.h); SparseCore
  // jobs after the MLIR samples.
  const QList<SampleEntry> samples = sampleCatalog(sampleDir_);
  bool jobs = false;
  for (const SampleEntry& e : samples) {
    const bool job = e.path.endsWith(QLatin1String(".json"));
    if (job && !jobs) {
      sampleMenu_->addSection(tr("SparseCore jobs"));
      jobs = true;
    }
    QAction* a = sampleMenu_->addAction(e.menuText, this, [this, path = e.path] { openFile(path); });
    a->setToolTip(e.description);
    a->setStatusTip(e.description);
  }
  sampleMenu_->setEnabled(!samples.isEmpty());
}

void MainWindow::showGuidedTour() {
  if (auto* open = findChild<GuidedTour*>()) {
    open->show();
    open->raise();
    return;
  }
  auto raiseDock = [this](const char* name) {
    if (auto* d = findChild<QDockWidget*>(QLatin1String(name))) {
      d->show();
      d->raise();
    }
  };
  const QString megatron = QDir(sampleDir_).filePath(QStringLiteral("mlp_megatron.mlir"));
  QList<TourStep> steps = {
      {tr("A sharded module"),
       tr("<p>Shardscope opens StableHLO modules with <b>sdy</b> shardings. The "
          "<b>dataflow graph</b> (centre) shows each op and, between them, each value's "
          "sharding: one colour per mesh axis, open dimensions dashed.</p>"
          "<p>Try it on a Megatron-style MLP: its inputs are sharded on the "
          "<i>data</i> and <i>model</i> axes.</p>"),
       tr("Open the sample"), [this, megatron] { openFile(megatron); }},
      {tr("Which device holds what"),
       tr("<p>Click a value in the graph (or pick one in the <b>Mesh</b> tab's "
          "<i>Tensor</i> list): the mesh view shows which shard each device holds, its "
          "offset and local shape; replicated copies are hatched.</p>"),
       tr("Show the mesh"), [this] { tabs_->setCurrentIndex(1); }},
      {tr("Propagate"),
       tr("<p><b>Propagation &gt; Propagate</b> (Ctrl+P) runs what "
          "<tt>shardscope-opt -sdy-propagation-pipeline</tt> runs and records every step. "
          "The window then shows the result; the <b>Trace explorer</b> below tells the "
          "current step in words, shows the op's <b>factor table</b> and, in the <b>Why</b> "
          "tab, where each axis of a dimension came from.</p>"),
       tr("Propagate"),
       [this] {
         tabs_->setCurrentIndex(0);
         if (canPropagate()) startPropagation(trace_->options());
       }},
      {tr("Step through it"),
       tr("<p>Alt+Left and Alt+Right move one step; the player plays, scrubs and jumps by "
          "round or stage. Every view (graph, op tree, mesh, factor table, Why) shows the "
          "module as it was after the current step, and the axes a step moves travel "
          "along the graph's edges.</p>"),
       tr("Go to the start"), [this] { state_->setStepsApplied(0); }},
      {tr("What if?"),
       tr("<p>Select a value and edit its sharding in the <b>What-if</b> panel (or edit the "
          "source), then press Return: propagation runs again and every value whose "
          "sharding changed is listed and marked in the graph.</p>"
          "<p><b>Propagation &gt; Compare Strategies</b> runs two strategies side by "
          "side.</p>"),
       tr("Open What-if"), [raiseDock] { raiseDock("whatIfDock"); }},
      {tr("Show it to others"),
       tr("<p><b>View &gt; Presentation Mode</b> (F11) hides the docks, enlarges the text and "
          "shows the current step and its narration under the graph. <b>File &gt; Export "
          "Picture</b> (Ctrl+E) writes the current view as PNG, SVG or PDF. "
          "<b>Help &gt; Keyboard Shortcuts</b> lists every key.</p>"),
       tr("Keyboard shortcuts"), [this] { showKeyboardShortcuts(this, menuBar()); }},
  };
  auto* tour = new GuidedTour(std::move(steps), this);
  tour->setAttribute(Qt::WA_DeleteOnClose);
  tour->show();
}

}  // namespace shardscope::app
