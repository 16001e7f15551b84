#include "main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QPushButton>
#include <QTextDocument>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#ifdef SHARDSCOPE_HAVE_SC_WORKSPACE
#include "sparsecore_workspace.h"
#endif
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSaveFile>
#include <QScrollArea>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>
#include <QListView>
#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QStandardItemModel>
#include <QtConcurrent/QtConcurrentRun>

#include "axis_style.h"
#include "comm_dock_setup.h"
#include "what_if_communication.h"
#include "diagnostics_model.h"
#include "document_state.h"
#include "graph_change_marks.h"
#include "graph_axis_animation.h"
#include "graph_view.h"
#include "mesh_view.h"
#include "op_tree_model.h"
#include "picture_export.h"
#include "propagation_panel.h"
#include "source_view.h"
#include "view_export.h"
#include "what_if_diff.h"
#include "what_if_edit.h"
#include "what_if_panel.h"
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
#include "trace/strategy_compare_widget.h"
#include "trace/trace_panel.h"
#include "trace/trace_player.h"
#include "trace/trace_state.h"
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
// Op trees with more rows than this get computed column widths (measuring
// every row at each layout blocks the UI thread on large modules).
constexpr size_t kLargeTree = 5000;
constexpr int kMaxRecent = 8;
const char* const kRecentKey = "recentFiles";
const char* const kThemeKey = "theme";
}  // namespace

MainWindow::MainWindow(QString sampleDir, QWidget* parent)
    : QMainWindow(parent), sampleDir_(std::move(sampleDir)), state_(new DocumentState(this)) {
  setWindowTitle(tr("Shardscope[*]"));
  setAcceptDrops(true);
  resize(1400, 860);

  // Centre: graph and mesh.
  tabs_ = new QTabWidget(this);
  graph_ = new GraphView(state_, tabs_);
  mesh_ = new MeshView(state_, tabs_);
  auto* meshPane = new QWidget(tabs_);
  auto* ml = new QVBoxLayout(meshPane);
  ml->setContentsMargins(0, 0, 0, 0);
  ml->setSpacing(0);
  auto* meshBar = new QWidget(meshPane);
  auto* mbl = new QHBoxLayout(meshBar);
  mbl->setContentsMargins(6, 3, 6, 3);
  mbl->addWidget(new QLabel(tr("Tensor:"), meshBar));
  valueCombo_ = new QComboBox(meshBar);
  valueCombo_->setObjectName(QStringLiteral("valueCombo"));
  // Sized to a fixed number of characters, the popup's rows of one height:
  // measuring 100,000 value labels blocks the UI thread for half a second.
  valueCombo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  valueCombo_->setMinimumContentsLength(48);
  if (auto* list = qobject_cast<QListView*>(valueCombo_->view())) list->setUniformItemSizes(true);
  valueCombo_->setToolTip(
      tr("The value whose shards the mesh view shows (or click a value in the graph)"));
  mbl->addWidget(valueCombo_);
  mbl->addStretch(1);
  auto* meshScroll = new QScrollArea(meshPane);
  meshScroll->setWidget(mesh_);
  meshScroll->setWidgetResizable(true);
  meshScroll->setFrameShape(QFrame::NoFrame);
  ml->addWidget(meshBar);
  ml->addWidget(meshScroll, 1);
  // What-if: the values changed by the last re-run, marked in the graph.
  new GraphChangeMarks(state_, graph_);
  tabs_->addTab(graph_, tr("Dataflow graph"));
  tabs_->addTab(meshPane, tr("Mesh"));
#ifdef SHARDSCOPE_HAVE_SC_WORKSPACE
  // SparseCore jobs (JSON) open here; they are independent of the MLIR module.
  scWorkspace_ = new scw::SparseCoreWorkspace(tabs_);
  scWorkspace_->setObjectName(QStringLiteral("sparseCoreWorkspace"));
  tabs_->addTab(scWorkspace_, tr("SparseCore"));
#endif
  connect(valueCombo_, &QComboBox::activated, this, [this](int i) {
    state_->selectValue(
        reinterpret_cast<const ir::Value*>(valueCombo_->itemData(i).value<quintptr>()));
  });
  connect(state_, &DocumentState::functionChanged, this, &MainWindow::fillValueCombo);
  setCentralWidget(tabs_);

  // Left: op tree with a filter.
  treeModel_ = new OpTreeModel(this);
  treeProxy_ = new QSortFilterProxyModel(this);
  treeProxy_->setSourceModel(treeModel_);
  treeProxy_->setRecursiveFilteringEnabled(true);
  treeProxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  treeProxy_->setFilterKeyColumn(-1);
  auto* treePane = new QWidget(this);
  auto* tl = new QVBoxLayout(treePane);
  tl->setContentsMargins(0, 0, 0, 0);
  treeFilter_ = new QLineEdit(treePane);
  treeFilter_->setPlaceholderText(tr("Filter ops, values, axes…"));
  treeFilter_->setClearButtonEnabled(true);
  tree_ = new QTreeView(treePane);
  tree_->setObjectName(QStringLiteral("opTree"));
  tree_->setModel(treeProxy_);
  tree_->setUniformRowHeights(true);
  tree_->setAlternatingRowColors(true);
  tree_->header()->setStretchLastSection(true);
  tree_->header()->setSectionResizeMode(OpTreeModel::OpColumn, QHeaderView::ResizeToContents);
  tl->addWidget(treeFilter_);
  tl->addWidget(tree_);
  auto* treeDock = new QDockWidget(tr("Functions and ops"), this);
  treeDock->setObjectName(QStringLiteral("opsDock"));
  treeDock->setWidget(treePane);
  addDockWidget(Qt::LeftDockWidgetArea, treeDock);
  connect(treeFilter_, &QLineEdit::textChanged, treeProxy_, [this](const QString& t) {
    treeProxy_->setFilterFixedString(t);
    if (!t.isEmpty()) tree_->expandAll();
  });
  connect(tree_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& cur) { onTreeActivated(cur); });

  // Right: source.
  auto* sourcePane = new QWidget(this);
  auto* sl = new QVBoxLayout(sourcePane);
  sl->setContentsMargins(0, 0, 0, 0);
  sl->setSpacing(0);
  auto* sourceBar = new QWidget(sourcePane);
  auto* sbl = new QHBoxLayout(sourceBar);
  sbl->setContentsMargins(6, 2, 6, 2);
  auto* sourceHint = new QLabel(tr("Edit shardings, then re-run:"), sourceBar);
  sourceHint->setObjectName(QStringLiteral("sourceHint"));
  sbl->addWidget(sourceHint, 1);
  auto* applyButton = new QPushButton(tr("Apply && Re-run"), sourceBar);
  applyButton->setObjectName(QStringLiteral("applySourceButton"));
  applyButton->setToolTip(tr("Re-parse the edited source, propagate again and diff the result "
                             "against the previous run (Ctrl+Return)"));
  sbl->addWidget(applyButton);
  source_ = new SourceView(state_, sourcePane);
  sl->addWidget(sourceBar);
  sl->addWidget(source_, 1);
  auto* sourceDock = new QDockWidget(tr("Source"), this);
  sourceDock->setObjectName(QStringLiteral("sourceDock"));
  sourceDock->setWidget(sourcePane);
  connect(applyButton, &QPushButton::clicked, this, &MainWindow::applySourceEdits);
  connect(source_->document(), &QTextDocument::modificationChanged, this,
          &QWidget::setWindowModified);
  auto updateHint = [this, sourceHint] {
    if (source_->hasUnappliedEdits())
      sourceHint->setText(tr("<b>Edited</b> — not applied yet (Ctrl+Return)"));
    else if (source_->hasSplitLines())
      sourceHint->setText(tr("Read-only: lines over %L1 characters are shown in pieces (↪); "
                             "edit shardings in the What-if panel")
                              .arg(source_->maxShownLine()));
    else
      sourceHint->setText(tr("Edit shardings, then re-run:"));
  };
  connect(source_, &QPlainTextEdit::textChanged, this, updateHint);
  connect(state_, &DocumentState::documentChanged, this, updateHint);
  connect(this, &MainWindow::whatIfFinished, this, [updateHint, sourceHint](bool ok) {
    if (ok)
      updateHint();
    else
      sourceHint->setText(tr("<b style='color:#c01c28'>Not applied</b> — fix the errors "
                             "(Diagnostics), then Ctrl+Return"));
  });
  addDockWidget(Qt::RightDockWidgetArea, sourceDock);

  // Bottom: diagnostics and the (future) propagation trace.
  diagModel_ = new DiagnosticsModel(this);
  diagProxy_ = new QSortFilterProxyModel(this);
  diagProxy_->setSourceModel(diagModel_);
  diagProxy_->setSortRole(DiagnosticsModel::SortRole);
  diagView_ = new QTableView(this);
  diagView_->setObjectName(QStringLiteral("diagnosticsView"));
  diagView_->setModel(diagProxy_);
  diagView_->setSortingEnabled(true);
  diagView_->sortByColumn(DiagnosticsModel::LineColumn, Qt::AscendingOrder);
  diagView_->setSelectionBehavior(QAbstractItemView::SelectRows);
  diagView_->verticalHeader()->hide();
  diagView_->horizontalHeader()->setStretchLastSection(true);
  auto* diagDock = new QDockWidget(tr("Diagnostics"), this);
  diagDock->setObjectName(QStringLiteral("diagnosticsDock"));
  diagDock->setWidget(diagView_);
  addDockWidget(Qt::BottomDockWidgetArea, diagDock);
  connect(diagView_, &QTableView::activated, this, &MainWindow::onDiagnosticActivated);
  connect(diagView_, &QTableView::clicked, this, &MainWindow::onDiagnosticActivated);

  trace_ = new PropagationPanel(state_, this);
  auto* traceDock = new QDockWidget(tr("Propagation trace"), this);
  traceDock->setObjectName(QStringLiteral("traceDock"));
  traceDock->setWidget(trace_);
  addDockWidget(Qt::BottomDockWidgetArea, traceDock);
  tabifyDockWidget(diagDock, traceDock);
  diagDock->raise();
  connect(trace_, &PropagationPanel::propagateRequested, this, &MainWindow::startPropagation);
  connect(&propagator_, &QFutureWatcher<PreparedRun>::finished, this, [this] {
    const quint64 req = propagator_.property("request").toULongLong();
    if (req != propagateRequest_ || propagator_.future().resultCount() == 0) return;  // stale
    showRun(propagator_.result(), /*selectLastStep=*/true);
    // The explorer tells the steps (narration, factor table, Why).
    const char* dock = explorer_ ? "traceExplorerDock" : "traceDock";
    if (auto* d = findChild<QDockWidget*>(QLatin1String(dock))) {
      d->show();
      d->raise();
    }
    statusBar()->showMessage(run_->ok
                                 ? tr("Propagated: %1 step(s)").arg(run_->trace.steps.size())
                                 : tr("Propagation failed"),
                             5000);
  });
  // The one timeline: whatever moved it, every view shows the state after
  // the same step (the graph, tree, mesh and combo read the moved module).
  connect(state_, &DocumentState::stepChanged, this, &MainWindow::onStepChanged);
  connect(state_, &DocumentState::shardingsChanged, this, [this](const api::TimelineChanges& c) {
    tree_->viewport()->update();  // its sharding column reads the module
    updateComboTexts(c);
  });
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
  // The full trace explorer (factor tables, narration, "why"), next to the
  // stepping panel; its step selection moves the source and the selection.
  auto* explorer = new trace::TracePanel(this);
  explorer_ = explorer;
  auto* explorerDock = new QDockWidget(tr("Trace explorer"), this);
  explorerDock->setObjectName(QStringLiteral("traceExplorerDock"));
  // In a scroll area: its minimum size must not squeeze the centre.
  auto* explorerScroll = new QScrollArea(explorerDock);
  explorerScroll->setWidget(explorer);
  explorerScroll->setWidgetResizable(true);
  explorerScroll->setFrameShape(QFrame::NoFrame);
  explorerDock->setWidget(explorerScroll);
  addDockWidget(Qt::BottomDockWidgetArea, explorerDock);
  tabifyDockWidget(traceDock, explorerDock);
  diagDock->raise();
  // One player for the window: the explorer's. Its Run is the window's
  // Propagate; its steps move the window's timeline (and the timeline moves
  // it, see onStepChanged); the trace dock's Play plays it.
  explorer->setRunsElsewhere(true);
  connect(explorer, &trace::TracePanel::runRequested, this, &MainWindow::startPropagation);
  trace::TracePlayer* player = explorer->player();
  connect(player, &trace::TracePlayer::currentStepChanged, this, [this, explorer](int step) {
    // Only while it holds the window's run (clearing it must not move the timeline).
    if (state_->steppedRun() && explorer->state()->stepCount() == state_->stepCount())
      state_->setStepsApplied(step + 1);
  });
  connect(player, &trace::TracePlayer::playingChanged, trace_, &PropagationPanel::setPlaying);
  connect(trace_, &PropagationPanel::playToggled, player, [player](bool on) {
    if (on)
      player->play();
    else
      player->pause();
  });
  connect(explorer->compareWidget(), &trace::StrategyCompareWidget::valueActivated, this,
          [this](int opIndex, int line) {
            if (line > 0) source_->goToLine(line);
            selectOpByPreOrder(opIndex);
          });
#endif
  // Bottom: the what-if panel (edit a value's sharding, diff of the re-run).
  whatIf_ = new WhatIfPanel(state_, this);
  auto* whatIfDock = new QDockWidget(tr("What-if"), this);
  whatIfDock->setObjectName(QStringLiteral("whatIfDock"));
  whatIfDock->setWidget(whatIf_);
  addDockWidget(Qt::BottomDockWidgetArea, whatIfDock);
  tabifyDockWidget(traceDock, whatIfDock);
  addCommunicationDock(this, state_, whatIfDock);
  diagDock->raise();
  connect(whatIf_, &WhatIfPanel::valueActivated, this, &MainWindow::selectValueByKey);
  // A what-if edit: the source is rewritten (what_if_edit.h) and applied.
  auto applyRewrite = [this](const std::optional<QString>& text, const QString& error) {
    if (!text) {
      whatIf_->setStatus(tr("Cannot rewrite the source: %1").arg(error), true);
      return;
    }
    source_->replaceText(*text);
    applySourceEdits();
  };
  connect(whatIf_, &WhatIfPanel::shardingEdited, this,
          [this, applyRewrite](const ir::Value* value, const TensorSharding& sharding) {
            QString error;
            applyRewrite(rewriteValueSharding(source_->text(), *value, sharding, &error), error);
          });
  connect(whatIf_, &WhatIfPanel::functionResultEdited, this,
          [this, applyRewrite](const ir::Op* func, unsigned index, const TensorSharding& sharding) {
            QString error;
            applyRewrite(
                rewriteFunctionResultSharding(source_->text(), *func, index, sharding, &error),
                error);
          });
  connect(&whatIfWatcher_, &QFutureWatcher<WhatIfResult>::finished, this, [this] {
    const quint64 req = whatIfWatcher_.property("request").toULongLong();
    if (req != whatIfRequest_ || whatIfWatcher_.future().resultCount() == 0) return;  // stale
    showWhatIf(whatIfWatcher_.result());
  });
  connect(state_, &DocumentState::changedValuesChanged, this,
          [this] { treeModel_->setChangedValues(state_->changedValues()); });
  resizeDocks({treeDock, sourceDock}, {340, 400}, Qt::Horizontal);
  resizeDocks({diagDock}, {170}, Qt::Vertical);

  statusLabel_ = new QLabel(this);
  statusBar()->addWidget(statusLabel_, 1);

  createActions();

  // Settings: window geometry and dock layout, theme (recent files: addRecent).
  {
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
    if (themeFromName(settings.value(QLatin1String(kThemeKey)).toString()) == Theme::Dark)
      setTheme(Theme::Dark);
  }

  connect(state_, &DocumentState::selectionChanged, this, [this] {
    showValueInCombo(state_->selectedValue());
    syncTreeToSelection();
  });
  openStageTimer_.setSingleShot(true);
  openStageTimer_.setInterval(0);
  connect(&openStageTimer_, &QTimer::timeout, this, &MainWindow::runOpenStage);
  connect(&loader_, &QFutureWatcher<std::shared_ptr<api::Document>>::finished, this, [this] {
    const quint64 req = loader_.property("request").toULongLong();
    if (req != loadRequest_ || loader_.future().resultCount() == 0) return;  // stale
    showDocument(loader_.result());
  });
}

MainWindow::~MainWindow() {
  loader_.disconnect(this);
  propagator_.disconnect(this);
  whatIfWatcher_.disconnect(this);
  loader_.waitForFinished();
  propagator_.waitForFinished();
  whatIfWatcher_.waitForFinished();
}

void MainWindow::selectOpByPreOrder(int opIndex) {
  const ir::Module* m = state_->module();
  if (!m || opIndex < 0) return;
  int i = 0;
  const ir::Op* found = nullptr;
  for (const auto& top : m->body().ops())
    top->walk([&](ir::Op& o) {
      if (i++ == opIndex) found = &o;
    });
  if (found && !found->is("func.func")) state_->selectOp(found);
}

void MainWindow::selectValueByKey(const QString& key) {
  // "@main/%3"
  const qsizetype slash = key.indexOf(u'/');
  if (slash < 0) return;
  if (const ir::Op* f = state_->findFunction(key.left(slash))) state_->setFunction(f);
  if (const ir::Value* v = state_->findValue(key.mid(slash + 1))) {
    state_->selectValue(v);
    const ir::Op* owner = v->isBlockArgument() ? v->ownerBlock->parentOp() : v->definingOp;
    if (owner && owner->loc().line > 0) source_->goToLine(static_cast<int>(owner->loc().line));
  }
}

void MainWindow::createActions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::openDialog);
  open->setShortcut(QKeySequence::Open);
  sampleMenu_ = file->addMenu(tr("Open &Sample"));
  recentMenu_ = file->addMenu(tr("Open &Recent"));
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
    tabs_->setCurrentWidget(scWorkspace_);
    statusLabel_->setText(tr("SparseCore job %1").arg(path));
    return;
  }
  // FDO statistics (fdo_stats_<process>_<time>.npz/.csv), or a folder of them.
  const QFileInfo info(path);
  if (path.endsWith(QLatin1String(".npz"), Qt::CaseInsensitive) ||
      (path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive) && info.fileName().startsWith(QLatin1String("fdo_stats"))) ||
      info.isDir()) {
    scWorkspace_->openStats({path});
    tabs_->setCurrentWidget(scWorkspace_);
    statusLabel_->setText(tr("FDO statistics %1").arg(path));
    return;
  }
#endif
  if (!maybeDiscardEdits()) return;
  const quint64 req = ++loadRequest_;
  loadingPath_ = path;
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

void MainWindow::updateTitle(const QString& suffix) {
  const QString name = original_ ? toQString(original_->name) : QString();
  // `[*]`: the window's modified marker (unsaved source edits).
  setWindowTitle(suffix.isEmpty() ? tr("%1[*] — Shardscope").arg(name)
                                  : tr("%1[*] — %2 — Shardscope").arg(name, suffix));
}

void MainWindow::startPropagation(const propagation::PropagationOptions& options) {
  if (!original_ || !original_->module || original_->hasErrors()) return;
  const quint64 req = ++propagateRequest_;
  trace_->setBusy(tr("Propagating (%1)…").arg(QString::fromLatin1(api::levelName(options.level))));
  propagator_.setProperty("request", QVariant::fromValue<qulonglong>(req));
  propagator_.setFuture(QtConcurrent::run([doc = original_, options] {
    return prepareRun(doc, api::propagateDocument(*doc, options));
  }));
}

MainWindow::PreparedRun MainWindow::prepareRun(const std::shared_ptr<const api::Document>& input,
                                               std::shared_ptr<const api::PropagationRun> run) {
  PreparedRun r;
  r.run = run;
  if (run && run->ok) {
    r.stepped = api::prepareSteppedRun(*input, run);
    if (r.stepped) OpTreeModel::prepare(r.stepped->doc);  // the tree's rows, here
  }
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
  r.explorerRun = trace::traceRunFor(*input, run);
#endif
  return r;
}

void MainWindow::showRun(const PreparedRun& r, bool selectLastStep) {
  run_ = r.run;
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
  static_cast<trace::TracePanel*>(explorer_)->showRun(r.explorerRun);
#endif
  if (r.stepped) {
    // Laid out once here; steps then change shardings in place.
    treeModel_->setDocument(r.stepped->doc);
    state_->setSteppedRun(r.stepped);
    expandTree();
  } else {
    state_->setSteppedRun(nullptr);
  }
  trace_->setRun(run_);
  const int n = state_->stepCount();
  if (selectLastStep && n > 0) onStepChanged(n, n);
  else updateStepTitle();
}

void MainWindow::onStepChanged(int steps, int previous) {
  const api::ShardingTimeline* timeline = state_->timeline();
  const auto& run = state_->steppedRun() ? state_->steppedRun()->run : nullptr;
  if (!timeline || !run) return;
  double speed = 1000.0 / 900.0;
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
  auto* explorer = static_cast<trace::TracePanel*>(explorer_);
  if (explorer->state()->stepCount() == state_->stepCount()) {
    explorer->player()->scrubTo(steps - 1);  // no-op when it moved the timeline
    speed = explorer->player()->speed();
  }
#endif
  (void)previous;
  if (steps > 0) {
    const propagation::TraceStep& step = run->trace.steps[static_cast<size_t>(steps - 1)];
    if (const ir::Op* op = timeline->opAt(step.opIndex); op && !op->is("func.func"))
      state_->selectOp(op);
    if (step.line > 0) source_->goToLine(static_cast<int>(step.line));
  }
  // Stepping forward / playing: the step's axes travel through its op.
  graph_->showTraceStep(&run->trace, steps - 1, axisAnimationDuration(speed));
  updateStepTitle();
}

void MainWindow::updateStepTitle() {
  if (!run_) {
    updateTitle();
    return;
  }
  const int n = static_cast<int>(run_->trace.steps.size());
  const int steps = state_->steppedRun() ? state_->stepsApplied() : n;
  const QString level = QString::fromLatin1(api::levelName(run_->options.level));
  const QString start =
      run_->importPasses.empty() ? tr("input") : tr("after the import passes");
  updateTitle(steps == 0 ? start : tr("after step %1/%2 (%3)").arg(steps - 1).arg(n).arg(level));
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
  openStages_.clear();
  const bool readable = doc->module || !doc->text.empty();
  original_ = doc;
  run_.reset();
  ++propagateRequest_;
  ++whatIfRequest_;  // a re-run of the previous file is stale
  treeModel_->setDocument(nullptr);  // filled in a later turn (rows prepared off the UI thread)
  diagModel_->setDiagnostics(doc->diagnostics);
  diagView_->resizeColumnsToContents();
  source_->discardEdits();
  qCDebug(lcOpen) << "tree cleared, diagnostics:" << clock.restart() << "ms";
  state_->setDocument(doc);
  qCDebug(lcOpen) << "DocumentState::setDocument (views):" << clock.restart() << "ms";
  source_->document()->setModified(false);
  whatIf_->setChanges({}, tr("Edit a sharding (here or in the source, then Ctrl+Return) to see "
                             "what changes."));
  trace_->setRun(nullptr);
  updateTitle();
  if (doc->hasErrors()) {
    if (auto* d = findChild<QDockWidget*>(QStringLiteral("diagnosticsDock"))) d->raise();
    const auto& diags = doc->diagnostics;
    if (!diags.empty() && diags.front().loc.known())
      source_->goToLine(static_cast<int>(diags.front().loc.line),
                        static_cast<int>(diags.front().loc.col));
  }
  updateStatus();
  qCDebug(lcOpen) << "title, status:" << clock.restart() << "ms";
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
  stage.run();
  qCDebug(lcOpen) << stage.name << clock.elapsed() << "ms";
  if (!openStages_.empty()) openStageTimer_.start();  // the next one in the next turn
}

void MainWindow::expandTree() { tree_->expandToDepth(0); }

void MainWindow::fitTreeColumns() {
  QHeaderView* header = tree_->header();
  if (treeModel_->opCount() <= kLargeTree) {
    // Small modules: sized to every row, as the rows change.
    header->setSectionResizeMode(OpTreeModel::OpColumn, QHeaderView::ResizeToContents);
    for (int c = 0; c < OpTreeModel::NumColumns - 1; ++c) tree_->resizeColumnToContents(c);
    return;
  }
  // Large ones: ResizeToContents measures up to 1,000 rows at every layout of
  // the tree (tens of ms each on the UI thread). The widths are computed once
  // from a sample instead: the top-level rows and the first rows under each.
  header->setSectionResizeMode(OpTreeModel::OpColumn, QHeaderView::Interactive);
  constexpr int kSample = 150;
  const QAbstractItemModel* m = tree_->model();
  for (int c = 0; c < OpTreeModel::NumColumns - 1; ++c) {
    int width = header->sectionSizeHint(c);
    const int top = std::min(m->rowCount(), kSample);
    for (int r = 0; r < top; ++r) {
      width = std::max(width, tree_->sizeHintForIndex(m->index(r, c)).width() +
                                  (c == 0 ? tree_->indentation() : 0));
      const QModelIndex first = m->index(r, 0);
      const int children = std::min(m->rowCount(first), kSample);
      for (int k = 0; k < children; ++k)
        width = std::max(width, tree_->sizeHintForIndex(m->index(k, c, first)).width() +
                                    (c == 0 ? 2 * tree_->indentation() : 0));
    }
    header->resizeSection(c, width + 8);
  }
}

void MainWindow::syncTreeToSelection() {
  const QModelIndex src = treeModel_->indexOfOp(state_->selectedOp());
  if (!src.isValid()) return;
  const QModelIndex idx = treeProxy_->mapFromSource(src);
  if (idx.isValid() && tree_->currentIndex() != idx) {
    QSignalBlocker block(tree_->selectionModel());
    tree_->setCurrentIndex(idx);
    tree_->scrollTo(idx);
  }
}

void MainWindow::updateStatus() {
  const auto& doc = state_->document();
  if (!doc) {
    statusLabel_->clear();
    return;
  }
  int ops = 0;
  if (doc->module)
    for (ir::Op* f : doc->module->functions()) f->walk([&](ir::Op& op) { ops += &op != f; });
  const int errors = doc->errorCount();
  QString text = tr("%1 — %2 function(s), %3 ops")
                     .arg(toQString(doc->name))
                     .arg(state_->functions().size())
                     .arg(ops);
  if (errors)
    text += tr(" — <span style='color:#c01c28'><b>%1 error(s)</b></span>").arg(errors);
  else if (!doc->diagnostics.empty())
    text += tr(" — %1 diagnostic(s)").arg(doc->diagnostics.size());
  statusLabel_->setText(text);
}

namespace {
QString comboText(const ir::Value& v) {
  QString text =
      toQString(api::valueName(v)) + QStringLiteral(" : ") + toQString(api::shortType(v.type));
  if (const auto s = api::valueSharding(v)) text += QStringLiteral("   ") + shardingText(*s);
  return text;
}
}  // namespace

void MainWindow::updateComboTexts(const api::TimelineChanges& changes) {
  for (const ir::Value* v : changes.values)
    if (auto it = comboRows_.constFind(v); it != comboRows_.constEnd())
      valueCombo_->setItemText(*it, comboText(*v));
}

void MainWindow::showValueInCombo(const ir::Value* value) {
  if (!value) return;
  auto it = comboRows_.constFind(value);
  if (it != comboRows_.constEnd()) {
    valueCombo_->setCurrentIndex(*it);
    return;
  }
  // Past the listed values (or in another function): one transient entry at
  // the end names it, so the combo never names a value the mesh view does
  // not show.
  if (!value->type.isRankedTensor()) return;
  const QVariant data = QVariant::fromValue(reinterpret_cast<quintptr>(value));
  if (comboTransientRow_ < 0) {
    valueCombo_->addItem(comboText(*value), data);
    comboTransientRow_ = valueCombo_->count() - 1;
  } else {
    valueCombo_->setItemText(comboTransientRow_, comboText(*value));
    valueCombo_->setItemData(comboTransientRow_, data);
  }
  valueCombo_->setCurrentIndex(comboTransientRow_);
}

void MainWindow::fillValueCombo() {
  valueCombo_->clear();
  comboRows_.clear();
  comboTransientRow_ = -1;
  const ir::Op* func = state_->function();
  if (!func) return;
  // One insertion for all items: adding 100,000 values one by one (a model
  // signal each) blocks the UI thread for a quarter of a second.
  // A list of 100,000 values is unusable and costs the UI thread ~100 ms to
  // label: list the first ones (arguments first) and say how to reach the rest.
  constexpr int kMaxComboValues = 2000;
  QList<QStandardItem*> items;
  bool more = false;
  auto add = [this, &items, &more](const ir::Value* v) {
    if (!v->type.isRankedTensor()) return;
    if (items.size() >= kMaxComboValues) {
      more = true;
      return;
    }
    comboRows_.insert(v, static_cast<int>(items.size()));
    auto* item = new QStandardItem(comboText(*v));
    item->setData(QVariant::fromValue(reinterpret_cast<quintptr>(v)), Qt::UserRole);
    items.append(item);
  };
  // The walk stops at the first value past the limit (walking all of a
  // 100,000-op function only to count the rest costs ~30 ms).
  const_cast<ir::Op*>(func)->walkPreOrder([&](ir::Op& op) {
    if (more) return false;
    for (const auto& region : op.regions())
      for (const auto& block : region->blocks())
        for (ir::Value* a : block->arguments()) add(a);
    if (&op != func)
      for (ir::Value* r : op.results()) add(r);
    return !more;
  });
  if (more) {
    auto* item = new QStandardItem(
        tr("… more values (the first %L1 are listed): select them in the graph or the op tree")
            .arg(kMaxComboValues));
    item->setEnabled(false);
    items.append(item);
  }
  if (auto* model = qobject_cast<QStandardItemModel*>(valueCombo_->model()))
    model->invisibleRootItem()->appendRows(items);
  else
    for (QStandardItem* item : items) {
      valueCombo_->addItem(item->text(), item->data(Qt::UserRole));
      delete item;
    }
  showValueInCombo(state_->selectedValue());
}

void MainWindow::onTreeActivated(const QModelIndex& index) {
  if (!index.isValid()) return;
  const QModelIndex src = treeProxy_->mapToSource(index);
  const ir::Op* op = OpTreeModel::opAt(src);
  if (!op) {
    // A region row: select its parent op.
    op = OpTreeModel::opAt(treeModel_->parent(src));
  }
  if (!op || op->is("sdy.mesh")) return;
  if (op->is("func.func")) {
    state_->setFunction(op);
    state_->selectOp(op);
    return;
  }
  state_->selectOp(op);
}

void MainWindow::onDiagnosticActivated(const QModelIndex& index) {
  const QModelIndex src = diagProxy_->mapToSource(index);
  const int line = src.data(DiagnosticsModel::LineRole).toInt();
  const int col = src.data(DiagnosticsModel::ColRole).toInt();
  if (line > 0) source_->goToLine(line, col);
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
  statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
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
  statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
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

// --- What-if -----------------------------------------------------------------

void MainWindow::applySourceEdits() {
  if (!original_) return;
  if (source_->isFilling()) {  // nothing edited yet, and the editor text is partial
    statusBar()->showMessage(tr("The source is still loading; nothing to apply yet."), 5000);
    return;
  }
  const quint64 req = ++whatIfRequest_;
  ++propagateRequest_;  // a propagation of the old text is stale now
  const propagation::PropagationOptions options = run_ ? run_->options : trace_->options();
  // The run to diff against: the last one shown, else a run of the applied
  // text (made in the same job).
  std::shared_ptr<const api::PropagationRun> previous =
      run_ && run_->ok && run_->result ? run_ : nullptr;
  whatIf_->setStatus(tr("Re-parsing and propagating (%1)…")
                         .arg(QString::fromLatin1(api::levelName(options.level))));
  whatIfWatcher_.setProperty("request", QVariant::fromValue<qulonglong>(req));
  whatIfWatcher_.setFuture(QtConcurrent::run(
      [text = source_->text().toStdString(), base = original_, previous, options] {
        WhatIfResult r;
        r.doc = api::parseDocument(text, base->name);
        r.doc->path = base->path;
        if (!r.doc->module || r.doc->hasErrors()) return r;
        r.baseline = previous;
        if (!r.baseline && base->module && !base->hasErrors())
          r.baseline = api::propagateDocument(*base, options);
        r.run = api::propagateDocument(*r.doc, options);
        r.prepared = prepareRun(r.doc, r.run);
        r.comm = whatIfCommunicationChange(r.baseline.get(), *r.run);
        return r;
      }));
}

void MainWindow::showWhatIf(const WhatIfResult& r) {
  if (!r.doc->module || r.doc->hasErrors()) {
    // Keep everything (the editor's text, the shown document); show why.
    diagModel_->setDiagnostics(r.doc->diagnostics);
    diagView_->resizeColumnsToContents();
    source_->setDiagnostics(r.doc->diagnostics);
    if (auto* d = findChild<QDockWidget*>(QStringLiteral("diagnosticsDock"))) {
      d->show();
      d->raise();
    }
    const int errors = r.doc->errorCount();
    const QString msg =
        tr("The edited source has %n error(s); nothing was re-run and your edits are kept.", "",
           errors);
    whatIf_->setStatus(msg, true);
    statusBar()->showMessage(msg, 8000);
    // Show the first error (the user's text is not touched).
    for (const auto& d : r.doc->diagnostics)
      if (d.severity == ir::Severity::Error && d.loc.known()) {
        source_->goToLine(static_cast<int>(d.loc.line), static_cast<int>(d.loc.col));
        break;
      }
    emit whatIfFinished(false);
    return;
  }
  original_ = r.doc;
  run_ = r.run;
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
  static_cast<trace::TracePanel*>(explorer_)->setModuleText(toQString(r.doc->text),
                                                            toQString(r.doc->name));
#endif
  diagModel_->setDiagnostics(r.doc->diagnostics);
  std::vector<WhatIfChange> changes;
  QString summary;
  const QString level = QString::fromLatin1(api::levelName(run_->options.level));
  if (!run_->ok || !run_->result) {
    summary = tr("Propagation (%1) failed on the edited source; see Diagnostics.").arg(level);
    for (const auto& d : run_->diagnostics)
      if (d.severity == ir::Severity::Error) {
        summary += u' ' + toQString(d.message);
        break;
      }
  } else if (!r.baseline || !r.baseline->result) {
    summary = tr("Propagated (%1). No previous run to compare with.").arg(level);
  } else {
    changes = diffDocuments(*r.baseline->result, *run_->result);
    summary = changes.empty()
                  ? tr("Propagated (%1): no value's sharding changed vs the previous run.").arg(level)
                  : tr("Propagated (%1): %n value(s) changed sharding vs the previous run "
                       "(marked in the op tree and the graph).",
                       "", static_cast<int>(changes.size()))
                        .arg(level);
  }
  showWhatIfCommunication(whatIf_->communicationView(), r.comm);
  // Publish first, so views rebuilding on documentChanged see the set.
  state_->setChangedValues(changedKeys(changes));
  // The result with the user's selection kept (not the op of the last step),
  // on the timeline.
  if (r.prepared.stepped) {
    showRun(r.prepared, /*selectLastStep=*/false);
  } else {
    treeModel_->setDocument(original_);
    state_->setDocumentKeepingSelection(original_);
    trace_->setRun(run_);
  }
  updateTitle(run_->ok ? tr("what-if re-run (%1)").arg(level) : QString());
  expandTree();
  whatIf_->setChanges(std::move(changes), summary);
  whatIf_->setStatus(summary, !run_->ok);
  if (auto* d = findChild<QDockWidget*>(QStringLiteral("whatIfDock"))) {
    d->show();
    d->raise();
  }
  updateStatus();
  statusBar()->showMessage(summary, 8000);
  emit whatIfFinished(true);
}

// --- Presentation mode and themes --------------------------------------------

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
    setWindowState(normalWindowState_ | Qt::WindowFullScreen);
  } else {
    setFont(QFont());  // inherit the application font again
    source_->setFontScale(1.0);
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
  // In presentation mode, keep the normal layout.
  settings.setValue(QStringLiteral("windowState"), presentation_ ? normalState_ : saveState());
  if (!presentation_) settings.setValue(QStringLiteral("geometry"), saveGeometry());
  QMainWindow::closeEvent(e);
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
