// Turns one function into a graph to lay out and paint: ops (name + short
// result shapes) as nodes, each sharded value as a small "chip" node showing
// its sharding (axes coloured per mesh axis) between its producer and its
// users, regions as nested clusters. Runs on the UI thread (it measures
// text); the layout itself runs elsewhere.
#pragma once
#include <QColor>
#include <QString>
#include <memory>
#include <vector>

#include "api/document.h"
#include "axis_style.h"
#include "graph_layout.h"

class QTextDocument;

namespace shardscope::widgets {

struct GraphNodeInfo {
  enum Kind { OpNode, ArgumentNode, ValueNode, ReturnNode, TerminatorNode };
  Kind kind = OpNode;
  QString html;                      // the node's rich text
  QString searchText;                // plain text searched by Ctrl+F
  const ir::Op* op = nullptr;        // op nodes, return/terminator nodes
  const ir::Value* value = nullptr;  // argument and value nodes
  QColor border = QColor(0x55, 0x55, 0x55);
  bool dashed = false;
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
};

struct GraphModel {
  GraphInput input;
  std::vector<GraphNodeInfo> nodes;
  std::vector<GraphEdgeInfo> edges;
  QString title;  // "@main"
  Legend legend;
  bool empty() const { return nodes.empty(); }
};

// Build the graph of `func` (a func.func op) in `module`.
GraphModel buildGraph(const ir::Module& module, const ir::Op& func);

// A text document with the node font and margins, used for both measuring
// (builder) and painting (scene) so the sizes agree.
std::unique_ptr<QTextDocument> makeNodeDocument(const QString& html);

// The axes of every mesh in the module, merged by name in first-seen order;
// colours come from positions in this list. `names` receives "@a, @b".
Mesh colorMesh(const ir::Module& module, QString* names = nullptr);

}  // namespace shardscope::widgets
