// The main window's Communication dock (widgets/comm), set up apart from
// main_window.cpp so that the window only makes one call.
#pragma once

class QDockWidget;
class QMainWindow;

namespace shardscope::widgets {
class DocumentState;
}

namespace shardscope {

// Adds the dock (object name "communicationDock") to the bottom area of
// `window`, tabbed with `tabifyWith` when given, following `state`.
QDockWidget* addCommunicationDock(QMainWindow* window, widgets::DocumentState* state,
                                  QDockWidget* tabifyWith);

}  // namespace shardscope
