#include "core/model_html.h"

#include <QAbstractItemModel>
#include <QBrush>
#include <QColor>
#include <QFont>
#include <algorithm>

namespace shardscope::widgets {

namespace {

QString cellHtml(const QModelIndex& index) {
  QString text = index.data(Qt::DisplayRole).toString().toHtmlEscaped();
  const QVariant fg = index.data(Qt::ForegroundRole);
  QColor colour;
  if (fg.typeId() == QMetaType::QBrush) colour = fg.value<QBrush>().color();
  if (fg.typeId() == QMetaType::QColor) colour = fg.value<QColor>();
  if (colour.isValid() && !text.isEmpty())
    text = QStringLiteral("<font color=\"%1\">%2</font>").arg(colour.name(), text);
  const QVariant font = index.data(Qt::FontRole);
  if (font.typeId() == QMetaType::QFont && font.value<QFont>().bold()) text = u"<b>" + text + u"</b>";
  const QVariant align = index.data(Qt::TextAlignmentRole);
  const bool right =
      align.isValid() && (Qt::Alignment(align.toInt()) & Qt::AlignRight) == Qt::AlignRight;
  return (right ? QStringLiteral("<td align=\"right\">") : QStringLiteral("<td>")) + text +
         QStringLiteral("</td>");
}

}  // namespace

QString modelTableHtml(const QAbstractItemModel& model, int maxRows) {
  const int rows = model.rowCount();
  const int columns = model.columnCount();
  QString html = QStringLiteral(
      "<table cellspacing=\"0\" cellpadding=\"4\" border=\"1\" "
      "style=\"border-collapse: collapse; border-color: #cccccc;\">");
  html += QStringLiteral("<tr style=\"background-color: #eef1f5;\">");
  for (int c = 0; c < columns; ++c)
    html += QStringLiteral("<th align=\"left\">") +
            model.headerData(c, Qt::Horizontal).toString().toHtmlEscaped() +
            QStringLiteral("</th>");
  html += QStringLiteral("</tr>");
  const int shown = std::min(rows, maxRows);
  for (int r = 0; r < shown; ++r) {
    html += r % 2 ? QStringLiteral("<tr style=\"background-color: #f7f7f7;\">")
                  : QStringLiteral("<tr>");
    for (int c = 0; c < columns; ++c) html += cellHtml(model.index(r, c));
    html += QStringLiteral("</tr>");
  }
  if (rows > shown)
    html += QStringLiteral("<tr><td colspan=\"%1\"><i>… %2 more rows not shown</i></td></tr>")
                .arg(columns)
                .arg(rows - shown);
  html += QStringLiteral("</table>");
  return html;
}

}  // namespace shardscope::widgets
