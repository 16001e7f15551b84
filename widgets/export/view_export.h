// Pictures of the three views for a document, built without any window
// (headless `--export`, tests, and the main window's Export action).
#pragma once
#include <QString>

#include "api/communication.h"
#include "api/document.h"
#include "core/picture_export.h"
#include "graph/graph_grouping.h"
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
  // Graph: the communication report of `doc` to draw as the communication
  // layer (graph_comm_layer.h); null or without collectives: no layer.
  std::shared_ptr<const api::CommunicationReport> comm;
  // Graph: how a function is grouped (GroupingOptions::scopesAtAnySize is
  // the GUI's View > Group by Name Scope).
  GroupingOptions grouping;
  // The state `doc` is in, for the title ("after step 3 (steps
  // 0–11, user-priority)", core/timeline_caption.h); empty: not said.
  QString state;
};

// The titled picture of `request` for `doc`: light whatever the theme, with
// no selection halo (`op` only chooses what is drawn). Lays the graph out on
// the calling thread. Returns a null picture and sets `error` when the view
// cannot be drawn (e.g. the graph of a module that failed to parse).
Picture exportPicture(const api::Document& doc, const ExportRequest& request, QString* error);

// Lines [first, last] that show `op` in the source (its regions included).
std::pair<int, int> sourceRangeOf(const ir::Op& op);

}  // namespace shardscope::widgets
