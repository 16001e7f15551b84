// Graph layout with Graphviz `dot`, in-process (libgvc/libcgraph), as plain
// structs: the input is nodes with sizes, edges and nested clusters; the
// output is node rectangles, edge splines and cluster boxes in points, with
// y pointing down. Graphviz is not thread-safe: every call is serialised by
// one mutex inside graph_layout.cpp, so this can run on any thread.
#pragma once
#include <QPointF>
#include <QRectF>
#include <QString>
#include <functional>
#include <vector>

namespace shardscope::widgets {

struct GraphInput {
  struct Node {
    double width = 40;   // points
    double height = 20;  // points
    int cluster = -1;    // innermost cluster, -1 for the root graph
  };
  struct Edge {
    int from = 0;
    int to = 0;
    bool arrow = true;  // false: no arrowhead, and no space reserved for one
    double weight = 1;
    bool constraint = true;  // false: does not affect ranking
  };
  struct Cluster {
    int parent = -1;  // enclosing cluster, -1 for the root graph
    QString label;
  };
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  std::vector<Cluster> clusters;
  bool leftToRight = false;
};

struct GraphLayout {
  struct Node {
    QRectF rect;
  };
  struct Edge {
    std::vector<QPointF> bezier;  // 1 + 3n points of a cubic B-spline path
    bool hasArrow = false;
    QPointF arrowTip;
  };
  struct Cluster {
    QRectF rect;
    QRectF labelRect;
  };
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  std::vector<Cluster> clusters;
  QRectF bounds;
  QString error;  // non-empty if the layout failed
  bool canceled = false;
};

// Lay out `input`. `progress(percent)` is called with 0..100 and
// `canceled()` is polled between phases (Graphviz itself cannot be
// interrupted); both may be empty.
GraphLayout layoutGraph(const GraphInput& input, const std::function<void(int)>& progress = {},
                        const std::function<bool()>& canceled = {});

}  // namespace shardscope::widgets
