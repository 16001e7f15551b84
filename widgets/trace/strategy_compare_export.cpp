#include "strategy_compare_export.h"

#include <QAbstractItemModel>
#include <QEventLoop>
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
  if (const QString why = compare.failure(); !why.isEmpty()) {
    if (error) *error = QStringLiteral("The comparison has no result: %1").arg(why);
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

Picture strategyComparePicture(const QString& moduleText, const QString& fileName, Strategy a,
                               Strategy b, QString* error) {
  StrategyCompareWidget compare;
  compare.setModuleText(moduleText, fileName);
  compare.setStrategies(a, b);
  QEventLoop loop;
  // Done when the collectives are compared, or when a run failed (then
  // nothing more comes).
  QObject::connect(&compare, &StrategyCompareWidget::communicationCompared, &loop,
                   &QEventLoop::quit);
  QObject::connect(&compare, &StrategyCompareWidget::compared, &loop, [&] {
    if (!compare.failure().isEmpty()) loop.quit();
  });
  if (moduleText.isEmpty()) {
    if (error) *error = QStringLiteral("%1 is empty: there is nothing to compare").arg(fileName);
    return {};
  }
  compare.compare();
  loop.exec();
  return strategyComparePicture(compare, error);
}

}  // namespace shardscope::widgets::trace
