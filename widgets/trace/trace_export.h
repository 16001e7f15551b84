// Pictures of the trace explorer for export (headless `shardscope --export
// OUT --view factors|trace [--op NAME] [--step N] [--strategy S] FILE`, the
// main window's Export action, tests): PNG, SVG or PDF by the file suffix
// (widgets/picture_export.h's writePicture), each with a title and a legend.
//
//   factors: the factor table of one step (or of one op with its final
//            shardings when no step changed it), coloured axis chips, legend;
//   trace:   the list of steps around the chosen one, its narration in plain
//            words, and its factor table with the legend.
#pragma once
#include <QImage>
#include <QString>

#include "api/document.h"
#include "core/picture_export.h"
#include "propagation_runner.h"

namespace shardscope::widgets::trace {

enum class TraceExportView { Factors, Trace };
// "factors" / "trace" (case-insensitive); false for anything else.
bool parseTraceExportView(const QString& name, TraceExportView* view);

struct TraceExportOptions {
  TraceExportView view = TraceExportView::Factors;
  // --op: a value name (`%3`), an op name (`dot_general` or
  // `stablehlo.dot_general`, the first in pre-order) or empty.
  QString op;
  // --step: 0-based step number; -1: the last step of `op` (without `op`:
  // the last step that is not a function-result sync, else the last step).
  int step = -1;
  Strategy strategy = Strategy::UserPriority;  // --strategy
  bool before = false;         // factor table before the step instead of after
  bool dimensionView = false;  // factor table per tensor dimension
};

// The picture for a finished run. Null picture + `error` when the step or
// op does not exist or the run failed.
Picture traceExportPicture(const TraceRun& run, const TraceExportOptions& options, QString* error);
// Propagate `moduleText` with `options.strategy` on the calling thread, then draw.
Picture traceExportPicture(const QString& moduleText, const QString& fileName, const TraceExportOptions& options,
                           QString* error);

// Write the picture to `path` (.png/.svg/.pdf). False with `error` on failure.
bool exportTracePanel(const QString& path, const QString& moduleText, const QString& fileName,
                      const TraceExportOptions& options, QString* error);
bool exportTracePanel(const QString& path, const api::Document& doc, const TraceExportOptions& options,
                      QString* error);
bool exportTracePanel(const QString& path, const TraceRun& run, const TraceExportOptions& options, QString* error);

// Render to an image (white background, `scale` pixels per unit).
QImage renderTracePicture(const Picture& picture, double scale = 2.0);

// The pre-order op index `name` designates in `run`'s input module, or -1.
int findOpIndex(const TraceRun& run, const QString& name);

}  // namespace shardscope::widgets::trace
