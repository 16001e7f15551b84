// The title line of an expanded group's frame in the graph. The frame is as
// wide as the group's ops, often narrower than its name and the hint:
//
//   expandedGroupHeader("attention · 12 ops", fm, 600)
//     == "▾ attention · 12 ops   (double-click here to collapse)"
//   expandedGroupHeader("mylib:user.MyModel.residual · 3 ops", fm, 300)
//     == "▾ mylib:user.MyModel.residual · 3 ops"   (no room for the hint)
//   expandedGroupHeader("mylib:user.MyModel.residual · 3 ops", fm, 120)
//     == "▾ mylib:user.M…"                         (elided, never cut)
#pragma once
#include <QFontMetricsF>
#include <QString>

namespace shardscope::widgets {

// The hint goes first when the line does not fit `width`, then the title
// is elided at its right.
QString expandedGroupHeader(const QString& title, const QFontMetricsF& metrics, qreal width);

}  // namespace shardscope::widgets
