// The "Why not other axes?" part of the Why panel: for the selected value
// and dimension, each mesh axis it does not hold and what blocked it
// (api::blockedAxes), as HTML with the axis in its colour and the reason
// as a tag:
//
//   Why not other axes?
//   • "y"  conflict  factor i of %0 = stablehlo.add (line 5) is sharded on {"x"} in %arg0 but on
//   {"y"} ...
#pragma once
#include <QString>

#include "api/blocked_axes.h"
#include "sharding/mesh.h"

namespace shardscope::widgets::trace {

// Empty when the report has no candidate axis (every axis is held, or
// there is no mesh).
QString whyNotHtml(const api::BlockedAxesReport& report, const Mesh* mesh);

}  // namespace shardscope::widgets::trace
