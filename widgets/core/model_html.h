// A table model as an HTML table, for pictures of views that are tables
// (html_picture.h): what a QTableView shows of it, cell by cell.
//
//   model: 2 rows, columns "kind" | "Δ bytes" (right-aligned, red when more)
//   modelTableHtml(model) ==
//     "<table ...><tr><th>kind</th><th>Δ bytes</th></tr>"
//     "<tr><td>all-gather</td><td align=right><font color=#d33a2c>+192 B</font></td></tr>..."
//
// Each cell is its DisplayRole text (escaped), with the model's
// ForegroundRole colour, a bold FontRole, and right alignment from
// TextAlignmentRole; the header row is the horizontal headerData. So the
// picture of a view says exactly what the view says, with its colours.
#pragma once
#include <QString>

class QAbstractItemModel;

namespace shardscope::widgets {

// At most `maxRows` rows (a last row says how many were left out).
QString modelTableHtml(const QAbstractItemModel& model, int maxRows = 200);

}  // namespace shardscope::widgets
