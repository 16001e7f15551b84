// The dataflow graph of the current function: a QGraphicsScene built from a
// GraphModel (graph_builder.h) and its Graphviz layout (graph_layout.h), and
// a view with zoom/pan/fit, Ctrl+F search, a legend overlay and an async
// layout with progress and Cancel.
#pragma once
#include <QFutureWatcher>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QPainterPath>
#include <QPointer>
#include <QWidget>
#include <map>
#include <optional>
#include <set>

#include "graph_builder.h"
#include "graph_grouping.h"
#include "graph_layout.h"
#include "picture_export.h"
#include "propagation/propagation_trace.h"

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QToolButton;

namespace shardscope::widgets {

class AxisMoveAnimator;
class DocumentState;
class OverviewMap;

class GraphScene : public QGraphicsScene {
  Q_OBJECT
 public:
  explicit GraphScene(QObject* parent = nullptr);
  // Replace the contents (node and edge infos must match the layout).
  // `keepAlive` (the document the model points into) is held as long as
  // the contents are shown.
  void setGraph(GraphModel model, const GraphLayout& layout,
                std::shared_ptr<const void> keepAlive = {});
  void clearGraph();
  const GraphModel& model() const { return model_; }
  bool hasGraph() const { return !model_.empty(); }

  // Emphasise the node of `op` and the chip/edges of `value`.
  void setHighlight(const ir::Op* op, const ir::Value* value);
  // Mark nodes whose text contains `text` (case-insensitive); returns their
  // node indices in layout order.
  std::vector<int> search(const QString& text);
  QRectF nodeRect(int node) const;
  // The painted path of edge `edge` (index into model().edges), scene coordinates.
  QPainterPath edgePath(int edge) const;
  // The document the shown graph belongs to (its keep-alive), or nullptr.
  const void* shownDocument() const { return keepAlive_.get(); }
  // The node of `op`: its own node, else the collapsed group holding it.
  int nodeOf(const ir::Op* op) const;
  // The node of a collapsed or expanded group, or -1.
  int nodeOfGroup(int group) const;
  // Emphasise one node (a group has no op to select in the document state).
  void highlightNode(int node);
  // Neighbours along edges, looking through value chips: the nodes whose
  // values `node` uses, and the nodes using `node`'s values.
  std::vector<int> neighbours(int node, bool upstream) const;
  std::vector<int> producers(int node) const;
  std::vector<int> consumers(int node) const;

  // The whole graph with the legend at the top right, for export.
  Picture picture() const;
  // Restyle the chips and edges of these values and the result lists of
  // these functions from the module's shardings now (a propagation step
  // moved them): nothing is laid out again, no node moves.
  void refreshShardings(const api::TimelineChanges& changes);
  // The same for every value and function shown.
  void refreshAllShardings();

  // Grow the area picture() shows (e.g. by axis-move markers beside edges).
  void includeInPicture(const QRectF& sceneRect) { graphRect_ = graphRect_.united(sceneRect); }

 signals:
  void opActivated(const ir::Op* op);
  void valueActivated(const ir::Value* value);
  void nodeClicked(int node);
  void nodeDoubleClicked(int node);
  void clusterDoubleClicked(int cluster);

 protected:
  void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* e) override;

 private:
  void onSelectionChanged();
  GraphModel model_;
  std::unordered_map<const ir::Op*, int> opNodes_;
  std::vector<int> groupNodes_;
  std::shared_ptr<const void> keepAlive_;
  std::vector<QGraphicsItem*> nodeItems_;
  std::vector<QGraphicsItem*> edgeItems_;
  // What refreshShardings restyles: chip nodes and edges per value, the
  // return node per function.
  std::unordered_map<const ir::Value*, std::vector<int>> valueNodes_;
  std::unordered_map<const ir::Value*, std::vector<int>> valueEdges_;
  std::unordered_map<const ir::Op*, int> returnNodes_;
  QRectF graphRect_;
  bool settingHighlight_ = false;
};

class GraphView : public QWidget {
  Q_OBJECT
 public:
  explicit GraphView(DocumentState* state, QWidget* parent = nullptr);
  ~GraphView() override;

  GraphScene* scene() const { return scene_; }
  QGraphicsView* view() const { return view_; }
  // Lay out on the calling thread (headless export, tests).
  void setSynchronous(bool sync) { sync_ = sync; }
  bool isLayoutRunning() const;
  // Picture for export (title added by the caller).
  Picture picture() const { return scene_->picture(); }

  // Large functions (more ops than options.threshold) open collapsed.
  void setGroupingOptions(const GroupingOptions& o) { groupingOptions_ = o; }
  bool isGrouped() const { return grouping_ != nullptr; }
  const Grouping* grouping() const { return grouping_.get(); }
  bool isExpanded(int group) const { return expanded_.count(group) > 0; }
  // Layout cache use: level layouts keyed by the set of expanded groups,
  // inner layouts by group id.
  struct CacheStats {
    int hits = 0;
    int misses = 0;
  };
  CacheStats cacheStats() const { return cacheStats_; }
  OverviewMap* overview() const { return overview_; }
  // The node keyboard navigation starts from (-1: none).
  int currentNode() const { return current_; }
  void setCurrentNode(int node);

  // --- Axis movement (graph_axis_animation.h) -------------------------------
  // Show step `step` of `trace` (-1: the input) in the graph, as the trace
  // players do: when it directly follows the step shown before (stepping
  // forward, playing), the axes that moved travel as chips through the
  // step's op over `durationMs`; stepping back, jumping or scrubbing cancels
  // running chips and shows no movement. Op indices are resolved in the
  // module the graph shows; when a layout for it is still running the chips
  // start once it is shown. `trace` is only compared, not kept.
  void showTraceStep(const propagation::PropagationTrace* trace, int step, int durationMs);
  // Reduced motion: off, no chips are created (kept in QSettings as
  // graph/animateAxisMoves; the toolbar's "Animate" button).
  void setAxisAnimationEnabled(bool on);
  bool axisAnimationEnabled() const { return animateAxes_; }
  AxisMoveAnimator* axisAnimator() const { return animator_; }

 public slots:
  void relayout();
  void cancelLayout();
  void zoomIn();
  void zoomOut();
  void zoomFit();
  void showSearch();
  // Expand / collapse a group of a large function (layout off the UI thread
  // unless cached); toggle the regions of a region op (small functions).
  void expandGroup(int group);
  void collapseGroup(int group);
  void toggleRegions(const ir::Op* op);
  // Keyboard navigation (Alt+Up, Alt+Down, Tab / Shift+Tab, Enter).
  void goToProducer();
  void goToConsumer();
  void goToSibling(bool backwards = false);
  void activateCurrent();

 signals:
  void layoutFinished(bool ok);

 protected:
  void resizeEvent(QResizeEvent* e) override;
  bool eventFilter(QObject* o, QEvent* e) override;

 private:
  // Async work on a large function: group it, lay out a group, lay out the
  // collapsed graph; any of them may be skipped.
  struct GroupJob {
    std::shared_ptr<const Grouping> grouping;
    int group = -1;
    std::optional<GraphLayout> inner;
    std::optional<GraphLayout> level;
    QString error;
  };
  void startGroupJob(int group, std::set<int> expanded);
  void applyGroupJob(quint64 request, const GroupJob& job, std::set<int> expanded);
  void showGrouped(const GraphLayout& level, int focusGroup);
  void resetGrouping();
  void onNodeDoubleClicked(int node);
  void placeOverview();
  void navigateTo(std::vector<int> candidates);
  void applyLayout(quint64 request, const GraphLayout& layout);
  void updateHighlight();
  void runSearch(bool next);
  void setOverlay(const QString& text, bool busy);
  void startPendingAxisAnimation();
  // A propagation step is about to change / changed the module's shardings.
  void beforeShardingsChange();
  void afterShardingsChange(const api::TimelineChanges& changes);

  DocumentState* state_;
  GraphScene* scene_;
  QGraphicsView* view_;
  QLabel* title_;
  QWidget* searchBar_;
  QLineEdit* searchEdit_;
  QLabel* searchInfo_;
  QWidget* overlay_;
  QLabel* overlayText_;
  QProgressBar* progress_;
  QPushButton* cancelButton_;
  QFutureWatcher<GraphLayout> watcher_;
  quint64 request_ = 0;
  GraphModel pending_;
  std::shared_ptr<const void> pendingDoc_;
  bool sync_ = false;
  std::vector<int> matches_;
  int matchPos_ = -1;

  OverviewMap* overview_;
  QToolButton* mapButton_;
  // Small functions: region ops drawn collapsed.
  std::set<const ir::Op*> collapsedRegions_;
  std::set<const ir::Op*> expandedCalls_;  // calls drawn with their callee inside
  const void* collapsedFor_ = nullptr;  // the module collapsedRegions_ points into
  // Large functions.
  GroupingOptions groupingOptions_;
  std::shared_ptr<const Grouping> grouping_;
  std::shared_ptr<const void> groupingDoc_;
  const ir::Op* groupingFunc_ = nullptr;
  std::set<int> expanded_;
  std::map<int, GraphModel> innerModels_;
  std::map<int, GraphLayout> innerLayouts_;
  std::map<std::set<int>, GraphLayout> levelLayouts_;
  CacheStats cacheStats_;
  QFutureWatcher<GroupJob> groupWatcher_;
  bool regroupAfterStep_ = false;  // a grouping was stopped for a step
  // Keyboard navigation.
  int current_ = -1;
  bool navigating_ = false;
  std::vector<int> navList_;
  int navPos_ = -1;
  // Axis movement.
  AxisMoveAnimator* animator_ = nullptr;
  QToolButton* animateButton_ = nullptr;
  bool animateAxes_ = true;
  const void* axisTrace_ = nullptr;  // the trace and step shown last
  int axisStep_ = -2;
  struct PendingAxisStep {
    propagation::TraceStep step;
    int durationMs = 0;
    const void* doc = nullptr;  // the document it must be shown on
  };
  std::optional<PendingAxisStep> pendingAxis_;
};

}  // namespace shardscope::widgets
