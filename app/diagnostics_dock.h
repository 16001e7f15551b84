// Where the Diagnostics dock stands after its list changed. It shares the
// bottom tab group with the Trace explorer, What-if and Communication; an
// empty table there would hold the bottom of the window (where the
// narration, factor table and Why panel go) for nothing.
//
//   updateDiagnosticsDock(window, *diagnosticsModel);
//   // 0 rows: title "Diagnostics"; if it was the tab in front, the Trace
//   //         explorer (or `insteadDock`) comes forward instead
//   // 3 rows: title "Diagnostics (3)", shown and in front
#pragma once

class QAbstractItemModel;
class QMainWindow;

namespace shardscope::app {

// `window` holds the docks by object name: "diagnosticsDock" and
// `insteadDock` (default "traceExplorerDock", else "traceDock" when the
// window has no explorer).
void updateDiagnosticsDock(QMainWindow* window, const QAbstractItemModel& diagnostics,
                           const char* insteadDock = nullptr);

}  // namespace shardscope::app
