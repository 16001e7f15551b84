#include "factor_table_view.h"

#include <QFontMetricsF>
#include <QHeaderView>
#include <QPainter>
#include <QPainterPath>

#include "core/theme_palette.h"
#include "factor_table_model.h"

namespace shardscope::widgets::trace {

namespace {
constexpr qreal kChipPadX = 5;
constexpr qreal kChipGap = 4;
constexpr qreal kCellPadX = 6;

const QColor kCompatibleOutline(0x1a, 0x1a, 0x1a);

// `a` over `b` at `share` (0..1).
QColor mix(const QColor& a, const QColor& b, qreal share) {
  return QColor::fromRgbF(float(a.redF() * share + b.redF() * (1 - share)),
                          float(a.greenF() * share + b.greenF() * (1 - share)),
                          float(a.blueF() * share + b.blueF() * (1 - share)));
}

QFont chipFont(const QFont& base) {
  QFont f = base;
  f.setBold(true);
  return f;
}
}  // namespace

AxisCellData AxisCellData::fromIndex(const QModelIndex& index) {
  AxisCellData c;
  using M = FactorTableModel;
  const auto kind = static_cast<M::CellKind>(index.data(M::CellKindRole).toInt());
  if (kind == M::CellKind::Tensor || kind == M::CellKind::Value) {
    c.text = index.data(Qt::DisplayRole).toString();
    return c;
  }
  c.axes = index.data(M::AxesRole).toStringList();
  for (const QVariant& v : index.data(M::AxisColorsRole).toList()) c.colors << v.value<QColor>();
  c.overflow = index.data(M::OverflowAxesRole).toStringList();
  c.mapped = index.data(M::MappedRole).toBool();
  c.open = index.data(M::OpenRole).toBool();
  c.conflict = index.data(M::ConflictRole).toBool();
  c.changed = index.data(M::ChangedRole).toBool();
  c.compatiblePrefix = index.data(M::CompatiblePrefixRole).toInt();
  if (kind == M::CellKind::Replicated && c.axes.isEmpty()) c.blank = true;
  return c;
}

AxisCellFills axisCellFills(bool dark, const QColor& highlight, const QColor& base) {
  if (!dark)
    return {QColor(0xff, 0xf1, 0xb8), QColor(0xfd, 0xe2, 0xe1), QColor(0xf2, 0xf2, 0xf2), highlight.lighter(175)};
  // The selection: the highlight's hue, a third of the way from the base,
  // so the row reads as selected without washing out the light text.
  return {QColor(0x4d, 0x3f, 0x0c), QColor(0x5c, 0x22, 0x22), QColor(0x2e, 0x30, 0x34), mix(highlight, base, 0.38)};
}

qreal axisCellWidth(const AxisCellData& c, const QFont& font) {
  QFontMetricsF fm(font);
  if (c.blank) return 2 * kCellPadX;
  if (!c.text.isEmpty() || (c.axes.isEmpty() && c.overflow.isEmpty() && !c.open))
    return fm.horizontalAdvance(c.text.isEmpty() ? QStringLiteral("—") : c.text) + 2 * kCellPadX;
  QFontMetricsF cfm(chipFont(font));
  qreal w = 2 * kCellPadX;
  for (const QString& a : c.axes) w += cfm.horizontalAdvance(a) + 2 * kChipPadX + kChipGap;
  if (!c.overflow.isEmpty()) {
    w += fm.horizontalAdvance(QStringLiteral("+")) + kChipGap;
    for (const QString& a : c.overflow) w += cfm.horizontalAdvance(a) + 2 * kChipPadX + kChipGap;
  }
  if (c.open) w += fm.horizontalAdvance(QStringLiteral("?")) + kChipGap;
  return w;
}

void paintAxisCell(QPainter& p, const QRectF& rect, const AxisCellData& c, const QFont& font,
                   const QColor& ink) {
  p.save();
  // A light ink means a dark table (the view passes its palette's text).
  const bool dark = ink.lightness() >= 128;
  const AxisCellFills fills = axisCellFills(dark, QColor(0x3d, 0x7e, 0xd6), QColor(0x1e, 0x1f, 0x22));
  auto muted = [dark](const QColor& grey) { return widgets::readableOn(grey, dark); };
  QColor bg;
  if (!c.mapped) bg = fills.unmapped;
  else if (c.conflict) bg = fills.conflict;
  else if (c.changed) bg = fills.changed;
  if (bg.isValid()) p.fillRect(rect, bg);
  if (c.blank) {
    p.restore();
    return;
  }
  QFontMetricsF fm(font);
  const qreal midY = rect.center().y();
  qreal x = rect.left() + kCellPadX;
  if (!c.text.isEmpty()) {
    p.setFont(font);
    p.setPen(ink);
    p.drawText(QRectF(x, rect.top(), rect.width() - 2 * kCellPadX, rect.height()), Qt::AlignVCenter | Qt::AlignLeft,
               c.text);
    p.restore();
    return;
  }
  if (!c.mapped) {
    p.setFont(font);
    p.setPen(muted(QColor(0xa0, 0xa0, 0xa0)));
    p.drawText(rect, Qt::AlignCenter, QStringLiteral("—"));
    p.restore();
    return;
  }
  const QFont cf = chipFont(font);
  QFontMetricsF cfm(cf);
  const qreal chipH = std::min(rect.height() - 6, cfm.height() + 4);
  auto chip = [&](const QString& text, const QColor& color, bool outlined, bool dashed) {
    const qreal w = cfm.horizontalAdvance(text) + 2 * kChipPadX;
    const QRectF r(x, midY - chipH / 2, w, chipH);
    p.setPen(Qt::NoPen);
    p.setBrush(dashed ? color.lighter(170) : color);
    p.drawRoundedRect(r, 4, 4);
    if (outlined || dashed) {
      QPen pen(dashed ? color.darker(130) : muted(kCompatibleOutline), outlined ? 2 : 1.2);
      if (dashed) pen.setStyle(Qt::DashLine);
      p.setPen(pen);
      p.setBrush(Qt::NoBrush);
      p.drawRoundedRect(r.adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
    }
    p.setFont(cf);
    p.setPen(dashed ? color.darker(160) : QColor(Qt::white));
    p.drawText(r, Qt::AlignCenter, text);
    x += w + kChipGap;
  };
  for (int i = 0; i < c.axes.size(); ++i)
    chip(c.axes[i], i < c.colors.size() ? c.colors[i] : QColor(0x88, 0x88, 0x88), i < c.compatiblePrefix, false);
  if (!c.overflow.isEmpty()) {
    p.setFont(font);
    p.setPen(muted(QColor(0x55, 0x55, 0x55)));
    const qreal w = fm.horizontalAdvance(QStringLiteral("+"));
    p.drawText(QRectF(x, rect.top(), w, rect.height()), Qt::AlignCenter, QStringLiteral("+"));
    x += w + kChipGap;
    for (const QString& a : c.overflow) chip(a, QColor(0x88, 0x88, 0x88), false, true);
  }
  if (c.open) {
    QFont it = font;
    it.setItalic(true);
    p.setFont(it);
    p.setPen(muted(QColor(0x80, 0x80, 0x80)));
    const qreal w = fm.horizontalAdvance(QStringLiteral("?")) + 2;
    p.drawText(QRectF(x, rect.top(), w, rect.height()), Qt::AlignVCenter | Qt::AlignLeft, QStringLiteral("?"));
    x += w;
  }
  if (c.axes.isEmpty() && c.overflow.isEmpty() && !c.open) {
    // Closed and empty: a thin closed-set mark.
    p.setFont(font);
    p.setPen(muted(QColor(0x80, 0x80, 0x80)));
    p.drawText(QRectF(x, rect.top(), rect.width() - 2 * kCellPadX, rect.height()), Qt::AlignVCenter | Qt::AlignLeft,
               QStringLiteral("{}"));
  }
  p.restore();
}

void AxisChipDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const {
  // The text cells' ink: the palette's text on the view's base (it was a
  // fixed near-black, which left the T and tensor columns blank in the dark
  // theme), near-black on the light selection fill.
  QColor ink = option.palette.color(QPalette::Text);
  if (option.state & QStyle::State_Selected) {
    const QColor fill = axisCellFills(isDark(option.palette), option.palette.highlight().color(),
                                      option.palette.color(QPalette::Base))
                            .selected;
    painter->fillRect(option.rect, fill);
    if (fill.lightness() >= 128) ink = QColor(0x20, 0x20, 0x20);
  }
  AxisCellData c = AxisCellData::fromIndex(index);
  paintAxisCell(*painter, option.rect, c, option.font, ink);
}

QSize AxisChipDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
  const AxisCellData c = AxisCellData::fromIndex(index);
  QFontMetricsF fm(option.font);
  // 7 px more than the text's height: the chips (text + 4, or the row less
  // 6) keep their margins; more took the third tensor's row (add's result)
  // at 1280x800.
  return QSize(int(std::ceil(axisCellWidth(c, option.font))) + 4, int(std::ceil(fm.height() + 7)));
}

FactorTableView::FactorTableView(QWidget* parent) : QTableView(parent) {
  setItemDelegate(new AxisChipDelegate(this));
  setSelectionBehavior(QAbstractItemView::SelectRows);
  setSelectionMode(QAbstractItemView::SingleSelection);
  verticalHeader()->hide();
  horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
  setWordWrap(false);
  setShowGrid(true);
}

void FactorTableView::setModel(QAbstractItemModel* model) {
  QTableView::setModel(model);
  if (!model) return;
  auto fit = [this] {
    resizeColumnsToContents();
    resizeRowsToContents();
  };
  connect(model, &QAbstractItemModel::modelReset, this, fit);
  fit();
}

// --- Pictures ---------------------------------------------------------------

namespace {
QFont tableFont() {
  QFont f;
  f.setPixelSize(13);
  return f;
}

struct Markers {
  QString label;
  AxisCellData sample;
};

QList<Markers> markerRows(const QColor& c0) {
  QList<Markers> out;
  AxisCellData open;
  open.axes = {QStringLiteral("\"a\"")};
  open.colors = {c0};
  open.open = true;
  out.append({QStringLiteral("open: may still take axes (?)"), open});
  AxisCellData compat = open;
  compat.open = false;
  compat.compatiblePrefix = 1;
  out.append({QStringLiteral("outlined: the compatible major-most axes"), compat});
  AxisCellData unmapped;
  unmapped.mapped = false;
  out.append({QStringLiteral("the tensor does not have this factor"), unmapped});
  AxisCellData changed = open;
  changed.changed = true;
  out.append({QStringLiteral("changed by this step"), changed});
  AxisCellData conflict = open;
  conflict.conflict = true;
  out.append({QStringLiteral("conflict: the tensors disagree"), conflict});
  AxisCellData overflow;
  overflow.overflow = {QStringLiteral("\"c\"")};
  overflow.colors = {};
  out.append({QStringLiteral("overflow axes (do not divide the factor)"), overflow});
  return out;
}
}  // namespace

Picture factorLegendPicture(const FactorTableModel& model) {
  const QFont font = tableFont();
  QFont bold = font;
  bold.setBold(true);
  QFontMetricsF fm(font);
  const qreal rowH = fm.height() + 10;
  const qreal sampleW = 90;
  const auto axes = model.legendAxes();
  auto markers = markerRows(model.axisColor(axes.isEmpty() ? QString() : axes.front().first));
  if (model.dimensionView()) {
    // Only the markers a dimension cell can show.
    QList<Markers> kept;
    for (const Markers& m : markers)
      if (m.sample.mapped && !m.sample.conflict && m.sample.compatiblePrefix == 0 && m.sample.overflow.isEmpty())
        kept.append(m);
    markers = kept;
  }
  qreal w = QFontMetricsF(bold).horizontalAdvance(QStringLiteral("Mesh axes: none used")) + 20;
  for (const auto& m : markers) w = std::max(w, sampleW + 8 + fm.horizontalAdvance(m.label));
  const int rows = 1 + static_cast<int>(axes.size() > 0 ? 1 : 0) + 1 + static_cast<int>(markers.size());
  Picture pic;
  pic.size = QSizeF(w + 16, rows * rowH + 12);
  const FactorTableModel* mp = &model;
  pic.paint = [mp, axes, markers, font, bold, rowH, sampleW, w](QPainter& p) {
    p.save();
    p.setPen(QPen(QColor(0xcc, 0xcc, 0xcc), 1));
    p.setBrush(QColor(0xfb, 0xfb, 0xfb));
    p.drawRoundedRect(QRectF(0, 0, w + 16, (markers.size() + (axes.isEmpty() ? 2 : 3)) * rowH + 12), 4, 4);
    qreal y = 6;
    const qreal x = 8;
    p.setFont(bold);
    p.setPen(QColor(0x20, 0x20, 0x20));
    p.drawText(QRectF(x, y, w, rowH), Qt::AlignVCenter | Qt::AlignLeft,
               axes.isEmpty() ? QStringLiteral("Mesh axes: none used") : QStringLiteral("Mesh axes"));
    y += rowH;
    if (!axes.isEmpty()) {
      AxisCellData all;
      for (const auto& a : axes) {
        all.axes << (a.second > 0 ? QStringLiteral("\"%1\"=%2").arg(a.first).arg(a.second) : u'"' + a.first + u'"');
        all.colors << mp->axisColor(a.first);
      }
      paintAxisCell(p, QRectF(x - 6, y, w, rowH), all, font);
      y += rowH;
    }
    p.setFont(bold);
    p.setPen(QColor(0x20, 0x20, 0x20));
    p.drawText(QRectF(x, y, w, rowH), Qt::AlignVCenter | Qt::AlignLeft, QStringLiteral("Cells"));
    y += rowH;
    for (const auto& m : markers) {
      paintAxisCell(p, QRectF(x, y + 1, sampleW, rowH - 2), m.sample, font);
      p.setFont(font);
      p.setPen(QColor(0x20, 0x20, 0x20));
      p.drawText(QRectF(x + sampleW + 8, y, w - sampleW, rowH), Qt::AlignVCenter | Qt::AlignLeft, m.label);
      y += rowH;
    }
    p.restore();
  };
  return pic;
}

Picture factorTablePicture(const FactorTableModel& model) {
  const QFont font = tableFont();
  QFont bold = font;
  bold.setBold(true);
  QFont small = font;
  small.setPixelSize(11);
  QFontMetricsF fm(font), bfm(bold), sfm(small);
  const int rows = model.rowCount();
  const int cols = model.columnCount();
  const qreal rowH = fm.height() + 14;
  const qreal headH = bfm.height() + sfm.height() + 14;
  std::vector<qreal> widths(static_cast<size_t>(cols), 0);
  for (int c = 0; c < cols; ++c) {
    const QStringList head = model.headerData(c, Qt::Horizontal).toString().split(u'\n');
    qreal w = bfm.horizontalAdvance(head.value(0)) + 12;
    if (head.size() > 1) w = std::max(w, sfm.horizontalAdvance(head.value(1)) + 12);
    for (int r = 0; r < rows; ++r) w = std::max(w, axisCellWidth(AxisCellData::fromIndex(model.index(r, c)), font) + 4);
    widths[static_cast<size_t>(c)] = std::max<qreal>(w, 36);
  }
  qreal tableW = 0;
  for (qreal w : widths) tableW += w;
  const qreal tableH = headH + rows * rowH;
  Picture legend = factorLegendPicture(model);
  Picture pic;
  pic.size = QSizeF(std::max(tableW, legend.size.width()) + 2, tableH + 16 + legend.size.height() + 2);
  const FactorTableModel* mp = &model;
  pic.paint = [mp, widths, rows, cols, rowH, headH, tableW, tableH, font, bold, small, legend](QPainter& p) {
    p.save();
    // Header.
    qreal x = 0;
    p.fillRect(QRectF(0, 0, tableW, headH), QColor(0xee, 0xf1, 0xf5));
    for (int c = 0; c < cols; ++c) {
      const qreal w = widths[static_cast<size_t>(c)];
      const QStringList head = mp->headerData(c, Qt::Horizontal).toString().split(u'\n');
      if (mp->headerData(c, Qt::Horizontal, FactorTableModel::ConflictRole).toBool())
        p.fillRect(QRectF(x, 0, w, headH), QColor(0xf8, 0xc8, 0xc6));
      p.setFont(bold);
      p.setPen(QColor(0x20, 0x20, 0x20));
      const qreal th = QFontMetricsF(bold).height();
      p.drawText(QRectF(x + 6, 5, w - 8, th), Qt::AlignLeft | Qt::AlignVCenter, head.value(0));
      if (head.size() > 1) {
        p.setFont(small);
        p.setPen(QColor(0x55, 0x55, 0x55));
        p.drawText(QRectF(x + 6, 5 + th + 2, w - 8, QFontMetricsF(small).height()), Qt::AlignLeft | Qt::AlignVCenter,
                   head.value(1));
      }
      x += w;
    }
    // Rows.
    for (int r = 0; r < rows; ++r) {
      x = 0;
      const qreal y = headH + r * rowH;
      if (mp->index(r, 0).data(FactorTableModel::IsResultRole).toBool() &&
          (r == 0 || !mp->index(r - 1, 0).data(FactorTableModel::IsResultRole).toBool())) {
        p.setPen(QPen(QColor(0x60, 0x60, 0x60), 2));
        p.drawLine(QPointF(0, y), QPointF(tableW, y));
      }
      for (int c = 0; c < cols; ++c) {
        const qreal w = widths[static_cast<size_t>(c)];
        paintAxisCell(p, QRectF(x, y, w, rowH), AxisCellData::fromIndex(mp->index(r, c)), font);
        x += w;
      }
    }
    // Grid.
    p.setPen(QPen(QColor(0xc8, 0xc8, 0xc8), 1));
    p.setBrush(Qt::NoBrush);
    x = 0;
    for (int c = 0; c <= cols; ++c) {
      p.drawLine(QPointF(x, 0), QPointF(x, tableH));
      if (c < cols) x += widths[static_cast<size_t>(c)];
    }
    for (int r = 0; r <= rows; ++r) p.drawLine(QPointF(0, headH + r * rowH), QPointF(tableW, headH + r * rowH));
    p.drawLine(QPointF(0, 0), QPointF(tableW, 0));
    p.translate(0, tableH + 16);
    legend.paint(p);
    p.restore();
  };
  return pic;
}

}  // namespace shardscope::widgets::trace
