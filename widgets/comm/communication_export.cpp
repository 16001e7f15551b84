#include "communication_export.h"

#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>
#include <memory>
#include <numeric>

#include "communication_model.h"

namespace shardscope::widgets::comm {

namespace {
QFont font(int px, bool bold = false) {
  QFont f;
  f.setPixelSize(px);
  f.setBold(bold);
  return f;
}
constexpr qreal kCauseWidth = 560;
}  // namespace

Picture communicationPicture(const api::CommunicationReport& report, const QString& title,
                             int maxRows) {
  auto model = std::make_shared<CommunicationModel>();
  model->setReport(std::make_shared<const api::CommunicationReport>(report));
  const int n = model->rowCount();
  // Rows in program order, unless they do not all fit: then the costliest.
  std::vector<int> rows(static_cast<size_t>(n));
  std::iota(rows.begin(), rows.end(), 0);
  if (n > maxRows) {
    std::stable_sort(rows.begin(), rows.end(), [&](int a, int b) {
      return model->entry(a)->seconds > model->entry(b)->seconds;
    });
    rows.resize(static_cast<size_t>(maxRows));
    std::sort(rows.begin(), rows.end());
  }
  const QFont body = font(13), bold = font(13, true);
  const QFontMetricsF fm(body), bfm(bold);
  const int cols = CommunicationModel::NumColumns;
  std::vector<qreal> widths(cols, 0);
  for (int c = 0; c < cols; ++c) {
    widths[size_t(c)] = bfm.horizontalAdvance(model->headerData(c, Qt::Horizontal).toString()) + 16;
    for (int r : rows)
      widths[size_t(c)] = std::max(widths[size_t(c)],
                                   fm.horizontalAdvance(model->index(r, c).data().toString()) + 16);
  }
  widths[CommunicationModel::CauseColumn] =
      std::min(widths[CommunicationModel::CauseColumn], kCauseWidth);
  const qreal tableWidth = std::accumulate(widths.begin(), widths.end(), qreal(0));
  const qreal rowH = fm.height() + 8;
  // The whole cause, wrapped in its column, then why each axis was kept
  // away (a line each): the picture is for reading the causes.
  const qreal causeWidth = widths[CommunicationModel::CauseColumn] - 16;
  std::vector<QString> causes;
  std::vector<qreal> heights;
  for (int r : rows) {
    QString text = QString::fromStdString(model->entry(r)->cause);
    for (const std::string& note : model->entry(r)->blocked)
      text += QLatin1Char('\n') + QString::fromStdString(note);
    causes.push_back(text);
    heights.push_back(std::max(
        rowH, fm.boundingRect(QRectF(0, 0, causeWidth, 1e6), Qt::TextWordWrap, text).height() + 8));
  }
  const bool cut = n > static_cast<int>(rows.size());
  const qreal width = std::max<qreal>(tableWidth, 520);
  const qreal height = rowH * (2 + (cut ? 1 : 0) + (n == 0 ? 1 : 0)) +
                       std::accumulate(heights.begin(), heights.end(), qreal(0)) + 8;
  const QString totals = model->totalsText();

  Picture content;
  content.size = QSizeF(width, height);
  content.paint = [=](QPainter& p) {
    p.save();
    p.fillRect(QRectF(0, 0, width, height), Qt::white);
    p.setFont(bold);
    p.setPen(QColor(0x20, 0x20, 0x20));
    p.drawText(QRectF(8, 0, width - 16, rowH), Qt::AlignVCenter | Qt::AlignLeft, totals);
    qreal y = rowH;
    p.fillRect(QRectF(0, y, tableWidth, rowH), QColor(0xee, 0xf1, 0xf5));
    qreal x = 0;
    for (int c = 0; c < cols; ++c) {
      p.drawText(QRectF(x + 8, y, widths[size_t(c)] - 12, rowH), Qt::AlignVCenter | Qt::AlignLeft,
                 model->headerData(c, Qt::Horizontal).toString());
      x += widths[size_t(c)];
    }
    y += rowH;
    p.setFont(body);
    if (n == 0) {
      p.setPen(QColor(0x77, 0x77, 0x77));
      p.drawText(QRectF(8, y, width - 16, rowH), Qt::AlignVCenter | Qt::AlignLeft,
                 report.ok ? QStringLiteral("This sharding needs no communication.") : totals);
    }
    for (size_t i = 0; i < rows.size(); ++i) {
      const int r = rows[i];
      const qreal h = heights[i];
      if (i % 2) p.fillRect(QRectF(0, y, tableWidth, h), QColor(0xf7, 0xf7, 0xf7));
      x = 0;
      for (int c = 0; c < cols; ++c) {
        const QModelIndex index = model->index(r, c);
        const QRectF cell(x, y, widths[size_t(c)], c == CommunicationModel::CauseColumn ? h : rowH);
        if (const QVariant bg = index.data(Qt::BackgroundRole); bg.canConvert<QColor>())
          p.fillRect(cell, bg.value<QColor>());
        p.setPen(c == CommunicationModel::CauseColumn ? QColor(0x44, 0x44, 0x44)
                                                      : QColor(0x20, 0x20, 0x20));
        const bool right = c == CommunicationModel::BytesColumn ||
                           c == CommunicationModel::TimeColumn ||
                           c == CommunicationModel::LineColumn;
        if (c == CommunicationModel::CauseColumn) {
          p.drawText(cell.adjusted(8, 4, -8, -4), Qt::AlignTop | Qt::AlignLeft | Qt::TextWordWrap,
                     causes[i]);
        } else {
          const QString text =
              fm.elidedText(index.data().toString(), Qt::ElideRight, cell.width() - 16);
          p.drawText(cell.adjusted(8, 0, -8, 0),
                     Qt::AlignVCenter | (right ? Qt::AlignRight : Qt::AlignLeft), text);
        }
        x += widths[size_t(c)];
      }
      y += h;
    }
    if (cut) {
      p.setPen(QColor(0x77, 0x77, 0x77));
      p.drawText(QRectF(8, y, width - 16, rowH), Qt::AlignVCenter | Qt::AlignLeft,
                 QStringLiteral("… %1 cheaper collectives not shown")
                     .arg(n - static_cast<int>(rows.size())));
    }
    p.setPen(QPen(QColor(0xcc, 0xcc, 0xcc), 1));
    p.drawLine(QPointF(0, rowH), QPointF(tableWidth, rowH));
    p.restore();
  };
  return withTitle(content, title,
                   QStringLiteral("Chip: %1 (%2)")
                       .arg(QString::fromStdString(report.chip),
                            QString::fromStdString(report.chipDescription)));
}

QString communicationTitle(const QString& fileName, const QString& state) {
  return QStringLiteral("Communication — %1 (%2)").arg(fileName, state);
}

QString reportFailedMessage(const QString& fileName, const std::string& reason) {
  return QStringLiteral("no communication report for %1: %2")
      .arg(fileName, QString::fromStdString(reason));
}

bool exportCommunicationView(const QString& path, const api::Document& doc, const QString& state,
                             const api::CommunicationOptions& options, QString* error) {
  const api::CommunicationReport report = api::analyzeCommunication(doc, options);
  if (!report.ok) {
    if (error) *error = reportFailedMessage(QString::fromStdString(doc.name), report.error);
    return false;
  }
  return writePicture(
      communicationPicture(report, communicationTitle(QString::fromStdString(doc.name), state)),
      path, error);
}

}  // namespace shardscope::widgets::comm
