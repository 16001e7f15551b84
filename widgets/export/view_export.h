// Pictures of the three views for a document, built without any window
// (headless `--export`, tests, and the main window's Export action).
#pragma once
#include <QString>

#include "api/document.h"
#include "core/picture_export.h"
#include "propagation/propagation_trace.h"

namespace shardscope::widgets {

enum class ExportView { Graph, Mesh, Source };
// "graph" / "mesh" / "source"; false for anything else.
bool parseExportView(const QString& name, ExportView* view);
QString exportViewName(ExportView view);

struct ExportRequest {
  ExportView view = ExportView::Graph;
  const ir::Op* op = nullptr;        // function to draw / op to centre on (optional)
  const ir::Value* value = nullptr;  // tensor for the mesh view (optional)
  // Graph: a propagation step to explain (optional; `doc` should be the
  // module after it). Its axis moves are drawn as arrows + axis chips on the
  // edges into and out of its op (graph_axis_animation.h).
  const propagation::TraceStep* step = nullptr;
};

// The titled picture of `request` for `doc`. Lays the graph out on the
// calling thread. Returns a null picture and sets `error` when the view
// cannot be drawn (e.g. the graph of a module that failed to parse).
Picture exportPicture(const api::Document& doc, const ExportRequest& request, QString* error);

// Lines [first, last] that show `op` in the source (its regions included).
std::pair<int, int> sourceRangeOf(const ir::Op& op);

}  // namespace shardscope::widgets
