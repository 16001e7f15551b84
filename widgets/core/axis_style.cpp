#include "core/axis_style.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>

#include "core/theme_palette.h"

namespace shardscope::widgets {

QString toQString(const std::string& s) { return QString::fromStdString(s); }

QColor axisColor(int index) {
  // Okabe-Ito-like palette, readable on white, distinguishable for most
  // colour-blind viewers; repeats with darker shades after 8 axes.
  static const QColor palette[] = {QColor(0x00, 0x72, 0xB2), QColor(0xD5, 0x5E, 0x00),
                                   QColor(0x00, 0x9E, 0x73), QColor(0xCC, 0x79, 0xA7),
                                   QColor(0xE6, 0x9F, 0x00), QColor(0x56, 0xB4, 0xE9),
                                   QColor(0x8B, 0x4C, 0xC4), QColor(0x99, 0x88, 0x22)};
  if (index < 0) return QColor(0x88, 0x88, 0x88);
  QColor c = palette[index % 8];
  if (index >= 8) c = c.darker(140);
  return c;
}

QColor axisColor(const Mesh* mesh, const QString& name) {
  if (!mesh) return axisColor(-1);
  return axisColor(mesh->axisIndex(name.toStdString()));
}

namespace {

QString axisText(const AxisRef& a) { return toQString(a.str()); }

QString axisListText(const AxisRefList& axes) {
  QStringList parts;
  for (const AxisRef& a : axes) parts << axisText(a);
  return u'{' + parts.join(QStringLiteral(", ")) + u'}';
}

QString esc(const QString& s) { return s.toHtmlEscaped(); }

QString axisSpan(const AxisRef& a, const Mesh* mesh, const QString& extraStyle = QString()) {
  const QColor c = axisColor(mesh, toQString(a.name));
  return QStringLiteral("<span style=\"color:%1;font-weight:bold;%2\">%3</span>")
      .arg(c.name(), extraStyle, esc(axisText(a)));
}

}  // namespace

QString shardingText(const TensorSharding& s) {
  QStringList dims;
  for (const DimensionSharding& d : s.dims) {
    QStringList parts;
    for (const AxisRef& a : d.axes) parts << axisText(a);
    if (!d.closed) parts << QStringLiteral("?");
    QString t = u'{' + parts.join(QStringLiteral(", ")) + u'}';
    if (d.priority) t += u'p' + QString::number(*d.priority);
    dims << t;
  }
  QString out = u'[' + dims.join(QStringLiteral(", ")) + u']';
  if (!s.replicated.empty()) out += QStringLiteral(" rep=") + axisListText(s.replicated);
  if (!s.unreduced.empty()) out += QStringLiteral(" unred=") + axisListText(s.unreduced);
  return out;
}

QString shardingHtml(const TensorSharding& s, const Mesh* mesh) {
  QStringList dims;
  for (const DimensionSharding& d : s.dims) {
    QStringList parts;
    for (const AxisRef& a : d.axes) parts << axisSpan(a, mesh);
    if (!d.closed) parts << QStringLiteral("<span style=\"color:#777\"><i>?</i></span>");
    QString t = u'{' + parts.join(QStringLiteral(", ")) + u'}';
    if (!d.closed) t = QStringLiteral("<i>") + t + QStringLiteral("</i>");
    if (d.priority) t += QStringLiteral("<sub>p%1</sub>").arg(*d.priority);
    dims << t;
  }
  QString out = u'[' + dims.join(QStringLiteral(", ")) + u']';
  if (!s.replicated.empty()) {
    QStringList parts;
    for (const AxisRef& a : s.replicated)
      parts << axisSpan(a, mesh, QStringLiteral("text-decoration:line-through;"));
    out += QStringLiteral(" <span style=\"color:#555\">rep=</span>{") +
           parts.join(QStringLiteral(", ")) + u'}';
  }
  if (!s.unreduced.empty()) {
    QStringList parts;
    for (const AxisRef& a : s.unreduced)
      parts << axisSpan(a, mesh, QStringLiteral("text-decoration:underline;"));
    out += QStringLiteral(" <span style=\"color:#555\">unred=</span>{") +
           parts.join(QStringLiteral(", ")) + u'}';
  }
  return out;
}

bool hasOpenDim(const TensorSharding& s) {
  for (const auto& d : s.dims)
    if (!d.closed) return true;
  return false;
}

QString primaryAxis(const TensorSharding& s) {
  for (const auto& d : s.dims)
    if (!d.axes.empty()) return toQString(d.axes.front().name);
  return {};
}

// --- Legend ---------------------------------------------------------------

namespace {
constexpr qreal kPad = 8;
constexpr qreal kRow = 18;
constexpr qreal kSwatch = 26;

QFont legendFont() {
  QFont f;
  f.setPixelSize(12);
  return f;
}

QStringList notationRows() {
  return {QStringLiteral("closed dimension: solid edge"),
          QStringLiteral("open dimension {…, ?}: dashed edge"),
          QStringLiteral("replicated axis: struck through"),
          QStringLiteral("no sharding: thin grey edge"),
          QStringLiteral("several axes: nested stripes")};
}
}  // namespace

QSizeF Legend::size() const {
  QFontMetricsF fm(legendFont());
  QFont bold = legendFont();
  bold.setBold(true);
  qreal w = QFontMetricsF(bold).horizontalAdvance(
      QStringLiteral("Mesh @%1  (%2 devices)").arg(meshName).arg(mesh.totalSize()));
  int rows = 1 + static_cast<int>(mesh.axes.size());
  if (mesh.hasCustomDeviceIds()) ++rows;
  if (mesh.hasCustomDeviceIds())
    w = std::max(w, fm.horizontalAdvance(QStringLiteral("custom device_ids")));
  for (const auto& a : mesh.axes)
    w = std::max(w, kSwatch + 6 +
                        fm.horizontalAdvance(
                            QStringLiteral("\"%1\" = %2").arg(toQString(a.name)).arg(a.size)));
  if (showNotation) {
    rows += 1 + static_cast<int>(notationRows().size());
    for (const QString& r : notationRows()) w = std::max(w, kSwatch + 6 + fm.horizontalAdvance(r));
    w = std::max(w, QFontMetricsF(bold).horizontalAdvance(QStringLiteral("Notation")));
  }
  return {w + 2 * kPad, rows * kRow + 2 * kPad};
}

void Legend::paint(QPainter& p, const QPointF& topLeft) const {
  p.save();
  const QSizeF sz = size();
  const CanvasColors& cc = canvasColors(dark);
  p.setPen(QPen(cc.legendBorder, 1));
  p.setBrush(cc.legendFill);
  p.drawRoundedRect(QRectF(topLeft, sz), 4, 4);
  p.setFont(legendFont());
  QFont bold = legendFont();
  bold.setBold(true);
  qreal y = topLeft.y() + kPad;
  const qreal x = topLeft.x() + kPad;
  auto textRow = [&](const QString& t, const QFont& f, const QColor& c = Qt::black,
                     qreal indent = 0) {
    p.setFont(f);
    p.setPen(readableOn(c, dark));
    p.drawText(QRectF(x + indent, y, sz.width() - 2 * kPad - indent, kRow),
               Qt::AlignVCenter | Qt::AlignLeft, t);
    y += kRow;
  };
  textRow(QStringLiteral("Mesh @%1  (%2 devices)").arg(meshName).arg(mesh.totalSize()), bold);
  for (size_t i = 0; i < mesh.axes.size(); ++i) {
    const QColor c = readableOn(axisColor(static_cast<int>(i)), dark);
    p.setPen(Qt::NoPen);
    p.setBrush(c);
    p.drawRoundedRect(QRectF(x, y + 4, kSwatch, kRow - 8), 2, 2);
    textRow(QStringLiteral("\"%1\" = %2").arg(toQString(mesh.axes[i].name)).arg(mesh.axes[i].size),
            legendFont(), dark ? c : c.darker(110), kSwatch + 6);
  }
  if (mesh.hasCustomDeviceIds())
    textRow(QStringLiteral("custom device_ids"), legendFont(), QColor(0x55, 0x55, 0x55));
  if (showNotation) {
    textRow(QStringLiteral("Notation"), bold);
    const QStringList rows = notationRows();
    for (int i = 0; i < rows.size(); ++i) {
      const qreal my = y + kRow / 2;
      QPen pen(readableOn(i == 3 ? QColor(0x99, 0x99, 0x99) : QColor(0x33, 0x33, 0x33), dark),
               i == 3 ? 1 : 2.2);
      if (i == 1) pen.setStyle(Qt::DashLine);
      p.setPen(pen);
      if (i == 4) {
        QPen outer(readableOn(axisColor(0), dark), 5);
        QPen inner(readableOn(axisColor(1), dark), 2);
        p.setPen(outer);
        p.drawLine(QPointF(x, my), QPointF(x + kSwatch, my));
        p.setPen(inner);
        p.drawLine(QPointF(x, my), QPointF(x + kSwatch, my));
      } else if (i == 2) {
        QFont f = legendFont();
        f.setStrikeOut(true);
        f.setBold(true);
        p.setFont(f);
        p.setPen(readableOn(axisColor(1), dark));
        p.drawText(QRectF(x, y, kSwatch, kRow), Qt::AlignCenter, QStringLiteral("\"y\""));
      } else {
        p.drawLine(QPointF(x, my), QPointF(x + kSwatch, my));
      }
      textRow(rows[i], legendFont(), Qt::black, kSwatch + 6);
    }
  }
  p.restore();
}

}  // namespace shardscope::widgets
