// The result of Propagation > Compare Strategies as a picture (File >
// Export View > Strategy Comparison): what the comparison shows, as it
// shows it. For `mlp_megatron.mlir` compared basic → user-priority:
//
//   mlp_megatron.mlir — strategies compared: basic → user-priority
//   each strategy alone on the applied source · 2 value(s) differ
//   | Value | Line | basic   | user-priority |
//   | %1    | 9    | [{}, {}] | [{}, {"model"}] |  ...
//   Collectives (basic → user-priority): removes 1 all-reduce; …
//   | kind | basic → user-priority | bytes / device | Δ bytes | time | Δ time |
//
// Both tables are the widget's own models (core/model_html.h), so the
// picture says what the view says, with its red and green changes.
#pragma once
#include <QString>

#include "core/picture_export.h"
#include "propagation_runner.h"

namespace shardscope::widgets::trace {

class StrategyCompareWidget;

// Null picture with `error` set when no comparison has finished yet or one
// of its runs failed.
Picture strategyComparePicture(const StrategyCompareWidget& compare, QString* error);

// Compare `a` with `b` on `moduleText` as Propagation > Compare Strategies
// does, and draw the result: headless `shardscope --export OUT --view
// compare [--compare A,B] FILE`. The comparison is the GUI's own widget,
// never shown (both runs and the analysis of their collectives off this
// thread, which waits in an event loop), so the picture is the GUI's byte
// for byte. Needs a QApplication.
Picture strategyComparePicture(const QString& moduleText, const QString& fileName, Strategy a,
                               Strategy b, QString* error);

}  // namespace shardscope::widgets::trace
