// What-if in the graph: the values whose sharding changed in the last re-run
// (DocumentState::changedValues()) are marked in the GraphView's scene: an
// amber halo along their edges and around their chips / argument nodes, a
// "changed" badge on each marked node, and a legend entry under the legend column
// (overlay_places.h). A collapsed group of a large function holding changed values
// gets the halo and a badge with their count. Everything is cleared when the
// set is empty, and redone after every new layout (the scene is rebuilt).
//
// The marks are two extra scene items (halos under the edges and nodes,
// badges on top); the graph's own items are not touched.
#pragma once
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>
#include <vector>

class QLabel;
class QWidget;
class QGraphicsObject;

namespace shardscope::widgets {

class DocumentState;
class GraphView;

class GraphChangeMarks : public QObject {
  Q_OBJECT
 public:
  // Marks `view`'s scene from `state`; a child of `view`.
  GraphChangeMarks(DocumentState* state, GraphView* view);
  ~GraphChangeMarks() override;

  // Indices into view->scene()->model().nodes / .edges currently marked.
  const std::vector<int>& markedNodes() const { return nodes_; }
  const std::vector<int>& markedEdges() const { return edges_; }
  // DocumentState::valueKey of every value drawn with a mark (chips,
  // argument nodes, edges; not the groups).
  const QSet<QString>& markedKeys() const { return keys_; }
  // The legend entry (shown while something is marked).
  QLabel* legend() const { return legend_; }

 public slots:
  // Recompute the marks for the scene as it is now.
  void refresh();

 signals:
  void marksChanged();

 protected:
  bool eventFilter(QObject* o, QEvent* e) override;

 private:
  void clearItems();
  void placeLegend();
  void styleLegend();

  DocumentState* state_;
  GraphView* view_;
  QPointer<QWidget> viewport_;  // view_'s graph viewport, holding the legend
  QPointer<QGraphicsObject> halos_, badges_;
  QLabel* legend_;
  std::vector<int> nodes_, edges_;
  QSet<QString> keys_;
};

}  // namespace shardscope::widgets
