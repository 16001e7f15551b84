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
#include <QTabWidget>

#include "core/document_state.h"
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
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  file->addAction(tr("Open &Dump Folder…"), this, &MainWindow::openDumpFolderDialog)
      ->setToolTip(tr("A folder of module dumps (Shardy's module-dump-directory) as a timeline"));
  recentMenu_->setObjectName(QStringLiteral("recentMenu"));
  QAction* reloadAct = file->addAction(tr("Re&load"), this, &MainWindow::reload);
  reloadAct->setShortcut(QKeySequence::Refresh);
  file->addSeparator();
  QAction* exp = file->addAction(tr("&Export Picture…"), this, [this] { exportDialog(-1); });
  QMenu* exportMenu = file->addMenu(tr("Export &View"));
  exportMenu->addAction(tr("Dataflow &Graph…"), this,
                        [this] { exportDialog(int(ExportView::Graph)); });
  exportMenu->addAction(tr("&Mesh View…"), this, [this] { exportDialog(int(ExportView::Mesh)); });
  exportMenu->addAction(tr("&Source…"), this, [this] { exportDialog(int(ExportView::Source)); });
  exp->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
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
  view->addSeparator();
  for (QDockWidget* d : findChildren<QDockWidget*>()) view->addAction(d->toggleViewAction());

  QMenu* prop = menuBar()->addMenu(tr("&Propagation"));
  QAction* propagateAct = prop->addAction(tr("&Propagate"), this, [this] {
    if (auto* d = findChild<QDockWidget*>(QStringLiteral("traceDock"))) d->raise();
    startPropagation(trace_->options());
  });
  propagateAct->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
  prop->addAction(tr("Step &Forward"), this,
                  [this] { state_->setStepsApplied(state_->stepsApplied() + 1); })
      ->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Right));
  prop->addAction(tr("Step &Back"), this,
                  [this] { state_->setStepsApplied(state_->stepsApplied() - 1); })
      ->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Left));
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
  prop->addAction(tr("&Replay"), this, [this] {
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
    cw->compare();
  });
  compare->setObjectName(QStringLiteral("compareStrategiesAction"));
  compare->setToolTip(tr("Run two strategies on the applied source, side by side, and list the "
                         "values whose sharding differs"));
#endif

  QMenu* help = menuBar()->addMenu(tr("&Help"));
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
  const QDir dir(sampleDir_);
  const QStringList files =
      sampleDir_.isEmpty() ? QStringList()
                           : dir.entryList({QStringLiteral("*.mlir")}, QDir::Files, QDir::Name);
  for (const QString& f : files)
    sampleMenu_->addAction(f, this, [this, path = dir.filePath(f)] { openFile(path); });
  sampleMenu_->setEnabled(!files.isEmpty());
}

}  // namespace shardscope::app
