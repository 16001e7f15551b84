// An op's Python source and name scope (engine/api/op_source.h) in words,
// for the status bar, tooltips and Ctrl+F:
//
//   opSourceSummary(s) == "model.py:41:12 in Attention.__call__ · jit(f) › transformer ›
//                          layer_3 › attention · dot_general"
//   opSourceToolTip(s) == the name scope, then each frame of the stack on its own line
//
// Both are empty when the op has no location.
#pragma once
#include <QString>

#include "api/op_source.h"

namespace shardscope::widgets {

// "model.py:41:12 in Attention.__call__" for the innermost frame, "" without one.
QString frameSummary(const api::OpSource& source);
// The frame, then the name-scope path and the primitive, one line.
QString opSourceSummary(const api::OpSource& source);
// A block argument's: the frame, then its name as JAX gives it
// (`params['mlp']['w1']`, not split into scopes).
QString argumentSourceSummary(const api::OpSource& source);
// Rich text: name scope, then the call stack (innermost first).
QString opSourceToolTip(const api::OpSource& source);

}  // namespace shardscope::widgets
