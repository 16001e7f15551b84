// The dataflow graph's scene: the items of a GraphModel (graph_builder.h)
// placed by its Graphviz layout (graph_layout.h): op nodes, value chips,
// edges, region clusters; highlight, search, neighbours for keyboard
// navigation, sharding restyling for propagation steps, and the picture
// for export. Shown by GraphView (graph_view.h) and animated by
// graph_axis_animation.h, neither of which it knows.
#pragma once
#include <QGraphicsScene>
#include <QPainterPath>
#include <memory>
#include <unordered_map>
#include <vector>

#include "api/sharding_timeline.h"
#include "core/picture_export.h"
#include "graph/graph_builder.h"
#include "graph/graph_layout.h"

namespace shardscope::widgets {

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
  // Where the region frames' titles ("while · do") are drawn, scene
  // coordinates: what lies over the graph keeps clear of them.
  std::vector<QRectF> clusterTitleRects() const;
  // The painted path of edge `edge` (index into model().edges), scene coordinates.
  QPainterPath edgePath(int edge) const;
  // The document the shown graph belongs to (its keep-alive), or nullptr.
  const void* shownDocument() const { return keepAlive_.get(); }
  // The node of `op`: its own node, else the collapsed group holding it
  // (the outer group shown, when groups nest).
  int nodeOf(const ir::Op* op) const;
  // The node of a collapsed or expanded group, or -1.
  int nodeOfGroup(int group) const;
  // The node of `group` or, when the level shown holds it inside a larger
  // group, of that group; -1 when neither is shown.
  int shownNodeOfGroup(int group) const;
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

}  // namespace shardscope::widgets
