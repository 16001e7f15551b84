// Turns one function into a graph to lay out and paint: ops (name + short
// result shapes) as nodes, each sharded value as a small "chip" node showing
// its sharding (axes coloured per mesh axis) between its producer and its
// users, regions as nested clusters. Runs on the UI thread (it measures
// text); the layout itself runs elsewhere.
#pragma once
#include <QColor>
#include <QString>
#include <QStringList>
#include <memory>
#include <set>
#include <vector>

#include "api/document.h"
#include "api/sharding_timeline.h"
#include "core/axis_style.h"
#include "graph/graph_layout.h"

class QTextDocument;

namespace shardscope::widgets {

struct GraphNodeInfo {
  // GroupNode: a collapsed group of ops (graph_grouping.h), painted from
  // `title`, `lines` and `axes` rather than `html`.
  enum Kind { OpNode, ArgumentNode, ValueNode, ReturnNode, TerminatorNode, GroupNode };
  Kind kind = OpNode;
  QString html;                      // the node's rich text
  QString searchText;                // plain text searched by Ctrl+F
  const ir::Op* op = nullptr;        // op nodes, return/terminator nodes
  const ir::Value* value = nullptr;  // argument and value nodes
  QColor border = QColor(0x55, 0x55, 0x55);
  bool dashed = false;
  // Group nodes.
  int group = -1;         // group id in the Grouping
  bool expanded = false;  // drawn as a frame around the group's own nodes
  QString title;          // "layer 3 · 73 ops"
  QStringList lines;      // summary lines
  QStringList axes;       // sharding axes, drawn as coloured chips
  // Op nodes whose regions are collapsed (double-click expands them).
  int collapsedOps = 0;
};

struct GraphEdgeInfo {
  const ir::Value* value = nullptr;
  QColor color = QColor(0x99, 0x99, 0x99);
  // One colour per sharding axis, major first (drawn as nested stripes when
  // there is more than one).
  std::vector<QColor> axisColors;
  bool dashed = false;
  bool dotted = false;  // region entry/exit
  double width = 1.2;
  int count = 1;  // values carried (edges between groups)
};

struct Grouping;

struct GraphModel {
  GraphInput input;
  std::vector<GraphNodeInfo> nodes;
  std::vector<GraphEdgeInfo> edges;
  QString title;  // "@main"
  Legend legend;
  // The op owning each cluster (the region op), parallel to input.clusters.
  std::vector<const ir::Op*> clusterOps;
  // Set when the graph is the collapsed view of a large function.
  std::shared_ptr<const Grouping> grouping;
  bool empty() const { return nodes.empty(); }
};

struct GraphBuildOptions {
  // Region ops drawn without their regions (one node, "N ops inside").
  std::set<const ir::Op*> collapsedRegions;
  // `func.call` ops drawn with the callee's body inside, as a cluster
  // (collapsed by default: a call is one node until it is expanded). A callee
  // is drawn once per graph (at the first expanded call) and never inside
  // itself: its ops are the same ops wherever it is called.
  std::set<const ir::Op*> expandedCalls;
  // A propagation run being stepped through (DocumentState::timeline()):
  // a value that a later step shards gets its chip already, drawn "no
  // sharding yet", and every chip and result list is sized for the larger of
  // its text now and after the run, so that stepping never moves a node.
  const api::ShardingTimeline* timeline = nullptr;
};

// The value chip of `v` and the style of the edges carrying it, from its
// sharding in the module now (or "no sharding yet" when it has none).
// `colors`: colorMesh(module). Used by the builder and, when a step changes
// shardings, by the scene to restyle only what changed.
void styleValue(const ir::Value& v, const Mesh& colors, GraphNodeInfo* chip, GraphEdgeInfo* edge);
// The rich text of a `func.return` node: "return" and the function's result
// shardings now; with `final`, the ones after the timeline's run instead.
QString returnNodeHtml(const ir::Op& ret, const Mesh& colors,
                       const api::ShardingTimeline* final = nullptr);

// The function a `func.call` op calls, or nullptr.
const ir::Op* calledFunction(const ir::Module& module, const ir::Op& call);

// Build the graph of `func` (a func.func op) in `module`.
GraphModel buildGraph(const ir::Module& module, const ir::Op& func,
                      const GraphBuildOptions& options = {});

// Build the graph of some top-level ops of a function (an expanded group):
// values coming from outside them are drawn as dashed input nodes.
GraphModel buildGroupGraph(const ir::Module& module, const std::vector<const ir::Op*>& ops,
                           const QString& title, const GraphBuildOptions& options = {});

// A text document with the node font and margins, used for both measuring
// (builder) and painting (scene) so the sizes agree.
std::unique_ptr<QTextDocument> makeNodeDocument(const QString& html);

// The axes of every mesh in the module, merged by name in first-seen order;
// colours come from positions in this list. `names` receives "@a, @b".
Mesh colorMesh(const ir::Module& module, QString* names = nullptr);

}  // namespace shardscope::widgets
