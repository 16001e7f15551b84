#include "comm/comm_glyphs.h"

#include <QFont>
#include <QFontMetricsF>
#include <QLinearGradient>
#include <QObject>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "core/theme_palette.h"

namespace shardscope::widgets {

namespace {

QFont tagFont() {
  QFont f(QStringLiteral("DejaVu Sans"));
  f.setPixelSize(10);
  f.setBold(true);
  return f;
}

QFont textFont() {
  QFont f(QStringLiteral("DejaVu Sans"));
  f.setPixelSize(10);
  return f;
}

constexpr double kIconWidth = 14, kIconHeight = 12, kPad = 5, kGap = 3;

// A small arrowhead at `tip` pointing along `dir` (a unit-ish vector).
void arrowHead(QPainterPath& path, QPointF tip, QPointF dir, double size = 3) {
  const double len = std::hypot(dir.x(), dir.y());
  if (len == 0) return;
  dir /= len;
  const QPointF normal(-dir.y(), dir.x());
  path.moveTo(tip - dir * size + normal * size * 0.8);
  path.lineTo(tip);
  path.lineTo(tip - dir * size - normal * size * 0.8);
}

// The Greek sum sign in `r`.
void sigma(QPainterPath& path, const QRectF& r) {
  path.moveTo(r.right(), r.top());
  path.lineTo(r.left(), r.top());
  path.lineTo(r.center().x(), r.center().y());
  path.lineTo(r.left(), r.bottom());
  path.lineTo(r.right(), r.bottom());
}

}  // namespace

const QStringList& commKinds() {
  static const QStringList kinds = {
      QStringLiteral("all-gather"),     QStringLiteral("all-slice"),
      QStringLiteral("all-to-all"),     QStringLiteral("collective-permute"),
      QStringLiteral("reduce-scatter"), QStringLiteral("all-reduce"),
      QStringLiteral("reshard")};
  return kinds;
}

QString commKindTag(const QString& kind) {
  if (kind == QLatin1String("all-gather")) return QStringLiteral("AG");
  if (kind == QLatin1String("all-slice")) return QStringLiteral("AS");
  if (kind == QLatin1String("all-to-all")) return QStringLiteral("A2A");
  if (kind == QLatin1String("collective-permute")) return QStringLiteral("CP");
  if (kind == QLatin1String("reduce-scatter")) return QStringLiteral("RS");
  if (kind == QLatin1String("all-reduce")) return QStringLiteral("AR");
  return QStringLiteral("RSH");
}

void paintCommKindIcon(QPainter& p, const QRectF& rect, const QString& kind, const QColor& color) {
  const QRectF r = rect.adjusted(1, 1, -1, -1);
  const double l = r.left(), t = r.top(), w = r.width(), h = r.height();
  const QPointF mid(l + w / 2, t + h / 2);
  QPainterPath path;
  if (kind == QLatin1String("all-gather") || kind == QLatin1String("all-slice")) {
    // Three pieces and one whole: lines meeting at the right (gather) or
    // leaving from the left (slice).
    const bool gather = kind == QLatin1String("all-gather");
    const QPointF one = gather ? QPointF(l + w * 0.72, mid.y()) : QPointF(l + w * 0.28, mid.y());
    for (double y : {t, mid.y(), t + h}) {
      const QPointF many = gather ? QPointF(l, y) : QPointF(l + w, y);
      path.moveTo(many);
      path.lineTo(one);
    }
    const double x = gather ? l + w : l;
    path.moveTo(x, t + h * 0.2);
    path.lineTo(x, t + h * 0.8);
  } else if (kind == QLatin1String("all-to-all")) {
    path.moveTo(l, t + h);
    path.lineTo(l + w, t);
    arrowHead(path, QPointF(l + w, t), QPointF(w, -h));
    path.moveTo(l, t);
    path.lineTo(l + w, t + h);
    arrowHead(path, QPointF(l + w, t + h), QPointF(w, h));
  } else if (kind == QLatin1String("collective-permute")) {
    const QRectF ring(mid.x() - h / 2, t, h, h);
    path.arcMoveTo(ring, 60);
    path.arcTo(ring, 60, 300);
    const QPointF end = path.currentPosition();
    arrowHead(path, end, QPointF(0.9, -0.4));
  } else if (kind == QLatin1String("reduce-scatter")) {
    sigma(path, QRectF(l, t, w * 0.45, h));
    const QPointF from(l + w * 0.58, mid.y());
    for (double y : {t + h * 0.1, mid.y(), t + h * 0.9}) {
      path.moveTo(from);
      path.lineTo(l + w, y);
    }
  } else if (kind == QLatin1String("all-reduce")) {
    const QRectF ring(mid.x() - h / 2 - 0.5, t - 0.5, h + 1, h + 1);
    path.addEllipse(ring);
    sigma(path, QRectF(mid.x() - h * 0.2, t + h * 0.25, h * 0.42, h * 0.5));
  } else {
    // A reshard: two arrows both ways.
    path.moveTo(l, t + h * 0.3);
    path.lineTo(l + w, t + h * 0.3);
    arrowHead(path, QPointF(l + w, t + h * 0.3), QPointF(1, 0));
    path.moveTo(l + w, t + h * 0.7);
    path.lineTo(l, t + h * 0.7);
    arrowHead(path, QPointF(l, t + h * 0.7), QPointF(-1, 0));
  }
  p.save();
  p.setRenderHint(QPainter::Antialiasing);
  QPen pen(color, 1.4);
  pen.setCapStyle(Qt::RoundCap);
  pen.setJoinStyle(Qt::RoundJoin);
  p.setPen(pen);
  p.setBrush(Qt::NoBrush);
  p.drawPath(path);
  p.restore();
}

QColor commCostColor(double share, bool dark) {
  const double s = std::clamp(share, 0.0, 1.0);
  // Hue 45 degrees (amber) down to 0 (red); a little lighter on dark canvases.
  return QColor::fromHsvF(static_cast<float>((45.0 - 45.0 * s) / 360.0),
                          static_cast<float>(dark ? 0.75 : 0.9), static_cast<float>(dark ? 1.0 : 0.92));
}

double commCostWidth(double share) { return 3.0 + 10.0 * std::sqrt(std::clamp(share, 0.0, 1.0)); }

QSizeF commGlyphSize(const CommGlyphStyle& style) {
  const QFontMetricsF tag(tagFont()), text(textFont());
  double w = kPad + kIconWidth + kGap + tag.horizontalAdvance(commKindTag(style.kind));
  if (!style.text.isEmpty()) w += kGap + 1 + text.horizontalAdvance(style.text);
  w += kPad;
  return {std::ceil(w), std::ceil(std::max(tag.height(), kIconHeight) + 5)};
}

void paintCommGlyph(QPainter& p, const QRectF& rect, const CommGlyphStyle& style) {
  const CanvasColors& cc = canvasColors(style.dark);
  const QColor cost = commCostColor(style.share, style.dark);
  // The fill: the cost colour faintly over the canvas, opaque so that the
  // edges under the pill do not show through the text.
  QColor fill = cc.background;
  const double a = 0.22;
  fill.setRgbF(static_cast<float>(fill.redF() * (1 - a) + cost.redF() * a),
               static_cast<float>(fill.greenF() * (1 - a) + cost.greenF() * a),
               static_cast<float>(fill.blueF() * (1 - a) + cost.blueF() * a));
  p.save();
  p.setRenderHint(QPainter::Antialiasing);
  const double r = rect.height() / 2;
  if (style.selected) {
    p.setPen(QPen(cc.highlightHalo, 6));
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(rect, r, r);
  }
  p.setPen(QPen(cost.darker(style.dark ? 100 : 125), style.selected ? 2.6 : 1.5));
  p.setBrush(fill);
  p.drawRoundedRect(rect, r, r);
  const QColor ink = cc.text;
  double x = rect.left() + kPad;
  paintCommKindIcon(p, QRectF(x, rect.center().y() - kIconHeight / 2, kIconWidth, kIconHeight),
                    style.kind, ink);
  x += kIconWidth + kGap;
  p.setPen(ink);
  p.setFont(tagFont());
  const QString tag = commKindTag(style.kind);
  const double tagWidth = QFontMetricsF(tagFont()).horizontalAdvance(tag);
  p.drawText(QRectF(x, rect.top(), tagWidth + 1, rect.height()), Qt::AlignVCenter | Qt::AlignLeft,
             tag);
  x += tagWidth + kGap + 1;
  if (!style.text.isEmpty()) {
    p.setFont(textFont());
    p.drawText(QRectF(x, rect.top(), rect.right() - x, rect.height()),
               Qt::AlignVCenter | Qt::AlignLeft, style.text);
  }
  p.restore();
}

// --- Legend -------------------------------------------------------------------

namespace {
constexpr double kLegendPad = 8, kRow = 16, kScaleWidth = 64, kScaleHeight = 8;

QString scaleText(const QString& maxTime) { return QObject::tr("time, up to %1").arg(maxTime); }

QFont legendFont(bool bold = false) {
  QFont f(QStringLiteral("DejaVu Sans"));
  f.setPixelSize(11);
  f.setBold(bold);
  return f;
}
}  // namespace

QSizeF CommLegend::size() const {
  const QFontMetricsF fm(legendFont()), bold(legendFont(true));
  const QStringList totalLines = totals.split(QLatin1Char('\n'));
  double w = bold.horizontalAdvance(title);
  for (const QString& line : totalLines) w = std::max(w, fm.horizontalAdvance(line));
  for (const QString& k : kinds)
    w = std::max(w, kIconWidth + 6 + bold.horizontalAdvance(QStringLiteral("A2A")) + 6 +
                        fm.horizontalAdvance(k));
  w = std::max(w, kScaleWidth + 8 + fm.horizontalAdvance(scaleText(maxTime)));
  const double h = kRow * (1 + static_cast<double>(totalLines.size() + kinds.size())) + 4 +
                   kScaleHeight * 1.3 + 2;
  return {std::ceil(w + 2 * kLegendPad), std::ceil(h + 2 * kLegendPad)};
}

void CommLegend::paint(QPainter& p, const QPointF& topLeft) const {
  const CanvasColors& cc = canvasColors(dark);
  const QSizeF s = size();
  p.save();
  p.setRenderHint(QPainter::Antialiasing);
  p.setPen(QPen(cc.legendBorder, 1));
  p.setBrush(cc.legendFill);
  p.drawRoundedRect(QRectF(topLeft, s), 4, 4);
  double x = topLeft.x() + kLegendPad, y = topLeft.y() + kLegendPad;
  p.setPen(cc.text);
  p.setFont(legendFont(true));
  p.drawText(QRectF(x, y, s.width(), kRow), Qt::AlignVCenter | Qt::AlignLeft, title);
  y += kRow;
  p.setFont(legendFont());
  for (const QString& line : totals.split(QLatin1Char('\n'))) {
    p.drawText(QRectF(x, y, s.width(), kRow), Qt::AlignVCenter | Qt::AlignLeft, line);
    y += kRow;
  }
  const double tagWidth = QFontMetricsF(legendFont(true)).horizontalAdvance(QStringLiteral("A2A"));
  for (const QString& k : kinds) {
    paintCommKindIcon(p, QRectF(x, y + (kRow - kIconHeight) / 2, kIconWidth, kIconHeight), k, cc.text);
    p.setPen(cc.text);
    p.setFont(legendFont(true));
    p.drawText(QRectF(x + kIconWidth + 6, y, tagWidth + 2, kRow), Qt::AlignVCenter | Qt::AlignLeft,
               commKindTag(k));
    p.setFont(legendFont());
    p.setPen(cc.mutedText);
    p.drawText(QRectF(x + kIconWidth + 12 + tagWidth, y, s.width(), kRow),
               Qt::AlignVCenter | Qt::AlignLeft, k);
    y += kRow;
  }
  // The cost scale: a gradient bar from amber to red, as the strokes under
  // the edges and the pills' outlines are coloured.
  y += 4;
  QLinearGradient g(x, 0, x + kScaleWidth, 0);
  for (int i = 0; i <= 4; ++i) g.setColorAt(i / 4.0, commCostColor(i / 4.0, dark));
  QPainterPath wedge;  // thin at the cheap end, thick at the expensive one
  wedge.moveTo(x, y + kScaleHeight * 0.65);
  wedge.lineTo(x + kScaleWidth, y);
  wedge.lineTo(x + kScaleWidth, y + kScaleHeight * 1.3);
  wedge.closeSubpath();
  p.setPen(Qt::NoPen);
  p.setBrush(g);
  p.drawPath(wedge);
  p.setPen(cc.mutedText);
  p.setFont(legendFont());
  p.drawText(QRectF(x + kScaleWidth + 8, y - 4, s.width(), kRow), Qt::AlignVCenter | Qt::AlignLeft,
             scaleText(maxTime));
  p.restore();
}

}  // namespace shardscope::widgets
