// The main window's communication views, set up apart from main_window.cpp
// so that the window only makes one call: the Communication dock
// (widgets/comm), the communication layer on the graph (graph_comm_layer.h)
// fed by the dock's reports, and the links between them and the Why panel.
#pragma once

class QDockWidget;
class QMainWindow;
class QWidget;

namespace shardscope::widgets {
class DocumentState;
class GraphView;
}  // namespace shardscope::widgets

namespace shardscope {

// Adds the dock (object name "communicationDock") to the bottom area of
// `window`, tabbed with `tabifyWith` when given, following `state`. With
// `graph`, the communication layer is drawn on it (its toggle is the action
// named "communicationLayerAction", for the View menu); a click on a row
// selects the op, brings the collective and its op into view (at any zoom,
// clear of the legends) and shows its cause
// in the Why panel of `explorer` (the trace explorer's TracePanel, may be
// null); a click on a glyph in the graph selects its row.
QDockWidget* addCommunicationDock(QMainWindow* window, widgets::DocumentState* state,
                                  QDockWidget* tabifyWith, widgets::GraphView* graph = nullptr,
                                  QWidget* explorer = nullptr);

}  // namespace shardscope
