// The views and docks of the main window and their wiring: the centre tabs
// (dataflow graph, mesh with its tensor combo, SparseCore), the op tree
// (left), the source with Apply (right), and the bottom docks (diagnostics,
// propagation trace, trace explorer, what-if, communication).
#include "main_window.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextDocument>
#include <QTreeView>
#include <QVBoxLayout>

#include "comm/communication_panel.h"
#include "comm_dock_setup.h"
#include "presentation_caption.h"
#include "core/document_state.h"
#include "diagnostics/diagnostics_model.h"
#include "graph/graph_change_marks.h"
#include "graph/graph_view.h"
#include "mesh/mesh_view.h"
#include "outline/op_tree_model.h"
#include "propagation/propagation_panel.h"
#include "source/source_view.h"
#include "whatif/what_if_edit.h"
#include "whatif/what_if_panel.h"
#ifdef SHARDSCOPE_HAVE_SC_WORKSPACE
#include "sparsecore_workspace.h"
#endif
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
#include "trace/strategy_compare_widget.h"
#include "trace/trace_panel.h"
#include "trace/trace_player.h"
#include "trace/trace_state.h"
#endif

namespace shardscope::app {

using namespace shardscope::widgets;

void MainWindow::createCentre() {
  // Centre: graph and mesh (and in presentation mode the step's caption
  // under them).
  auto* centre = new QWidget(this);
  auto* cl = new QVBoxLayout(centre);
  cl->setContentsMargins(0, 0, 0, 0);
  cl->setSpacing(0);
  tabs_ = new QTabWidget(centre);
  tabs_->setObjectName(QStringLiteral("centreTabs"));
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
  // In a scroll area: its minimum size (settings, plots) must not limit the
  // docks while another tab is current; while it is current the MLIR docks
  // are hidden (WindowLayout), so it has the whole window.
  auto* scScroll = new QScrollArea(tabs_);
  scScroll->setFrameShape(QFrame::NoFrame);
  scScroll->setWidgetResizable(true);
  scWorkspace_ = new scw::SparseCoreWorkspace(scScroll);
  scWorkspace_->setObjectName(QStringLiteral("sparseCoreWorkspace"));
  scScroll->setWidget(scWorkspace_);
  scPage_ = scScroll;
  tabs_->addTab(scPage_, tr("SparseCore"));
#endif
  connect(valueCombo_, &QComboBox::activated, this, [this](int i) {
    state_->selectValue(
        reinterpret_cast<const ir::Value*>(valueCombo_->itemData(i).value<quintptr>()));
  });
  connect(state_, &DocumentState::functionChanged, this, &MainWindow::fillValueCombo);
  caption_ = new PresentationCaption(centre);
  caption_->hide();
  // The caption tells the MLIR module's step: not under the SparseCore tab.
  connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::updatePresentationCaption);
  cl->addWidget(tabs_, 1);
  cl->addWidget(caption_);
  setCentralWidget(centre);
}

QDockWidget* MainWindow::createOpTreeDock() {
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
  return treeDock;
}

QDockWidget* MainWindow::createSourceDock() {
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
                             "against the result of the run before this edit (Ctrl+Return)"));
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
  return sourceDock;
}

QDockWidget* MainWindow::createBottomDocks() {
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
  connect(&propagator_, &QFutureWatcher<PreparedRun>::finished, this,
          &MainWindow::onPropagatorFinished);
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
  commPanel_ = qobject_cast<comm::CommunicationPanel*>(
      addCommunicationDock(this, state_, whatIfDock, graph_, explorer_)->widget());
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
  return diagDock;
}

}  // namespace shardscope::app
