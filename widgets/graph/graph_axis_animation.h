// Axis movement in the dataflow graph: for one propagation trace step, each
// mesh axis that moved (from an operand or result of the step's op to
// another) is shown as a small chip in the axis' legend colour carrying the
// axis name ("x", "x":(2)2). Live, the chips travel along the painted edge
// of the source value into the op node and out along the edge of the
// destination value (QVariantAnimation, QGraphicsObjects on the scene); in
// exported pictures they are drawn as static arrows + chips at the edges'
// midpoints.
//
// An op inside a collapsed region is stood for by the region op's node, an
// op inside a collapsed group of a large function by the group's node.
// When a value has no edge at that node (a collapsed group or region, a
// function result, a data-flow edge source drawn elsewhere), that
// half of the route is a short stub above (operands) or below (results) the
// node, so the chip still passes through the node that stands for the op.
// Moves whose op has no node in the graph are skipped.
#pragma once
#include <QColor>
#include <QGraphicsObject>
#include <QPainterPath>
#include <QPointer>
#include <QString>
#include <vector>

#include "api/document.h"
#include "core/picture_export.h"
#include "propagation/propagation_trace.h"

class QVariantAnimation;

namespace shardscope::widgets {

class GraphScene;

// One axis of a step moving through its op, resolved against a module with
// the same op numbering (pre-order) as the module the trace ran on.
struct GraphAxisMove {
  QString label;     // "x", "x":(2)2 (sdy notation without quotes on full axes)
  QString axisName;  // "x": the legend colour
  int64_t factor = 0;
  // The node the chip passes through: the step's op (the function's
  // func.return for function-result syncs).
  const ir::Op* op = nullptr;
  // nullptr: a function result, or a source the trace could not tell ("?").
  const ir::Value* from = nullptr;
  const ir::Value* to = nullptr;
  bool fromIsResult = false;  // the source tensor is a result of `op` (else an operand)
  bool toIsResult = true;
  QString fromTensor, toTensor;  // "operand-0", "result-0" as in the trace
};

// The moves of `step` in `module` (empty when its op does not exist there).
std::vector<GraphAxisMove> resolveAxisMoves(const ir::Module& module,
                                            const propagation::TraceStep& step);
// The same with the module's ops in pre-order already numbered (a stepped
// run's timeline has them): no walk of the module per step.
std::vector<GraphAxisMove> resolveAxisMoves(const std::vector<ir::Op*>& preOrderOps,
                                            const propagation::TraceStep& step);

// "x" / "x":(2)2.
QString axisMoveLabel(const AxisRef& axis);

// Where a chip travels: into the op node along `inEdge` (an edge index of
// the scene's model, or -1 for a stub), through the node centre, out along
// `outEdge`.
struct AxisMoveRoute {
  int node = -1;  // scene node of the op (or its collapsed group); -1: no route
  bool viaGroup = false;  // through a collapsed group or region op standing for the op
  int inEdge = -1;
  int outEdge = -1;
  QPainterPath in;   // ends at the node
  QPainterPath out;  // starts at the node
  QPainterPath path;  // in + through the node + out
  QPointF center;     // of the node
  bool valid() const { return node >= 0; }
};
AxisMoveRoute axisMoveRoute(const GraphScene& scene, const GraphAxisMove& move);

// A travelling chip (live animation).
class AxisTokenItem : public QGraphicsObject {
  Q_OBJECT
 public:
  AxisTokenItem(const GraphAxisMove& move, const QColor& color, AxisMoveRoute route);
  QRectF boundingRect() const override;
  void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override;

  const GraphAxisMove& move() const { return move_; }
  const AxisMoveRoute& route() const { return route_; }
  QString label() const { return move_.label; }
  QColor color() const { return color_; }
  // 0..1 along the route: the first half to the node's centre, the second
  // out of it (so all chips of a step meet at the op at the same time).
  void setProgress(qreal t);
  qreal progress() const { return progress_; }
  // Drawn `px` pixels beside the route (chips sharing an edge).
  void setLateralOffset(qreal px);
  // Painted only in this viewport (null: everywhere).
  void setViewport(QWidget* viewport);

 private:
  QPointer<QWidget> viewport_;
  GraphAxisMove move_;
  QColor color_;
  AxisMoveRoute route_;
  QRectF rect_;
  qreal length_ = 0;
  qreal inLength_ = 0;  // of the route up to the node's centre
  qreal progress_ = -1;
};

// Runs the chips of one step at a time on a scene. start() cancels the
// previous step's chips; cancel() removes them at once; chips are removed
// when the animation ends (finished()).
class AxisMoveAnimator : public QObject {
  Q_OBJECT
 public:
  explicit AxisMoveAnimator(GraphScene* scene, QObject* parent = nullptr);
  ~AxisMoveAnimator() override;

  // Animate `moves` over `durationMs`. Returns the number of chips created
  // (moves without a route are skipped; 0 starts nothing).
  int start(const std::vector<GraphAxisMove>& moves, int durationMs);
  void cancel();
  bool isRunning() const;
  // The chips on the scene now.
  std::vector<AxisTokenItem*> tokens() const;
  int tokenCount() const { return static_cast<int>(tokens().size()); }
  int lastDuration() const { return duration_; }
  // The graph view's viewport: chips are not painted in other views of the
  // scene (the overview map).
  void setViewport(QWidget* viewport) { viewport_ = viewport; }

 signals:
  void started(int tokens);
  void finished();

 private:
  void advance(qreal t);
  void removeTokens();

  GraphScene* scene_;
  QPointer<QWidget> viewport_;
  QVariantAnimation* anim_;
  std::vector<QPointer<AxisTokenItem>> tokens_;
  int duration_ = 0;
};

// Static markers for pictures (headless export): for each move an arrow
// head in the axis colour at the midpoint of the source edge (pointing
// into the op) and of the destination edge (pointing away from it), with
// the axis chips beside it; moves on the same edge share one marker.
// Returns the number of markers added (owned by the scene).
int addAxisMoveMarkers(GraphScene& scene, const std::vector<GraphAxisMove>& moves);

// One line for a caption: `"x" %arg0 → %0 · "y" %arg1 → %0` (at most
// `maxMoves`, then "…").
QString describeAxisMoves(const std::vector<GraphAxisMove>& moves, int maxMoves = 6);

// A caption explaining `step` for a picture: the op (and line), then one
// row per move: the axis chip in its legend colour, from which value to
// which, the factor; conflicts left after the step; "no axis moved".
Picture axisMovesCaption(const propagation::TraceStep& step,
                         const std::vector<GraphAxisMove>& moves, const Mesh& mesh);
// `top` above `bottom`, left-aligned, `gap` apart.
Picture stackPictures(const Picture& top, const Picture& bottom, double gap = 10);

// How long a step's chips travel when a player shows `stepsPerSecond`
// steps per second: 80% of the step interval, at most 1.6 s; 0 (no
// animation) when that is under 120 ms.
int axisAnimationDuration(double stepsPerSecond);

}  // namespace shardscope::widgets
