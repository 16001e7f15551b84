// The dataflow graph of the current function: a view of a GraphScene
// (graph_scene.h) with zoom/pan/fit, Ctrl+F search, a legend overlay, an
// async layout with progress and Cancel, grouping of large functions and
// the axis-move animation of propagation steps (graph_axis_animation.h).
#pragma once
#include <QFutureWatcher>
#include <QGraphicsView>
#include <QPointer>
#include <QRegion>
#include <QWidget>
#include <map>
#include <optional>
#include <set>

#include "graph/graph_grouping.h"
#include "graph/graph_layout.h"
#include "graph/graph_scene.h"
#include "graph/overlay_places.h"
#include "propagation/propagation_trace.h"

class QAction;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QToolButton;

namespace shardscope::widgets {

class AxisMoveAnimator;
class DocumentState;
class OverviewMap;

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
  const GroupingOptions& groupingOptions() const { return groupingOptions_; }
  // View > Group by Name Scope: functions whose ops carry JAX name scopes
  // are grouped by them at any size (GroupingOptions::scopesAtAnySize; kept
  // in QSettings as graph/groupScopesAtAnySize). The action is this view's;
  // the main window puts it in its View menu.
  QAction* groupByNameScopeAction() const { return groupScopesAction_; }
  void setGroupScopesAtAnySize(bool on);
  bool isGrouped() const { return grouping_ != nullptr; }
  const Grouping* grouping() const { return grouping_.get(); }
  bool isExpanded(int group) const { return expanded_.count(group) > 0; }
  // The group whose level is shown (-1: the top level). Groups nest
  // (graph_grouping.h): a group with sub-groups opens as a level of its
  // own, the title shows the path to it (each part a link back up).
  int shownLevel() const { return level_; }
  // The ops the last search over the whole function found (grouped view).
  const std::vector<const ir::Op*>& searchMatches() const { return opMatches_; }
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
  // How large text is drawn (presentation mode: 1.6): Fit magnifies up to
  // 1.5x this, never shows labels below kMinReadableScale x this, and the
  // legend is drawn this much larger.
  void setTextScale(qreal scale);
  qreal textScale() const { return textScale_; }
  // Fit never draws the graph smaller than this: its 11-12 px labels stay
  // at 9 px or more. A graph that does not fit so is shown from its top (or
  // around the selection) and the overview map finds the rest.
  static constexpr qreal kMinReadableScale = 0.8;
  // The overview map is shown (the Map button, and part of the graph is
  // out of view: when all of it is visible the map would only cover nodes).
  bool isOverviewShown() const;
  bool axisAnimationEnabled() const { return animateAxes_; }

  // A second legend beside the mesh's (the communication layer's): a widget
  // in the view's viewport, kept under the mesh legend in its top-right
  // column; Fit keeps the graph clear of both. Call legendChanged() when it
  // changes size or is shown or hidden. nullptr: none.
  void setExtraLegend(QWidget* legend);
  // A label under the legend column (the what-if marks' "changed"
  // legend): placed by the view, Fit keeps the graph clear of it too. Call
  // legendChanged() when it changes size or is shown or hidden.
  void setChangedLabel(QWidget* label);
  void legendChanged();
  // Where the overlays sit now (overlay_places.h: the one place that says
  // so, also for Fit), in viewport coordinates.
  OverlayPlaces overlayPlacesNow() const;
  // The part of the viewport (its coordinates) the legends, the changed
  // label and the overview map cover.
  QRegion coveredByOverlays() const;
  // Bring `target` (scene coordinates) into view, clear of the legends and
  // the map, at any zoom: nothing moves when it is already so; otherwise the
  // view is centred on it (the scroll range widened when the graph fits the
  // window, so that even then it can move).
  void bringIntoView(const QRectF& target);
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
  // Show the level inside `group` (-1: the top level; a leaf group opens its
  // level with it expanded), or the level above (Backspace).
  void openGroup(int group);
  void openParent();
  // Open the path to `op` in a grouped function: its level shown, its group
  // expanded, its node centred and emphasised.
  void revealOp(const ir::Op* op);
  // Ctrl+F from code: set the search text (searches as typing does) / go to
  // the next match (Return).
  void find(const QString& text);
  void findNext();
  void toggleRegions(const ir::Op* op);
  // Keyboard navigation (Alt+Up, Alt+Down, Tab / Shift+Tab, Enter).
  void goToProducer();
  void goToConsumer();
  void goToSibling(bool backwards = false);
  void activateCurrent();

 signals:
  void layoutFinished(bool ok);
  // A search over all ops of a grouped function answered (off the UI
  // thread): `matches` ops found; the first is being revealed.
  void searchAnswered(int matches);

 protected:
  void resizeEvent(QResizeEvent* e) override;
  void showEvent(QShowEvent* e) override;
  bool eventFilter(QObject* o, QEvent* e) override;

 private:
  // Async work on a large function: group it, lay out a group, lay out the
  // collapsed graph; any of them may be skipped.
  struct GroupJob {
    std::shared_ptr<const Grouping> grouping;
    int level = -1;      // the level shown (kOpeningLevel: decided once grouped)
    int group = -1;      // a leaf group whose own graph is laid out
    int highlight = -1;  // the group brought into view
    std::set<int> expanded;
    std::optional<GraphModel> levelModel;
    std::optional<GraphLayout> inner;
    std::optional<GraphLayout> levelLayout;
  };
  static constexpr int kOpeningLevel = -100;
  void startGroupJob(int level, int group, int highlight, std::set<int> expanded);
  void applyGroupJob(quint64 request, const GroupJob& job);
  void showGrouped(const GraphLayout& level, int focusGroup);
  void showGroupedTitle();
  void finishReveal();
  void runGroupedSearch(bool next);
  void markSearchMatches();
  void resetGrouping();
  void onNodeDoubleClicked(int node);
  void placeOverview();
  void placeExtraLegend();
  // Fit, first try: the largest scale from `from` down to `floor` at which
  // all of `r` is in view and nothing a reader needs (keepClearRects) is
  // under the legend column or the changed label, the graph centred or
  // moved away from them. False: none found.
  bool fitWhole(const QRectF& r, const std::vector<QRectF>& keep, qreal from, qreal floor);
  // Fit, else: the graph at scale `s`, scrolling, with room in the scene
  // for the overlays (a margin beside it or a band above, a band below),
  // arranged to show most of it with no node covered where the view
  // starts; the selected op is then brought into view.
  void fitScrolling(const QRectF& r, const std::vector<QRectF>& keep, qreal s);
  void revealSelection();
  QSizeF changedLabelSize() const;  // empty while the label is hidden
  QSizeF fullViewport() const;      // the viewport's size without scroll bars
  // Scene rects of what overlays must not cover: nodes, value chips,
  // what-if badges, communication glyphs, region frames' titles (not
  // edges, frames, animations).
  std::vector<QRectF> keepClearRects() const;
  void navigateTo(std::vector<int> candidates);
  void applyLayout(quint64 request, const GraphLayout& layout);
  void updateHighlight();
  void runSearch(bool next);
  void setOverlay(const QString& text, bool busy);
  void clearGraph();  // no graph: nothing drawn, nothing to scroll
  void startPendingAxisAnimation();
  // A propagation step is about to change / changed the module's shardings.
  void beforeShardingsChange();
  void afterShardingsChange(const api::TimelineChanges& changes);

  DocumentState* state_;
  GraphScene* scene_;
  qreal textScale_ = 1.0;
  QGraphicsView* view_;
  QLabel* title_;
  QLabel* path_;  // where in the groups of a grouped function
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
  // Fit while hidden (another tab in front): the legends' sizes were not
  // final then (presentation mode entered on the Mesh tab); fit again on show.
  bool fitWhenShown_ = false;
  std::vector<int> matches_;
  int matchPos_ = -1;

  OverviewMap* overview_;
  QToolButton* mapButton_;
  QPointer<QWidget> extraLegend_;
  QPointer<QWidget> changedLabel_;
  MapCorner mapCorner_ = MapCorner::BottomRight;  // where placeOverview put the map
  // Small functions: region ops drawn collapsed.
  std::set<const ir::Op*> collapsedRegions_;
  std::set<const ir::Op*> expandedCalls_;  // calls drawn with their callee inside
  const void* collapsedFor_ = nullptr;  // the module collapsedRegions_ points into
  // Large functions.
  GroupingOptions groupingOptions_;
  std::shared_ptr<const Grouping> grouping_;
  std::shared_ptr<const void> groupingDoc_;
  const ir::Op* groupingFunc_ = nullptr;
  int level_ = -1;  // the group whose level is shown
  std::set<int> expanded_;  // leaf groups of that level drawn with their ops
  std::map<int, GraphModel> levelModels_;
  std::map<int, GraphModel> innerModels_;
  std::map<int, GraphLayout> innerLayouts_;
  std::map<std::pair<int, std::set<int>>, GraphLayout> levelLayouts_;
  const ir::Op* pendingReveal_ = nullptr;  // shown once its level is laid out
  // Search over all ops of a grouped function (OpSearchIndex, off the UI thread).
  QFutureWatcher<std::vector<int>> searchWatcher_;
  quint64 searchRequest_ = 0;
  QString searchedText_;
  std::vector<const ir::Op*> opMatches_;
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
  QAction* groupScopesAction_ = nullptr;
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
