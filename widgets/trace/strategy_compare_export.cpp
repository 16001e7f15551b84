#include "strategy_compare_export.h"

#include <QAbstractItemModel>
#include <QFileInfo>
#include <QTableWidget>

#include "comm/communication_change_view.h"
#include "core/html_picture.h"
#include "core/model_html.h"
#include "sharding_diff_model.h"
#include "strategy_compare_widget.h"

namespace shardscope::widgets::trace {

Picture strategyComparePicture(const StrategyCompareWidget& compare, QString* error) {
  if (!compare.hasResult()) {
    if (error)
      *error = QStringLiteral(
          "Compare strategies first (Propagation > Compare Strategies): there is no result to "
          "export.");
    return {};
  }
  const QAbstractItemModel& values = *compare.model();
  // The strategies as the result names them (the choosers may have moved since).
  const QString a = values.headerData(ShardingDiffModel::LeftColumn, Qt::Horizontal).toString();
  const QString b = values.headerData(ShardingDiffModel::RightColumn, Qt::Horizontal).toString();
  QString html;
  if (values.rowCount() > 0)
    html += modelTableHtml(values);
  else
    html += QStringLiteral("<p>Every value ends with the same sharding.</p>");
  const comm::CommunicationChangeView* collectives = compare.communicationView();
  const QString summary = collectives->summaryText();
  if (!summary.isEmpty()) html += QStringLiteral("<p>") + summary + QStringLiteral("</p>");
  if (collectives->table()->rowCount() > 0) html += modelTableHtml(*collectives->table()->model());
  // As wide as the tables need, within what a page holds.
  const Picture content = htmlPicture(html, 760);
  const QString file = QFileInfo(compare.fileName()).fileName();
  return withTitle(content,
                   QStringLiteral("%1 — strategies compared: %2 → %3").arg(file, a, b),
                   QStringLiteral("each strategy alone on the applied source · %1")
                       .arg(compare.statusText()));
}

}  // namespace shardscope::widgets::trace
