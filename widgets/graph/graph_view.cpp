#include "graph/graph_view.h"
#include "core/work_pool.h"

#include <QTimer>
#include <QAbstractTextDocumentLayout>
#include <QGraphicsPathItem>
#include <QGraphicsSceneMouseEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QProgressBar>
#include <QScrollBar>
#include <QStyle>
#include <QAction>
#include <QSettings>
#include <QPromise>
#include <QPushButton>
#include <QShortcut>
#include <QStyleOptionGraphicsItem>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>
#include <utility>

#include "core/document_state.h"
#include "graph/graph_axis_animation.h"
#include "graph/overview_map.h"
#include "graph/prepared_grouping.h"
#include "core/theme_palette.h"

namespace shardscope::widgets {

namespace {

// QLabel fixes the colour of its links when its text is set, so the path's
// links would keep the old theme's colour after a theme change (the light
// theme's dark blue on the dark canvas). Sets the text again then.
class RelinkOnPaletteChange : public QObject {
 public:
  using QObject::QObject;
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() == QEvent::PaletteChange)
      if (auto* label = qobject_cast<QLabel*>(watched); label && !label->text().isEmpty()) {
        const QString text = label->text();
        label->clear();
        label->setText(text);
      }
    return false;
  }
};

class Canvas : public QGraphicsView {
 public:
  explicit Canvas(GraphScene* scene, QWidget* parent)
      : QGraphicsView(scene, parent), scene_(scene) {
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  }
  bool fullLegend = false;
  bool userZoomed = false;  // the user zoomed: do not refit on resize
  qreal textScale = 1.0;    // the legend's size factor (presentation mode)
  QPointer<QWidget> extraLegend;  // drawn under the mesh legend (GraphView::setExtraLegend)
  // The mesh legend as painted, in viewport pixels (empty without one).
  QSizeF meshLegendSize() const {
    if (!scene_->hasGraph() || scene_->model().legend.mesh.axes.empty()) return {0, 0};
    Legend legend = scene_->model().legend;
    legend.showNotation = fullLegend;
    return legend.size() * textScale;
  }
  // Where the extra legend goes: under the mesh legend, right-aligned.
  QPoint extraLegendPos() const {
    const QSizeF mesh = meshLegendSize();
    const int top = mesh.isEmpty() ? 12 : 12 + int(std::ceil(mesh.height())) + 8;
    return {std::max(0, viewport()->width() - (extraLegend ? extraLegend->width() : 0) - 12), top};
  }
  // Size of the legend column (the mesh legend and the extra one under it)
  // with its margins in viewport pixels (empty without one).
  QSizeF legendSize() const {
    const QSizeF mesh = meshLegendSize();
    const QSizeF extra =
        extraLegend && !extraLegend->isHidden() ? QSizeF(extraLegend->size()) : QSizeF();
    if (mesh.isEmpty() && extra.isEmpty()) return {0, 0};
    const qreal gap = !mesh.isEmpty() && !extra.isEmpty() ? 8 : 0;
    return QSizeF(std::max(mesh.width(), extra.width()), mesh.height() + gap + extra.height()) +
           QSizeF(24, 24);
  }
  void zoomBy(qreal f) {
    const qreal current = transform().m11();
    const qreal target = std::clamp(current * f, 0.05, 8.0);
    userZoomed = true;
    scale(target / current, target / current);
  }

 protected:
  void wheelEvent(QWheelEvent* e) override {
    if (e->modifiers() & Qt::ControlModifier) {
      zoomBy(std::pow(1.0015, e->angleDelta().y()));
      e->accept();
      return;
    }
    QGraphicsView::wheelEvent(e);
  }
  // The canvas follows the theme (the scene's palette: the application's).
  void drawBackground(QPainter* p, const QRectF& rect) override {
    p->fillRect(rect, canvasColors(isDark(scene_)).background);
  }
  void drawForeground(QPainter* p, const QRectF&) override {
    if (!scene_->hasGraph() || scene_->model().legend.mesh.axes.empty()) return;
    Legend legend = scene_->model().legend;
    legend.showNotation = fullLegend;
    legend.dark = isDark(scene_);
    p->save();
    p->resetTransform();
    const QSizeF s = legend.size() * textScale;
    p->translate(viewport()->width() - s.width() - 12, 12);
    p->scale(textScale, textScale);
    legend.paint(*p, QPointF(0, 0));
    p->restore();
  }

 private:
  GraphScene* scene_;
};

// The overview map's size for a graph of scene rect `r`: its shape, within
// 200 x 150 pixels.
QSizeF overviewMapSize(const QRectF& r) {
  const qreal a = r.width() / std::max<qreal>(1, r.height());
  constexpr qreal kW = 200, kH = 150;
  qreal w = kW, h = kH;
  if (a > kW / kH)
    h = std::max<qreal>(40, kW / a);
  else
    w = std::max<qreal>(48, kH * a);
  return {w, h};
}

}  // namespace

// --- GraphView --------------------------------------------------------------

GraphView::GraphView(DocumentState* state, QWidget* parent)
    : QWidget(parent), state_(state), scene_(new GraphScene(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);

  auto* bar = new QWidget(this);
  auto* barLayout = new QHBoxLayout(bar);
  barLayout->setContentsMargins(6, 3, 6, 3);
  title_ = new QLabel(bar);
  barLayout->addWidget(title_, 1);
  auto addButton = [&](const QString& text, const QString& tip, auto slot) {
    auto* b = new QToolButton(bar);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    connect(b, &QToolButton::clicked, this, slot);
    barLayout->addWidget(b);
  };
  addButton(QStringLiteral("−"), tr("Zoom out (Ctrl+-)"), &GraphView::zoomOut);
  addButton(QStringLiteral("+"), tr("Zoom in (Ctrl++)"), &GraphView::zoomIn);
  addButton(tr("Fit"), tr("Fit the graph (Ctrl+0)"), &GraphView::zoomFit);
  addButton(tr("Find"), tr("Search ops, values and shardings (Ctrl+F)"), &GraphView::showSearch);
  {
    auto* b = new QToolButton(bar);
    b->setText(tr("Legend"));
    b->setToolTip(tr("Show the notation key in the legend"));
    b->setAutoRaise(true);
    b->setCheckable(true);
    connect(b, &QToolButton::toggled, this, [this](bool on) {
      static_cast<Canvas*>(view_)->fullLegend = on;
      view_->viewport()->update();
    });
    barLayout->addWidget(b);
  }
  mapButton_ = new QToolButton(bar);
  mapButton_->setText(tr("Map"));
  mapButton_->setToolTip(tr("Show or hide the overview map (shown while part of the graph is "
                            "out of view)"));
  mapButton_->setAutoRaise(true);
  mapButton_->setCheckable(true);
  mapButton_->setChecked(true);
  barLayout->addWidget(mapButton_);
  // Axis movement when stepping through a trace (off: reduced motion).
  animator_ = new AxisMoveAnimator(scene_, this);
  animateAxes_ = QSettings().value(QStringLiteral("graph/animateAxisMoves"), true).toBool();
  animateButton_ = new QToolButton(bar);
  animateButton_->setText(tr("Animate"));
  animateButton_->setToolTip(
      tr("Animate the mesh axes moving along the edges when stepping through a propagation "
         "trace (off: reduced motion)"));
  animateButton_->setAutoRaise(true);
  animateButton_->setCheckable(true);
  animateButton_->setChecked(animateAxes_);
  connect(animateButton_, &QToolButton::toggled, this, &GraphView::setAxisAnimationEnabled);
  connect(animateButton_, &QToolButton::clicked, this, [](bool on) {
    QSettings().setValue(QStringLiteral("graph/animateAxisMoves"), on);
  });
  barLayout->insertWidget(barLayout->indexOf(mapButton_), animateButton_);
  groupingOptions_.scopesAtAnySize =
      QSettings().value(QStringLiteral("graph/groupScopesAtAnySize"), false).toBool();
  groupScopesAction_ = new QAction(tr("Group by &Name Scope"), this);
  groupScopesAction_->setObjectName(QStringLiteral("groupByNameScopeAction"));
  groupScopesAction_->setCheckable(true);
  groupScopesAction_->setChecked(groupingOptions_.scopesAtAnySize);
  groupScopesAction_->setToolTip(
      tr("Group the graph by the ops' JAX name scopes (jit(f) › mlp › dense_2) whatever the "
         "function's size; off, only functions over %1 ops are grouped")
          .arg(groupingOptions_.threshold));
  connect(groupScopesAction_, &QAction::toggled, this, [this](bool on) {
    QSettings().setValue(QStringLiteral("graph/groupScopesAtAnySize"), on);
    setGroupScopesAtAnySize(on);
  });
  layout->addWidget(bar);
  // A grouped function: where in its groups the view is, on a row of its
  // own (wrapped, so that a long path is never cut), each part a link.
  path_ = new QLabel(this);
  path_->setWordWrap(true);
  path_->setContentsMargins(8, 0, 8, 3);
  path_->setTextInteractionFlags(Qt::LinksAccessibleByMouse);
  path_->installEventFilter(new RelinkOnPaletteChange(path_));
  path_->hide();
  layout->addWidget(path_);

  searchBar_ = new QWidget(this);
  auto* sl = new QHBoxLayout(searchBar_);
  sl->setContentsMargins(6, 2, 6, 2);
  searchEdit_ = new QLineEdit(searchBar_);
  searchEdit_->setPlaceholderText(tr("Find op, value (%3), axis (\"x\"), name scope or Python line (model.py:41)…"));
  searchEdit_->setClearButtonEnabled(true);
  searchInfo_ = new QLabel(searchBar_);
  sl->addWidget(searchEdit_, 1);
  sl->addWidget(searchInfo_);
  searchBar_->hide();
  layout->addWidget(searchBar_);
  connect(searchEdit_, &QLineEdit::textChanged, this, [this] { runSearch(false); });
  connect(searchEdit_, &QLineEdit::returnPressed, this, [this] { runSearch(true); });
  auto* esc = new QShortcut(QKeySequence(Qt::Key_Escape), searchEdit_, nullptr, nullptr,
                            Qt::WidgetShortcut);
  connect(esc, &QShortcut::activated, this, [this] {
    searchEdit_->clear();
    searchBar_->hide();
    view_->setFocus();
  });

  view_ = new Canvas(scene_, this);
  animator_->setViewport(view_->viewport());
  layout->addWidget(view_, 1);
  view_->installEventFilter(this);
  // Scroll bars coming or going resize the viewport, not the view: the
  // overlays are placed again then too (a legend was left under the bar).
  view_->viewport()->installEventFilter(this);
  view_->setFocusPolicy(Qt::StrongFocus);

  overview_ = new OverviewMap(view_, view_);
  overview_->hide();
  connect(mapButton_, &QToolButton::toggled, this, [this] { placeOverview(); });
  // Zooming changes what is in view: the map shows itself when part of the
  // graph is out of view.
  connect(view_->horizontalScrollBar(), &QScrollBar::rangeChanged, this, [this] { placeOverview(); });
  connect(view_->verticalScrollBar(), &QScrollBar::rangeChanged, this, [this] { placeOverview(); });

  // Progress overlay over the canvas.
  overlay_ = new QWidget(view_);
  overlay_->setAutoFillBackground(true);
  auto* ol = new QVBoxLayout(overlay_);
  overlayText_ = new QLabel(overlay_);
  overlayText_->setAlignment(Qt::AlignCenter);
  progress_ = new QProgressBar(overlay_);
  progress_->setRange(0, 100);
  cancelButton_ = new QPushButton(tr("Cancel"), overlay_);
  ol->addWidget(overlayText_);
  ol->addWidget(progress_);
  ol->addWidget(cancelButton_, 0, Qt::AlignHCenter);
  overlay_->resize(300, 110);
  overlay_->hide();
  connect(cancelButton_, &QPushButton::clicked, this, &GraphView::cancelLayout);

  auto shortcut = [&](const QKeySequence& k, auto slot) {
    auto* s = new QShortcut(k, this, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    connect(s, &QShortcut::activated, this, slot);
  };
  // Ctrl+F is not a QShortcut here: in the main window its Find action has
  // the same keys, and two shortcuts on one key sequence cancel each other
  // (the canvas handles the key press instead: eventFilter).
  shortcut(QKeySequence::ZoomIn, &GraphView::zoomIn);
  shortcut(QKeySequence(Qt::CTRL | Qt::Key_Equal), &GraphView::zoomIn);
  shortcut(QKeySequence::ZoomOut, &GraphView::zoomOut);
  shortcut(QKeySequence(Qt::CTRL | Qt::Key_0), &GraphView::zoomFit);

  connect(&watcher_, &QFutureWatcher<GraphLayout>::progressValueChanged, progress_,
          &QProgressBar::setValue);
  connect(&watcher_, &QFutureWatcher<GraphLayout>::finished, this, [this] {
    const quint64 req = watcher_.property("request").toULongLong();
    if (watcher_.isCanceled() || watcher_.future().resultCount() == 0) {
      if (req == request_)
        setOverlay(tr("Layout cancelled. Select a function to lay it out again."), false);
      emit layoutFinished(false);
      return;
    }
    applyLayout(req, watcher_.result());
  });

  connect(&groupWatcher_, &QFutureWatcher<GroupJob>::progressValueChanged, progress_,
          &QProgressBar::setValue);
  connect(&groupWatcher_, &QFutureWatcher<GroupJob>::finished, this, [this] {
    const quint64 req = groupWatcher_.property("request").toULongLong();
    if (groupWatcher_.isCanceled() || groupWatcher_.future().resultCount() == 0) {
      if (req == request_) {
        if (scene_->hasGraph())
          setOverlay(QString(), false);
        else
          setOverlay(tr("Layout cancelled. Select a function to lay it out again."), false);
      }
      emit layoutFinished(false);
      return;
    }
    applyGroupJob(req, groupWatcher_.result());
  });
  connect(&searchWatcher_, &QFutureWatcher<std::vector<int>>::finished, this, [this] {
    if (searchWatcher_.property("request").toULongLong() != searchRequest_ || !grouping_) return;
    const std::vector<int> found = searchWatcher_.result();
    opMatches_.clear();
    opMatches_.reserve(found.size());
    for (int i : found) opMatches_.push_back(grouping_->search.op(i));
    matchPos_ = -1;
    if (opMatches_.empty()) {
      searchInfo_->setText(tr("no match"));
    } else {
      matchPos_ = 0;
      searchInfo_->setText(tr("1 of %1").arg(opMatches_.size()));
      revealOp(opMatches_.front());
    }
    emit searchAnswered(static_cast<int>(opMatches_.size()));
  });
  // The path: each part opens its level.
  connect(path_, &QLabel::linkActivated, this, [this](const QString& link) {
    if (link.startsWith(QLatin1String("group:"))) openGroup(link.mid(6).toInt());
  });
  connect(scene_, &GraphScene::nodeClicked, this, [this](int node) {
    current_ = node;
    navList_.clear();
    navPos_ = -1;
  });
  connect(scene_, &GraphScene::nodeDoubleClicked, this, &GraphView::onNodeDoubleClicked);
  connect(scene_, &GraphScene::clusterDoubleClicked, this, [this](int c) {
    const auto& ops = scene_->model().clusterOps;
    if (c >= 0 && static_cast<size_t>(c) < ops.size() && !isGrouped()) toggleRegions(ops[c]);
  });
  // An op drawn inside an expanded call belongs to the callee: selecting it
  // keeps this graph's function (the callee's body stays where it is drawn).
  connect(scene_, &GraphScene::opActivated, state_,
          [this](const ir::Op* op) { state_->selectOp(op, /*keepFunction=*/true); });
  connect(scene_, &GraphScene::valueActivated, state_, &DocumentState::selectValue);
  connect(state_, &DocumentState::functionChanged, this, &GraphView::relayout);
  // Propagation steps change shardings in place: the graph is restyled,
  // never laid out again.
  connect(state_, &DocumentState::shardingsAboutToChange, this, &GraphView::beforeShardingsChange);
  connect(state_, &DocumentState::shardingsChanged, this, &GraphView::afterShardingsChange);
  // The scene keeps the document it shows alive, so on a document change it
  // stays up until the new layout replaces it (no flicker when stepping).
  connect(state_, &DocumentState::selectionChanged, this, &GraphView::updateHighlight);
}

void GraphView::beforeShardingsChange() {
  // Grouping a function reads its shardings off the UI thread: stop it
  // before they change (it is started again after).
  if (groupWatcher_.isRunning() && !grouping_) {
    groupWatcher_.cancel();
    groupWatcher_.waitForFinished();
    regroupAfterStep_ = true;
  }
}

void GraphView::afterShardingsChange(const api::TimelineChanges& changes) {
  if (regroupAfterStep_) {
    regroupAfterStep_ = false;
    relayout();
    return;
  }
  scene_->refreshShardings(changes);
  // A layout still running was built before the step: restyled when shown.
}

void GraphView::setAxisAnimationEnabled(bool on) {
  if (animateButton_ && animateButton_->isChecked() != on) animateButton_->setChecked(on);
  animateAxes_ = on;
  if (!on) {
    pendingAxis_.reset();
    animator_->cancel();
  }
}

void GraphView::showTraceStep(const propagation::PropagationTrace* trace, int step,
                              int durationMs) {
  const bool forward = trace && trace == axisTrace_ && step == axisStep_ + 1;
  axisTrace_ = trace;
  axisStep_ = step;
  pendingAxis_.reset();
  animator_->cancel();
  if (!forward || !animateAxes_ || durationMs <= 0 || step < 0 ||
      static_cast<size_t>(step) >= trace->steps.size())
    return;
  const propagation::TraceStep& s = trace->steps[static_cast<size_t>(step)];
  if (s.moves.empty()) return;
  pendingAxis_ = PendingAxisStep{s, durationMs, state_->document().get()};
  // A document change (the player shows the module after the step) starts
  // a layout: the chips wait for it.
  if (!isLayoutRunning() && scene_->shownDocument() == state_->document().get())
    startPendingAxisAnimation();
}

void GraphView::startPendingAxisAnimation() {
  if (!pendingAxis_) return;
  const PendingAxisStep p = std::move(*pendingAxis_);
  pendingAxis_.reset();
  const ir::Module* module = state_->module();
  if (!animateAxes_ || !module || p.doc != state_->document().get() ||
      scene_->shownDocument() != p.doc)
    return;
  const api::ShardingTimeline* timeline = state_->timeline();
  animator_->start(timeline ? resolveAxisMoves(timeline->ops(), p.step)
                            : resolveAxisMoves(*module, p.step),
                   p.durationMs);
}

GraphView::~GraphView() {
  watcher_.disconnect(this);
  groupWatcher_.disconnect(this);
  searchWatcher_.disconnect(this);
  searchWatcher_.waitForFinished();
  if (watcher_.isRunning()) {
    watcher_.cancel();
    watcher_.waitForFinished();
  }
  if (groupWatcher_.isRunning()) {
    groupWatcher_.cancel();
    groupWatcher_.waitForFinished();
  }
}

bool GraphView::isLayoutRunning() const {
  return watcher_.isRunning() || groupWatcher_.isRunning();
}

void GraphView::clearGraph() {
  scene_->clearGraph();
  // Nothing to scroll to: the scene rect the last graph left would keep
  // its scroll bars around the message that says why there is no graph.
  view_->setSceneRect(QRectF(0, 0, 1, 1));
  view_->resetTransform();
  overview_->hide();
}

void GraphView::setOverlay(const QString& text, bool busy) {
  if (text.isEmpty()) {
    overlay_->hide();
    return;
  }
  overlayText_->setText(text);
  progress_->setVisible(busy);
  cancelButton_->setVisible(busy);
  overlay_->adjustSize();
  overlay_->resize(std::max(320, overlay_->width()), overlay_->height());
  overlay_->move((view_->width() - overlay_->width()) / 2,
                 (view_->height() - overlay_->height()) / 3);
  overlay_->show();
  overlay_->raise();
}

void GraphView::relayout() {
  const quint64 req = ++request_;
  const ir::Module* module = state_->module();
  const ir::Op* func = state_->function();
  if (!module || !func) {
    clearGraph();
    path_->hide();
    title_->setText(module ? tr("No function") : tr("No module (see Diagnostics)"));
    const auto& doc = state_->document();
    if (doc && !module && doc->failedStage == api::LoadStage::Read)
      setOverlay(tr("%1 cannot be opened:\n%2")
                     .arg(state_->fileName(),
                          doc->diagnostics.empty()
                              ? QString()
                              : QString::fromStdString(doc->diagnostics.front().message)),
                 false);
    else if (doc && !module)
      setOverlay(tr("%1 could not be parsed.\nThe parse errors are listed under Diagnostics and "
                    "underlined in the source.")
                     .arg(state_->fileName()),
                 false);
    else
      setOverlay(module ? tr("This module has no func.func to draw.") : QString(), false);
    emit layoutFinished(false);
    return;
  }
  current_ = -1;
  navList_.clear();
  if (drawsGrouped(*func, groupingOptions_)) {
    // Large function: group it off the UI thread (unless it is grouped
    // already, e.g. relayout of the same document), then lay out the
    // collapsed graph.
    if (grouping_ && groupingDoc_ == state_->document() && groupingFunc_ == func) {
      startGroupJob(level_, -1, -1, expanded_);
      return;
    }
    resetGrouping();
    groupingDoc_ = state_->document();
    groupingFunc_ = func;
    // Grouped already on the loader's thread (a large file just opened):
    // straight to the layout.
    grouping_ = PreparedGrouping::take(state_->document().get(), func, groupingOptions_);
    title_->setText(tr("<b>@%1</b> — grouping a large function…")
                        .arg(toQString(api::symbolName(*func)).toHtmlEscaped()));
    startGroupJob(kOpeningLevel, -1, -1, {});
    return;
  }
  resetGrouping();
  if (collapsedFor_ != module) {
    collapsedRegions_.clear();
    expandedCalls_.clear();
    collapsedFor_ = module;
  }
  GraphBuildOptions options;
  options.collapsedRegions = collapsedRegions_;
  options.expandedCalls = expandedCalls_;
  options.timeline = state_->timeline();
  pending_ = buildGraph(*module, *func, options);
  pendingDoc_ = state_->document();
  title_->setText(tr("<b>%1</b> — %2 ops, %3 nodes")
                      .arg(pending_.title.toHtmlEscaped())
                      .arg(std::count_if(
                          pending_.nodes.begin(), pending_.nodes.end(),
                          [](const GraphNodeInfo& n) { return n.kind == GraphNodeInfo::OpNode; }))
                      .arg(pending_.nodes.size()));
  if (sync_) {
    applyLayout(req, layoutGraph(pending_.input));
    return;
  }
  if (watcher_.isRunning()) watcher_.cancel();  // its result will be dropped (stale request)
  if (groupWatcher_.isRunning()) groupWatcher_.cancel();
  const GraphInput input = pending_.input;
  QFuture<GraphLayout> future =
      QtConcurrent::run(workPool(), [input](QPromise<GraphLayout>& promise) {
    promise.setProgressRange(0, 100);
    GraphLayout l = layoutGraph(
        input, [&](int p) { promise.setProgressValue(p); }, [&] { return promise.isCanceled(); });
    if (!l.canceled && !promise.isCanceled()) promise.addResult(std::move(l));
  });
  watcher_.setProperty("request", QVariant::fromValue<qulonglong>(req));
  progress_->setValue(0);
  setOverlay(tr("Laying out %1 with Graphviz…").arg(pending_.title), true);
  watcher_.setFuture(future);
}

void GraphView::applyLayout(quint64 request, const GraphLayout& layout) {
  if (request != request_) return;  // stale
  setOverlay(QString(), false);
  if (!layout.error.isEmpty()) {
    clearGraph();
    setOverlay(layout.error, false);
    emit layoutFinished(false);
    return;
  }
  animator_->cancel();
  scene_->setGraph(std::move(pending_), layout, std::move(pendingDoc_));
  // Built before steps that may have come since: the shardings of now.
  if (state_->timeline()) scene_->refreshAllShardings();
  startPendingAxisAnimation();
  pending_ = GraphModel();
  pendingDoc_.reset();
  updateHighlight();
  if (!static_cast<Canvas*>(view_)->userZoomed) zoomFit();
  if (searchBar_->isVisible()) runSearch(false);
  placeOverview();
  emit layoutFinished(true);
}

void GraphView::cancelLayout() {
  if (watcher_.isRunning()) watcher_.cancel();
  if (groupWatcher_.isRunning()) groupWatcher_.cancel();
  ++request_;
  if (scene_->hasGraph())
    setOverlay(QString(), false);  // an expansion was cancelled: the graph stays
  else
    setOverlay(tr("Layout cancelled. Select a function to lay it out again."), false);
}

void GraphView::updateHighlight() {
  scene_->setHighlight(state_->selectedOp(), state_->selectedValue());
  if (navigating_) return;
  const int node = scene_->nodeOf(state_->selectedOp());
  if (node >= 0) current_ = node;
  // Brought into view clear of the overlays (a step's op as the player
  // selects it, a value picked in another view).
  if (node >= 0 && isVisible()) bringIntoView(scene_->nodeRect(node));
}

void GraphView::zoomIn() { static_cast<Canvas*>(view_)->zoomBy(1.25); }
void GraphView::zoomOut() { static_cast<Canvas*>(view_)->zoomBy(0.8); }

void GraphView::zoomFit() {
  if (!scene_->hasGraph()) return;
  // All of the graph in view, as large as leaves every node, chip, badge
  // and frame title clear of the legend column and the changed label (up
  // to 1.5x the text scale); else, at the smallest readable scale, the
  // graph scrolls, with room in the scene for what lies over it.
  const QRectF r = scene_->sceneRect();
  const std::vector<QRectF> keep = keepClearRects();
  const qreal vw = fullViewport().width(), vh = fullViewport().height();
  // The graph's scene rect has a wide margin; what must be seen, with a
  // narrow one, may fit where it does not.
  QRectF content;
  for (const QRectF& k : keep) content |= k;
  content = content.isEmpty() ? r : content.adjusted(-8, -8, 8, 8) & r;
  const qreal whole = std::min({vw / content.width(), vh / content.height(), 1.5 * textScale_});
  // Presentation mode magnifies the text; a graph that fits the screen at
  // its own size (labels at their 11-12 px, larger than outside it) is
  // shown whole rather than cut for a larger scale.
  const qreal wholeFloor = kMinReadableScale * std::min<qreal>(textScale_, 1.25);
  if (whole >= wholeFloor && fitWhole(r, keep, whole, wholeFloor)) return;
  // Scrolling, the scene's wide margin would only be empty space at the
  // ends the view starts from.
  fitScrolling(content, keep, kMinReadableScale * textScale_);
}

std::vector<QRectF> GraphView::keepClearRects() const {
  std::vector<QRectF> rects;
  for (const QGraphicsItem* item : scene_->items()) {
    if (!item->isVisible() || item->parentItem()) continue;
    // Nodes and chips are at 2-3, what-if badges at 50, communication
    // glyphs at 60; edges (1), clusters and expanded groups (below 0),
    // strokes and halos (under 1) and travelling axis chips (30-40) may
    // pass under a legend.
    const qreal z = item->zValue();
    if ((z >= 2 && z < 30) || z >= 50) rects.push_back(item->sceneBoundingRect());
  }
  // A region's frame may pass under a legend, its title may not (it says
  // which region the nodes in it belong to).
  for (const QRectF& t : scene_->clusterTitleRects()) rects.push_back(t);
  return rects;
}

QSizeF GraphView::fullViewport() const {
  // A pixel less, so that a graph fitted to it needs no scroll bar.
  QSizeF size = QSizeF(view_->viewport()->size()) - QSizeF(1, 1);
  const qreal bar = view_->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, view_);
  if (view_->verticalScrollBar()->isVisible()) size.rwidth() += bar;
  if (view_->horizontalScrollBar()->isVisible()) size.rheight() += bar;
  return size.expandedTo(QSizeF(50, 50));
}

QSizeF GraphView::changedLabelSize() const {
  return changedLabel_ && !changedLabel_->isHidden() ? QSizeF(changedLabel_->size()) : QSizeF();
}

bool GraphView::fitWhole(const QRectF& r, const std::vector<QRectF>& keep, qreal from,
                         qreal floor) {
  auto* canvas = static_cast<Canvas*>(view_);
  const QSizeF vp = fullViewport();
  // The overview map is hidden while all of the graph is in view.
  const OverlayPlaces places = overlayPlaces(vp, canvas->legendSize(), changedLabelSize(), {});
  // The graph with its margin, else only what must be seen with a narrow
  // one: the margin is room the overlays may use.
  QRectF content;
  for (const QRectF& k : keep) content |= k;
  std::vector<QRectF> extents{r};
  if (!content.isEmpty()) extents.push_back(content.adjusted(-8, -8, 8, 8) & r);
  std::vector<qreal> scales;
  for (qreal s = from; s > floor; s *= 0.92) scales.push_back(s);
  scales.push_back(floor);
  for (const qreal s : scales)
    for (const QRectF& extent : extents) {
      const QSizeF view = vp / s;
      if (view.width() < extent.width() || view.height() < extent.height()) continue;
      // Centred, or moved left and down, away from the legend column at the
      // top right (or the other way when that covers less).
      const qreal xs[] = {extent.center().x() - view.width() / 2, extent.left(),
                          extent.right() - view.width()};
      const qreal ys[] = {extent.center().y() - view.height() / 2,
                          extent.bottom() - view.height(), extent.top()};
      for (const qreal y : ys)
        for (const qreal x : xs) {
          if (places.inScene(QPointF(x, y), s).covers(keep)) continue;
          const QRectF shown(QPointF(x, y), view);
          view_->setSceneRect(shown);
          view_->setTransform(QTransform::fromScale(s, s));
          canvas->userZoomed = false;
          view_->centerOn(shown.center());
          placeOverview();
          return true;
        }
    }
  return false;
}

void GraphView::fitScrolling(const QRectF& r, const std::vector<QRectF>& keep, qreal s) {
  auto* canvas = static_cast<Canvas*>(view_);
  const QSizeF legend = canvas->legendSize();
  const QSizeF changed = changedLabelSize();
  const qreal bar = view_->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, view_);
  // The viewport with the scroll bars the arrangement will have: down
  // when the graph is taller than the pane, across when it and the column
  // beside it are wider.
  const QSizeF full = fullViewport();
  QSizeF px = full;
  for (int twice = 0; twice < 2; ++twice) {
    const bool down = r.height() * s > px.height();
    const bool across = r.width() * s + legend.width() > px.width();
    px = full - QSizeF(down ? bar : 0, across ? bar : 0);
  }
  const QSizeF view = px / s;
  // The room each overlay needs in the scene so that scrolling to an end
  // always reveals what it covers: the legend column (the changed label
  // under it) a margin beside the graph or a band above it, the map a band
  // below it. The map is reserved only where it fits under the column.
  const OverlayPlaces bare = overlayPlaces(px, legend, changed, {});
  QSizeF map = overviewMapSize(r);
  if (overlayPlaces(px, legend, changed, map).overviewMap.intersects(bare.column())) map = QSizeF();
  const OverlayPlaces places = overlayPlaces(px, legend, changed, map);
  const QRectF column = places.column();
  const qreal beside = column.isEmpty() ? 0 : (px.width() - column.left()) / s;
  const qreal above = column.isEmpty() ? 0 : column.bottom() / s;
  const qreal below = places.overviewMap.isEmpty() ? 0 : (px.height() - places.overviewMap.top()) / s;
  const bool fitsAcross = view.width() >= r.width(), fitsDown = view.height() >= r.height();

  // The arrangements tried; the one that shows most of the graph with no
  // node under an overlay where the view starts wins.
  struct Arrangement {
    QRectF extent;
    QPointF topLeft;
  };
  std::vector<Arrangement> tries;
  // The selected op (the step's op while stepping): the view may start
  // around it rather than at the graph's top or left.
  const int selectedNode = scene_->nodeOf(state_->selectedOp());
  const QRectF selected = selectedNode >= 0 ? scene_->nodeRect(selectedNode) : QRectF();
  auto add = [&](const QRectF& extent, std::vector<qreal> xs, std::vector<qreal> ys) {
    if (!selected.isNull()) {
      xs.push_back(selected.center().x() - view.width() / 2);
      ys.push_back(selected.center().y() - view.height() / 2);
    }
    for (qreal y : ys)
      for (qreal x : xs)
        tries.push_back({extent, QPointF(std::clamp(x, extent.left(), std::max(extent.left(), extent.right() - view.width())),
                                         std::clamp(y, extent.top(), std::max(extent.top(), extent.bottom() - view.height())))});
  };
  {
    // A margin beside the graph as wide as the column (and under it as tall
    // as the map): the view starts at the graph's top, at its left or, when
    // the graph and margin are wider than the view, at its right end, where
    // the column lies over the margin (the graph's left edge is then a
    // scroll away, not hidden).
    const QRectF extent = r.adjusted(0, 0, beside, fitsDown ? 0 : below);
    add(extent, {extent.center().x() - view.width() / 2, extent.left(), extent.right() - view.width()},
        {extent.top()});
  }
  {
    // A band above the graph, only as tall as clears the nodes the column
    // covers where the view starts, and a margin beside it when it scrolls
    // sideways.
    for (const qreal x0 : {r.center().x() - view.width() / 2, r.left()}) {
      const QRectF base = r.adjusted(0, 0, fitsAcross ? 0 : beside, fitsDown ? 0 : below);
      const qreal x = std::clamp(x0, base.left(), std::max(base.left(), base.right() - view.width()));
      const QRectF over = bare.inScene(QPointF(x, r.top()), s).column();
      qreal band = 0;
      for (const QRectF& k : keep)
        if (over.intersects(k)) band = std::max(band, over.bottom() - k.top() + 8 / s);
      band = std::min(band, above);
      add(base.adjusted(0, -band, 0, 0), {x}, {base.top() - band});
    }
  }
  // The best: no node under an overlay; then the selected op in view; then
  // as much of the graph's nodes in view as can be.
  const Arrangement* best = nullptr;
  qreal bestScore = -1;
  for (const Arrangement& a : tries) {
    // The map is left out: placeOverview finds it a place clear of the
    // nodes where the view starts, shrinks it, or hides it.
    const OverlayPlaces over = bare.inScene(a.topLeft, s);
    if (over.covers(keep)) continue;
    const QRectF v(a.topLeft, view);
    qreal score = 0;
    for (const QRectF& k : keep) score += (k & v).width() * (k & v).height();
    if (!selected.isNull() && v.contains(selected) && !over.covers({selected})) score += 1e12;
    if (score > bestScore + 1e-6) {
      bestScore = score;
      best = &a;
    }
  }
  // None leaves every node clear (a column taller than the pane): the
  // margin beside, from the top left.
  const Arrangement a = best ? *best : tries[1];
  view_->setSceneRect(a.extent.united(QRectF(a.topLeft, view)));
  view_->setTransform(QTransform::fromScale(s, s));
  canvas->userZoomed = false;
  view_->centerOn(QRectF(a.topLeft, view).center());
  placeOverview();
  // The op or value selected (the step's op while stepping) stays in view.
  revealSelection();
}

void GraphView::revealSelection() {
  const int node = scene_->nodeOf(state_->selectedOp());
  if (node >= 0) bringIntoView(scene_->nodeRect(node));
}

void GraphView::setTextScale(qreal scale) {
  textScale_ = std::max<qreal>(1.0, scale);  // text grows, never shrinks
  static_cast<Canvas*>(view_)->textScale = textScale_;
  view_->viewport()->update();
  if (!static_cast<Canvas*>(view_)->userZoomed) zoomFit();
  if (!isVisible()) fitWhenShown_ = true;
}

void GraphView::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  if (!fitWhenShown_) return;
  fitWhenShown_ = false;
  // After the legends have taken their new size (they refresh on the
  // font change this show delivers).
  QTimer::singleShot(0, this, [this] {
    if (!static_cast<Canvas*>(view_)->userZoomed) zoomFit();
  });
}

bool GraphView::isOverviewShown() const { return !overview_->isHidden(); }

void GraphView::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  placeOverview();
  if (!static_cast<Canvas*>(view_)->userZoomed) zoomFit();
  if (!isVisible()) fitWhenShown_ = true;
  if (overlay_->isVisible())
    overlay_->move((view_->width() - overlay_->width()) / 2,
                   (view_->height() - overlay_->height()) / 3);
}

void GraphView::showSearch() {
  searchBar_->show();
  searchEdit_->setFocus();
  searchEdit_->selectAll();
}

void GraphView::find(const QString& text) {
  if (!searchBar_->isVisible()) searchBar_->show();
  if (searchEdit_->text() == text)
    runSearch(false);
  else
    searchEdit_->setText(text);  // searches (textChanged)
}

void GraphView::findNext() { runSearch(true); }

void GraphView::runSearch(bool next) {
  if (grouping_) {
    runGroupedSearch(next);
    return;
  }
  const QString text = searchEdit_->text().trimmed();
  if (!next) {
    matches_ = scene_->search(text);
    matchPos_ = -1;
  }
  if (text.isEmpty()) {
    searchInfo_->clear();
    return;
  }
  if (matches_.empty()) {
    searchInfo_->setText(tr("no match"));
    return;
  }
  matchPos_ = (matchPos_ + 1) % static_cast<int>(matches_.size());
  const int node = matches_[static_cast<size_t>(matchPos_)];
  view_->centerOn(scene_->nodeRect(node).center());
  searchInfo_->setText(tr("%1 of %2").arg(matchPos_ + 1).arg(matches_.size()));
}

// A grouped function: most ops have no item in the scene, so the search
// runs over all of them (the grouping's OpSearchIndex, off the UI thread)
// and each match is shown by opening the path to it.
void GraphView::runGroupedSearch(bool next) {
  const QString text = searchEdit_->text().trimmed();
  if (next && text == searchedText_ && !searchWatcher_.isRunning()) {
    if (opMatches_.empty()) return;
    matchPos_ = (matchPos_ + 1) % static_cast<int>(opMatches_.size());
    searchInfo_->setText(tr("%1 of %2").arg(matchPos_ + 1).arg(opMatches_.size()));
    revealOp(opMatches_[static_cast<size_t>(matchPos_)]);
    return;
  }
  const quint64 req = ++searchRequest_;
  opMatches_.clear();
  matchPos_ = -1;
  searchedText_ = text;
  markSearchMatches();
  if (text.isEmpty()) {
    searchInfo_->clear();
    return;
  }
  searchInfo_->setText(tr("searching %1 ops…").arg(grouping_->search.size()));
  // The index holds the module's ops, and a Python-line query reads their
  // locations: the worker keeps the document alive too (another file may be
  // opened, and this grouping reset, before the search ends).
  auto grouping = grouping_;
  auto doc = groupingDoc_;
  searchWatcher_.setProperty("request", QVariant::fromValue<qulonglong>(req));
  searchWatcher_.setFuture(QtConcurrent::run(workPool(), [grouping, doc, text] {
    (void)doc;
    return grouping->search.find(text);
  }));
}

void GraphView::markSearchMatches() {
  if (searchBar_->isVisible()) scene_->search(searchEdit_->text().trimmed());
}

// --- Large functions: groups -------------------------------------------------

void GraphView::setGroupScopesAtAnySize(bool on) {
  if (groupScopesAction_->isChecked() != on) {
    groupScopesAction_->setChecked(on);  // comes back here through toggled
    return;
  }
  if (groupingOptions_.scopesAtAnySize == on) return;
  groupingOptions_.scopesAtAnySize = on;
  resetGrouping();  // a grouping made under the old options is not reused
  relayout();
}

void GraphView::resetGrouping() {
  if (groupWatcher_.isRunning()) groupWatcher_.cancel();
  grouping_.reset();
  path_->hide();
  groupingDoc_.reset();
  groupingFunc_ = nullptr;
  level_ = -1;
  expanded_.clear();
  levelModels_.clear();
  innerModels_.clear();
  innerLayouts_.clear();
  levelLayouts_.clear();
  pendingReveal_ = nullptr;
  ++searchRequest_;  // a search still running was over the old grouping
  opMatches_.clear();
  searchedText_.clear();
}

void GraphView::startGroupJob(int level, int group, int highlight, std::set<int> expanded) {
  const quint64 req = ++request_;
  if (watcher_.isRunning()) watcher_.cancel();
  if (groupWatcher_.isRunning()) groupWatcher_.cancel();
  std::optional<GraphInput> innerInput;
  if (group >= 0 && grouping_ && !innerLayouts_.count(group)) {
    // The group's own graph: built here (it measures text), laid out below.
    auto it = innerModels_.find(group);
    if (it == innerModels_.end()) {
      const OpGroup& g = grouping_->groups[static_cast<size_t>(group)];
      GraphBuildOptions options;
      options.timeline = state_->timeline();
      it = innerModels_.emplace(group, buildGroupGraph(*state_->module(), g.ops, g.label, options))
               .first;
    }
    innerInput = it->second.input;
  }
  std::map<int, QSizeF> sizes;
  for (int g : expanded)
    if (auto it = innerLayouts_.find(g); it != innerLayouts_.end())
      sizes[g] = it->second.bounds.size();
  std::optional<GraphModel> cachedModel;
  if (auto it = levelModels_.find(level); it != levelModels_.end()) cachedModel = it->second;
  const bool needLevel = level == kOpeningLevel || !levelLayouts_.count({level, expanded});
  if (grouping_ && !innerInput && !needLevel) {
    ++cacheStats_.hits;
    GroupJob cached;
    cached.level = level;
    cached.highlight = highlight;
    cached.expanded = std::move(expanded);
    applyGroupJob(req, cached);
    return;
  }
  ++cacheStats_.misses;
  const ir::Module* module = state_->module();
  const ir::Op* func = groupingFunc_;
  auto doc = groupingDoc_;
  auto grouping = grouping_;
  const GroupingOptions options = groupingOptions_;
  auto work = [=](const std::function<void(int)>& progress,
                  const std::function<bool()>& canceled) -> std::optional<GroupJob> {
    (void)doc;  // keeps the module alive while this runs
    GroupJob job;
    job.level = level;
    job.group = group;
    job.highlight = highlight;
    job.expanded = expanded;
    job.grouping = grouping;
    if (!job.grouping) {
      progress(2);
      job.grouping = groupFunction(*module, *func, options, canceled,
                                   [&](int p) { progress(2 + p * 28 / 100); });
      if (!job.grouping || canceled()) return std::nullopt;
    }
    if (job.level == kOpeningLevel) job.level = job.grouping->openingLevel();
    progress(30);
    const GraphModel model =
        cachedModel && job.level == level ? *cachedModel : levelModel(*job.grouping, job.level);
    if (!cachedModel || job.level != level) job.levelModel = model;
    std::map<int, QSizeF> sz = sizes;
    if (innerInput) {
      job.inner = layoutGraph(
          *innerInput, [&](int p) { progress(30 + p * 3 / 10); }, canceled);
      if (job.inner->canceled || canceled()) return std::nullopt;
      sz[group] = job.inner->bounds.size();
    }
    job.levelLayout = layoutGraph(
        levelInput(model, sz), [&](int p) { progress(60 + p * 4 / 10); }, canceled);
    if (job.levelLayout->canceled || canceled()) return std::nullopt;
    progress(100);
    return job;
  };
  if (sync_) {
    if (auto job = work([](int) {}, [] { return false; })) applyGroupJob(req, *job);
    return;
  }
  QFuture<GroupJob> future = QtConcurrent::run(workPool(), [work](QPromise<GroupJob>& promise) {
    promise.setProgressRange(0, 100);
    auto job = work([&](int p) { promise.setProgressValue(p); },
                    [&] { return promise.isCanceled(); });
    if (job && !promise.isCanceled()) promise.addResult(std::move(*job));
  });
  groupWatcher_.setProperty("request", QVariant::fromValue<qulonglong>(req));
  progress_->setValue(0);
  if (!grouping_)
    setOverlay(tr("Grouping %1 and laying out the groups…")
                   .arg(func ? u'@' + toQString(api::symbolName(*func)) : QString()),
               true);
  else if (group >= 0)
    setOverlay(tr("Laying out %1 (%2 ops)…")
                   .arg(grouping_->groups[static_cast<size_t>(group)].label)
                   .arg(grouping_->groups[static_cast<size_t>(group)].opCount),
               true);
  else if (level >= 0)
    setOverlay(tr("Laying out the groups of %1…")
                   .arg(grouping_->groups[static_cast<size_t>(level)].label),
               true);
  else
    setOverlay(tr("Laying out the groups…"), true);
  groupWatcher_.setFuture(future);
}

void GraphView::applyGroupJob(quint64 request, const GroupJob& job) {
  if (request != request_) return;  // stale
  setOverlay(QString(), false);
  if (job.grouping) grouping_ = job.grouping;
  if (!grouping_) return;
  if (job.levelModel) levelModels_[job.level] = *job.levelModel;
  if (job.inner) innerLayouts_[job.group] = *job.inner;
  if (job.levelLayout) levelLayouts_[{job.level, job.expanded}] = *job.levelLayout;
  const GraphLayout& level = levelLayouts_[{job.level, job.expanded}];
  if (!level.error.isEmpty()) {
    clearGraph();
    setOverlay(level.error, false);
    emit layoutFinished(false);
    return;
  }
  if (job.level != level_) current_ = -1;
  level_ = job.level;
  expanded_ = job.expanded;
  showGroupedTitle();
  showGrouped(level, job.highlight);
  finishReveal();
  emit layoutFinished(true);
}

// The title ("@main — 999955 ops, grouped by name scope") and the path
// ("@main › jit(model) › transformer — 999,955 ops in 137 groups"), each
// part of the path but the last a link to its level.
void GraphView::showGroupedTitle() {
  const Grouping& G = *grouping_;
  QStringList crumbs;
  auto link = [](int group, const QString& text) {
    return QStringLiteral("<a href=\"group:%1\">%2</a>").arg(group).arg(text.toHtmlEscaped());
  };
  const std::vector<int> path = level_ >= 0 ? G.pathTo(level_) : std::vector<int>();
  crumbs << (path.empty() ? QStringLiteral("<b>%1</b>").arg(G.title.toHtmlEscaped())
                          : link(-1, G.title));
  for (size_t i = 0; i < path.size(); ++i) {
    const QString label = G.groups[static_cast<size_t>(path[i])].label;
    crumbs << (i + 1 == path.size() ? QStringLiteral("<b>%1</b>").arg(label.toHtmlEscaped())
                                    : link(path[i], label));
  }
  const int ops = level_ >= 0 ? G.groups[static_cast<size_t>(level_)].opCount : G.totalOps;
  const size_t boxes = G.childrenOf(level_).size();
  QString hint = tr("double-click or Enter expands a group");
  bool nested = false;
  for (int c : G.childrenOf(level_)) nested = nested || !G.groups[static_cast<size_t>(c)].isLeaf();
  if (nested) hint = tr("double-click opens a group");
  if (level_ >= 0) hint += tr(", Backspace goes up");
  title_->setText(tr("<b>%1</b> — %2 ops, grouped%3%4")
                      .arg(G.title.toHtmlEscaped())
                      .arg(G.totalOps)
                      .arg(G.byNameScope ? tr(" by name scope") : QString())
                      .arg(G.period && !G.byNameScope
                               ? tr(" (repeating every %1 ops)").arg(G.period)
                               : QString()));
  path_->setText(tr("%1 — %2 ops in %3 groups · %4")
                     .arg(crumbs.join(QStringLiteral(" › ")))
                     .arg(ops)
                     .arg(boxes)
                     .arg(hint));
  path_->show();
}

void GraphView::finishReveal() {
  if (!pendingReveal_) return;
  const ir::Op* op = std::exchange(pendingReveal_, nullptr);
  const int node = scene_->nodeOf(op);
  if (node < 0) return;
  current_ = node;
  scene_->highlightNode(node);
  bringIntoView(scene_->nodeRect(node));
}

void GraphView::showGrouped(const GraphLayout& level, int focusGroup) {
  GraphModel m = levelModels_[level_];
  m.grouping = grouping_;
  std::map<int, QSizeF> sizes;
  for (int g : expanded_) sizes[g] = innerLayouts_[g].bounds.size();
  m.input = levelInput(m, sizes);
  std::map<int, size_t> nodeOfGroup;
  for (size_t i = 0; i < m.nodes.size(); ++i)
    if (m.nodes[i].kind == GraphNodeInfo::GroupNode) nodeOfGroup[m.nodes[i].group] = i;
  GraphLayout l = level;
  for (int g : expanded_) {
    auto at = nodeOfGroup.find(g);
    if (at == nodeOfGroup.end() || at->second >= l.nodes.size()) continue;
    const GraphModel& im = innerModels_[g];
    const GraphLayout& il = innerLayouts_[g];
    m.nodes[at->second].expanded = true;
    const QPointF off = l.nodes[at->second].rect.topLeft() + QPointF(kGroupMargin, kGroupHeader) -
                        il.bounds.topLeft();
    const int base = static_cast<int>(m.nodes.size());
    const int cbase = static_cast<int>(m.input.clusters.size());
    for (size_t i = 0; i < im.nodes.size() && i < il.nodes.size(); ++i) {
      m.nodes.push_back(im.nodes[i]);
      GraphInput::Node n = im.input.nodes[i];
      if (n.cluster >= 0) n.cluster += cbase;
      m.input.nodes.push_back(n);
      l.nodes.push_back({il.nodes[i].rect.translated(off)});
    }
    for (size_t i = 0; i < im.edges.size() && i < il.edges.size(); ++i) {
      m.edges.push_back(im.edges[i]);
      GraphInput::Edge e = im.input.edges[i];
      e.from += base;
      e.to += base;
      m.input.edges.push_back(e);
      GraphLayout::Edge le = il.edges[i];
      for (QPointF& p : le.bezier) p += off;
      le.arrowTip += off;
      l.edges.push_back(std::move(le));
    }
    for (size_t i = 0; i < im.input.clusters.size() && i < il.clusters.size(); ++i) {
      GraphInput::Cluster c = im.input.clusters[i];
      if (c.parent >= 0) c.parent += cbase;
      m.input.clusters.push_back(c);
      m.clusterOps.push_back(i < im.clusterOps.size() ? im.clusterOps[i] : nullptr);
      GraphLayout::Cluster lc = il.clusters[i];
      lc.rect.translate(off);
      lc.labelRect.translate(off);
      l.clusters.push_back(lc);
    }
  }
  animator_->cancel();
  scene_->setGraph(std::move(m), l, groupingDoc_);
  // The groups' own graphs are cached from earlier steps: the shardings of now.
  if (state_->timeline()) scene_->refreshAllShardings();
  startPendingAxisAnimation();
  updateHighlight();
  markSearchMatches();
  auto* canvas = static_cast<Canvas*>(view_);
  const QRectF r = scene_->sceneRect();
  view_->setSceneRect(r);  // the graph may have grown (zoomFit pads it again)
  const qreal vw = std::max(50, view_->viewport()->width());
  const qreal vh = std::max(50, view_->viewport()->height());
  const int focusNode = focusGroup >= 0 ? scene_->nodeOfGroup(focusGroup) : -1;
  const qreal fit = std::min(vw / r.width(), vh / r.height());
  if (focusNode >= 0 && (!expanded_.empty() || fit < 0.35)) {
    // Show the top of the group just expanded (or collapsed, or come up
    // from) when the level does not fit the window.
    const QRectF gr = scene_->nodeRect(focusNode);
    const qreal s = canvas->transform().m11();
    view_->centerOn(gr.center().x(), gr.top() + vh / (2 * s) - 30 / s);
  } else {
    // A level of boxes only: fit it; a long chain of groups is shown
    // readable from its top, clear of the legends (zoomFit).
    zoomFit();
  }
  if (focusNode >= 0) {
    current_ = focusNode;
    scene_->highlightNode(focusNode);
  }
  placeOverview();
}

void GraphView::expandGroup(int group) {
  if (!grouping_ || group < 0 || static_cast<size_t>(group) >= grouping_->groups.size() ||
      expanded_.count(group))
    return;
  const OpGroup& g = grouping_->groups[static_cast<size_t>(group)];
  if (!g.isLeaf() || g.parent != level_) {
    openGroup(group);  // a group of groups, or one of another level
    return;
  }
  auto e = expanded_;
  e.insert(group);
  startGroupJob(level_, group, group, std::move(e));
}

void GraphView::collapseGroup(int group) {
  if (!grouping_ || !expanded_.count(group)) return;
  auto e = expanded_;
  e.erase(group);
  startGroupJob(level_, -1, group, std::move(e));
}

void GraphView::openGroup(int group) {
  if (!grouping_ || group >= static_cast<int>(grouping_->groups.size()) || group < -1) return;
  if (group >= 0 && grouping_->groups[static_cast<size_t>(group)].isLeaf()) {
    // A leaf: its level, with it expanded.
    const int parent = grouping_->groups[static_cast<size_t>(group)].parent;
    std::set<int> e = parent == level_ ? expanded_ : std::set<int>();
    e.insert(group);
    startGroupJob(parent, group, group, std::move(e));
    return;
  }
  if (group == level_) return;
  // Coming up: the group we were in is brought into view.
  int cameFrom = -1;
  for (int g = level_; g >= 0; g = grouping_->groups[static_cast<size_t>(g)].parent)
    if (grouping_->groups[static_cast<size_t>(g)].parent == group) cameFrom = g;
  startGroupJob(group, -1, cameFrom, {});
}

void GraphView::openParent() {
  if (!grouping_ || level_ < 0) return;
  openGroup(grouping_->groups[static_cast<size_t>(level_)].parent);
}

void GraphView::revealOp(const ir::Op* op) {
  if (!grouping_ || !op) return;
  const int leaf = grouping_->groupOfOp(op);
  if (leaf < 0) return;
  pendingReveal_ = op;
  const int parent = grouping_->groups[static_cast<size_t>(leaf)].parent;
  if (parent == level_ && expanded_.count(leaf) && !isLayoutRunning()) {
    finishReveal();
    return;
  }
  std::set<int> e = parent == level_ ? expanded_ : std::set<int>();
  e.insert(leaf);
  startGroupJob(parent, leaf, leaf, std::move(e));
}

void GraphView::toggleRegions(const ir::Op* op) {
  if (!op || isGrouped()) return;
  if (op->is("func.call")) {
    // A call expands into its callee's body (graph_builder.h).
    if (!state_->module() || !calledFunction(*state_->module(), *op)) return;
    if (!expandedCalls_.erase(op)) expandedCalls_.insert(op);
  } else {
    if (op->numRegions() == 0) return;
    if (!collapsedRegions_.erase(op)) collapsedRegions_.insert(op);
  }
  relayout();
}

void GraphView::onNodeDoubleClicked(int node) {
  current_ = node;
  activateCurrent();
}

void GraphView::activateCurrent() {
  const auto& nodes = scene_->model().nodes;
  if (current_ < 0 || static_cast<size_t>(current_) >= nodes.size()) return;
  const GraphNodeInfo& n = nodes[static_cast<size_t>(current_)];
  if (n.kind == GraphNodeInfo::GroupNode) {
    if (n.expanded)
      collapseGroup(n.group);
    else
      expandGroup(n.group);  // a group of groups opens its level
  } else if (n.op && (n.op->numRegions() > 0 || n.op->is("func.call")) &&
             n.kind == GraphNodeInfo::OpNode) {
    toggleRegions(n.op);
  }
}

void GraphView::setExtraLegend(QWidget* legend) {
  extraLegend_ = legend;
  static_cast<Canvas*>(view_)->extraLegend = legend;
  legendChanged();
}

void GraphView::setChangedLabel(QWidget* label) {
  changedLabel_ = label;
  legendChanged();
}

void GraphView::legendChanged() {
  placeExtraLegend();
  if (!static_cast<Canvas*>(view_)->userZoomed) zoomFit();
  placeOverview();
}

void GraphView::placeExtraLegend() {
  if (changedLabel_) {
    changedLabel_->move(overlayPlacesNow().changedLabel.topLeft().toPoint());
    changedLabel_->raise();
  }
  if (!extraLegend_) return;
  extraLegend_->move(static_cast<Canvas*>(view_)->extraLegendPos());
  extraLegend_->raise();
}

OverlayPlaces GraphView::overlayPlacesNow() const {
  const QSizeF map = overview_->isHidden() ? QSizeF() : QSizeF(overview_->size());
  return overlayPlaces(view_->viewport()->size(), static_cast<Canvas*>(view_)->legendSize(),
                       changedLabelSize(), map, mapCorner_);
}

QRegion GraphView::coveredByOverlays() const { return overlayPlacesNow().region(); }

void GraphView::bringIntoView(const QRectF& target) {
  if (!scene_->hasGraph() || target.isNull()) return;
  const QRect vp = view_->viewport()->rect();
  const QRect shown = view_->mapFromScene(target).boundingRect();
  if (vp.contains(shown) && !coveredByOverlays().intersects(shown)) return;
  // Centred in the free part of the viewport: left of the legend column
  // (and the changed label under it) when the target fits there, else below
  // it, else the whole viewport; above the overview map when that leaves
  // it room.
  const OverlayPlaces places = overlayPlacesNow();
  const QRectF column = places.column();
  QRectF free = vp;
  if (!column.isEmpty()) {
    const QRectF left(0, 0, column.left(), vp.height());
    const QRectF below(0, column.bottom(), vp.width(), vp.height() - column.bottom());
    if (left.width() >= shown.width() && left.height() >= shown.height())
      free = left;
    else if (below.width() >= shown.width() && below.height() >= shown.height())
      free = below;
  }
  if (const QRectF& m = places.overviewMap;
      !m.isEmpty() && m.top() - free.top() >= shown.height() && m.intersects(free))
    free.setBottom(m.top());
  // The scene point to put in the viewport's centre. Room is needed around
  // it: at Fit the scene rect is the graph's, with nothing to scroll, so it
  // is widened by half a viewport around that point (the next Fit narrows
  // it again).
  const qreal s = std::max<qreal>(1e-6, view_->transform().m11());
  const QPointF centre = target.center() + (QRectF(vp).center() - free.center()) / s;
  const QSizeF half(vp.width() / (2 * s), vp.height() / (2 * s));
  const QRectF around(centre - QPointF(half.width(), half.height()), 2 * half);
  view_->setSceneRect(view_->sceneRect().united(around));
  view_->centerOn(centre);
  placeOverview();
}

void GraphView::placeOverview() {
  placeExtraLegend();
  if (!mapButton_->isChecked() || !scene_->hasGraph()) {
    overview_->hide();
    return;
  }
  const QRect vp = view_->viewport()->geometry();
  // All of the graph in view: the map would show nothing new and only
  // cover nodes.
  const QRectF r = scene_->sceneRect();
  const QRectF visible = view_->mapToScene(view_->viewport()->rect()).boundingRect();
  QRectF content;
  for (const QRectF& k : keepClearRects()) content |= k;
  if (visible.adjusted(-2, -2, 2, 2).contains(content.isEmpty() ? r : content & r)) {
    overview_->hide();
    return;
  }
  // Where overlay_places.h puts it: at the bottom right, else the bottom
  // left, at its own size or smaller (down to 40 px a side), the first
  // place that meets neither the legend column nor the changed label and,
  // at Fit, covers no node (zoomed, the user chose what to see: the map
  // stays at the bottom right).
  const QSizeF full = overviewMapSize(r);
  const bool atFit = !static_cast<Canvas*>(view_)->userZoomed;
  const std::vector<QRectF> keep = atFit ? keepClearRects() : std::vector<QRectF>();
  for (const MapCorner corner : {MapCorner::BottomRight, MapCorner::BottomLeft})
    for (const qreal f : {1.0, 0.8, 0.64, 0.5}) {
      const QSizeF size = full * f;
      if (std::min(size.width(), size.height()) < 40) break;
      // Never more than a third of the viewport's width or half its height.
      if (3 * size.width() > vp.width() || 2 * size.height() > vp.height()) continue;
      const OverlayPlaces places = overlayPlaces(vp.size(), static_cast<Canvas*>(view_)->legendSize(),
                                                 changedLabelSize(), size, corner);
      const QRectF& m = places.overviewMap;
      if (m.left() < 0 || m.top() < 0 || m.intersects(places.legendColumn) ||
          m.intersects(places.changedLabel))
        continue;
      if (atFit) {
        const QRectF mapInScene = view_->mapToScene(m.toAlignedRect()).boundingRect();
        if (std::any_of(keep.begin(), keep.end(),
                        [&](const QRectF& k) { return mapInScene.intersects(k); }))
          continue;
      }
      overview_->setGeometry(m.adjusted(4, 4, -4, -4).toAlignedRect().translated(vp.topLeft()));
      mapCorner_ = corner;
      overview_->show();
      overview_->raise();
      overview_->refit();
      return;
    }
  overview_->hide();  // no room
}

// --- Keyboard navigation -----------------------------------------------------

void GraphView::setCurrentNode(int node) {
  const auto& nodes = scene_->model().nodes;
  if (node < 0 || static_cast<size_t>(node) >= nodes.size()) return;
  current_ = node;
  const GraphNodeInfo& n = nodes[static_cast<size_t>(node)];
  navigating_ = true;
  if (n.kind == GraphNodeInfo::ValueNode || n.kind == GraphNodeInfo::ArgumentNode)
    state_->selectValue(n.value);
  else if (n.op)
    state_->selectOp(n.op);
  navigating_ = false;
  if (n.kind == GraphNodeInfo::GroupNode) {
    scene_->setHighlight(nullptr, nullptr);
    scene_->highlightNode(node);
  }
  current_ = node;
  const QRectF r = scene_->nodeRect(node);
  if (!view_->mapToScene(view_->viewport()->rect()).boundingRect().contains(r))
    view_->centerOn(r.center());
}

void GraphView::navigateTo(std::vector<int> candidates) {
  if (candidates.empty()) return;
  navList_ = std::move(candidates);
  navPos_ = 0;
  setCurrentNode(navList_.front());
}

void GraphView::goToProducer() {
  if (current_ < 0) current_ = scene_->nodeOf(state_->selectedOp());
  if (current_ < 0) return;
  std::vector<int> c = scene_->producers(current_);
  const GraphNodeInfo& n = scene_->model().nodes[static_cast<size_t>(current_)];
  if (c.empty() && n.value && n.value->definingOp) {
    // An input of an expanded group: go to where it comes from.
    const int p = scene_->nodeOf(n.value->definingOp);
    if (p >= 0 && p != current_) c.push_back(p);
  }
  navigateTo(std::move(c));
}

void GraphView::goToConsumer() {
  if (current_ < 0) current_ = scene_->nodeOf(state_->selectedOp());
  if (current_ < 0) return;
  navigateTo(scene_->consumers(current_));
}

void GraphView::goToSibling(bool backwards) {
  if (current_ < 0) current_ = scene_->nodeOf(state_->selectedOp());
  if (current_ < 0) return;
  if (navList_.empty()) {
    navigateTo(scene_->consumers(current_));  // Tab: through the users
    return;
  }
  const int n = static_cast<int>(navList_.size());
  navPos_ = ((backwards ? navPos_ - 1 : navPos_ + 1) % n + n) % n;
  setCurrentNode(navList_[static_cast<size_t>(navPos_)]);
}

bool GraphView::eventFilter(QObject* o, QEvent* e) {
  if ((o == view_ || o == view_->viewport()) && e->type() == QEvent::Resize) placeOverview();
  if (o != view_ || e->type() != QEvent::KeyPress || !scene_->hasGraph())
    return QWidget::eventFilter(o, e);
  auto* k = static_cast<QKeyEvent*>(e);
  if (k->matches(QKeySequence::Find)) {
    showSearch();
    return true;
  }
  const bool alt = k->modifiers() & Qt::AltModifier;
  switch (k->key()) {
    case Qt::Key_Up:
      if (!alt) break;
      goToProducer();
      return true;
    case Qt::Key_Down:
      if (!alt) break;
      goToConsumer();
      return true;
    case Qt::Key_Left:
    case Qt::Key_Right:
      if (!alt) break;
      goToSibling(k->key() == Qt::Key_Left);
      return true;
    case Qt::Key_Tab:
    case Qt::Key_Backtab:
      if (current_ < 0 && !state_->selectedOp()) break;
      goToSibling(k->key() == Qt::Key_Backtab || (k->modifiers() & Qt::ShiftModifier));
      return true;
    case Qt::Key_Return:
    case Qt::Key_Enter:
      activateCurrent();
      return true;
    case Qt::Key_Backspace:
      if (!grouping_ || level_ < 0) break;
      openParent();
      return true;
    default:
      break;
  }
  return QWidget::eventFilter(o, e);
}

}  // namespace shardscope::widgets
