#include "mesh/mesh_view.h"

#include <QFontMetricsF>
#include <QPaintEvent>
#include <QPainter>
#include <QStringList>
#include <algorithm>
#include <map>

#include "core/axis_style.h"
#include "core/document_state.h"
#include "sharding/checked_size.h"
#include "core/theme_palette.h"

namespace shardscope::widgets {

namespace {

QString joinDims(const std::vector<int64_t>& dims, QChar sep = u'x') {
  QStringList parts;
  for (int64_t d : dims) parts << (d < 0 ? QStringLiteral("?") : QString::number(d));
  return parts.isEmpty() ? QStringLiteral("scalar") : parts.join(sep);
}

QString joinList(const std::vector<int64_t>& v) {
  QStringList parts;
  for (int64_t d : v) parts << QString::number(d);
  return u'[' + parts.join(QStringLiteral(", ")) + u']';
}

QColor groupColor(int64_t group, bool dark = false) {
  const int hue = static_cast<int>((group * 137 + 200) % 360);
  // Dark theme: deep tints of the same hues under light text.
  return dark ? QColor::fromHsv(hue, 120, 92) : QColor::fromHsv(hue, 70, 252);
}

}  // namespace

QString MeshTensor::localShapeText() const {
  QString s = joinDims(layout.localShape);
  bool padded =
      std::any_of(layout.padding.begin(), layout.padding.end(), [](int64_t p) { return p > 0; });
  if (padded) s += QStringLiteral(" (padding ") + joinDims(layout.padding) + u')';
  return s;
}

QString MeshTensor::cellText(int64_t linearIndex) const {
  if (linearIndex < 0 || static_cast<size_t>(linearIndex) >= layout.devices.size()) return {};
  const api::DeviceShard& d = layout.devices[static_cast<size_t>(linearIndex)];
  QStringList lines;
  lines << QStringLiteral("device %1").arg(d.deviceId);
  if (!layout.globalShape.empty()) {
    lines << QStringLiteral("shard %1").arg(joinList(d.shardIndex));
    lines << QStringLiteral("at %1").arg(joinList(d.offset));
  } else {
    lines << QStringLiteral("scalar");
  }
  QString local = QStringLiteral("local ") + joinDims(d.localShape);
  if (d.validShape != d.localShape)
    local += QStringLiteral(" (valid ") + joinDims(d.validShape) + u')';
  lines << local;
  if (layout.replicaCount > 1)
    lines << QStringLiteral("copy %1/%2").arg(d.replicaRank + 1).arg(layout.replicaCount);
  return lines.join(u'\n');
}

MeshTensor describeValue(const ir::Module& module, const ir::Value& value) {
  MeshTensor t;
  t.valueName = toQString(api::valueName(value));
  t.typeText = toQString(value.type->str());
  const auto sharding = api::valueSharding(value);
  if (!sharding) {
    t.note =
        QStringLiteral("%1 has no sharding annotation (yet): every device holds the whole tensor.")
            .arg(t.valueName);
    return t;
  }
  t.hasSharding = true;
  t.sharding = *sharding;
  t.shardingText = toQString(sharding->str());
  t.meshName =
      sharding->mesh.isInline() ? QStringLiteral("inline mesh") : toQString(sharding->mesh.name);
  const Mesh* mesh = api::meshFor(module, *sharding);
  if (!mesh) {
    t.note = QStringLiteral("mesh @%1 is not defined in this module").arg(t.meshName);
    t.layout.error = "unknown mesh";
    return t;
  }
  t.mesh = *mesh;
  if (!value.type->isRankedTensor()) {
    if (value.type->isToken() || !value.type->isTensor()) {
      t.note = QStringLiteral("%1 is not a ranked tensor (%2)").arg(t.valueName, t.typeText);
      t.layout.error = "not a tensor";
      return t;
    }
  }
  std::vector<int64_t> shape = value.type->shape;
  if (value.isBlockArgument()) {
    const ir::Op* owner = value.ownerBlock->parentOp();
    if (owner && owner->is("sdy.manual_computation") && value.index < owner->numOperands()) {
      shape = owner->operand(value.index)->type->shape;
      t.note = QStringLiteral(
                   "Body argument of sdy.manual_computation: showing the global operand (%1).")
                   .arg(toQString(owner->operand(value.index)->type->str()));
    }
  }
  t.layout = api::computeShardLayout(shape, *sharding, *mesh);
  if (!t.layout.error.empty()) {
    t.note = toQString(t.layout.error);
  } else if (!t.layout.devicesListed()) {
    t.note = QStringLiteral("%1 devices: too many to draw one by one (the view draws meshes of up "
                            "to %2 devices)")
                 .arg(t.layout.deviceCount)
                 .arg(api::kMaxListedDevices);
  }
  return t;
}

MeshTensor describeValue(const api::Document& doc, const ir::Value& value) {
  if (!doc.hasErrors() && doc.module) return describeValue(*doc.module, value);
  MeshTensor t;
  t.valueName = toQString(api::valueName(value));
  t.typeText = toQString(value.type->str());
  t.layout.error = "the module has errors";
  QStringList lines;
  lines << QStringLiteral("Not drawn: %1 has %2 error(s); fix them to see the devices.")
               .arg(toQString(doc.name))
               .arg(doc.errorCount());
  constexpr int kShown = 3;
  int shown = 0;
  for (const ir::Diagnostic& d : doc.diagnostics) {
    if (d.severity != ir::Severity::Error) continue;
    if (shown++ == kShown) {
      lines << QStringLiteral("...");
      break;
    }
    lines << toQString(d.format(doc.name));
  }
  t.note = lines.join(u'\n');
  return t;
}

// --- the picture -------------------------------------------------------------

namespace {

struct Geometry {
  qreal cellW = 150, cellH = 92, gap = 6, rowHeaderW = 86, colHeaderH = 40;
};

QFont font(int px, bool bold = false, bool mono = false) {
  QFont f(mono ? QStringLiteral("DejaVu Sans Mono") : QStringLiteral("DejaVu Sans"));
  f.setPixelSize(px);
  f.setBold(bold);
  return f;
}

struct GridShape {
  int rowAxes = 0;  // axes [0, rowAxes) index rows, the rest columns
  int64_t rows = 1, cols = 1;
};

GridShape gridShape(const Mesh& mesh) {
  GridShape g;
  const int n = static_cast<int>(mesh.axes.size());
  g.rowAxes = n / 2;
  for (int i = 0; i < n; ++i)
    (i < g.rowAxes ? g.rows : g.cols) *= mesh.axes[static_cast<size_t>(i)].size;
  return g;
}

QStringList headerLines(const MeshTensor& t) {
  QStringList lines;
  lines << t.valueName + QStringLiteral(" : ") + t.typeText;
  if (t.hasSharding) lines << t.shardingText;
  if (t.valid()) {
    std::optional<int64_t> shards = 1;  // a sharding that reuses axes can multiply past int64
    for (int64_t s : t.layout.shardsPerDim) shards = shards ? checkedMul(*shards, s) : shards;
    lines << QStringLiteral("mesh @%1 %2").arg(t.meshName, toQString(t.mesh.str()));
    QString summary = QStringLiteral("%1 shards · local shape %2")
                          .arg(shards ? QString::number(*shards) : QStringLiteral("too many"))
                          .arg(t.localShapeText());
    if (t.layout.replicaCount > 1)
      summary +=
          QStringLiteral(" · each shard on %1 devices (copies hatched)").arg(t.layout.replicaCount);
    lines << summary;
  }
  if (!t.note.isEmpty()) lines << t.note.split(u'\n');
  return lines;
}

}  // namespace

Picture meshPicture(const MeshTensor& t, qreal maxWidth, bool dark) {
  Picture pic;
  const CanvasColors& cc = canvasColors(dark);
  const QStringList header = headerLines(t);
  const QFont headerFont = font(13, false, true);
  const QFontMetricsF hfm(headerFont);
  qreal headerW = 0;
  for (const QString& l : header) headerW = std::max(headerW, hfm.horizontalAdvance(l));
  const qreal headerH = header.size() * (hfm.height() + 2) + 10;

  if (!t.drawsDevices()) {
    pic.size = QSizeF(std::max<qreal>(headerW + 20, 420), headerH + 20);
    pic.paint = [header, headerFont, hfm, dark](QPainter& p) {
      p.setFont(headerFont);
      p.setPen(readableOn(QColor(0x33, 0x33, 0x33), dark));
      qreal y = 0;
      for (const QString& l : header) {
        p.drawText(QPointF(0, y + hfm.ascent()), l);
        y += hfm.height() + 2;
      }
    };
    return pic;
  }

  const GridShape g = gridShape(t.mesh);
  Geometry G;
  {
    // Cells as wide as their longest line; headers as tall as their lines.
    const QFontMetricsF cfm(font(11, false, true)), bfm(font(12, true));
    qreal w = 0;
    int lines = 0;
    for (const api::DeviceShard& d : t.layout.devices) {
      const QStringList ls = t.cellText(d.linearIndex).split(u'\n');
      lines = std::max<int>(lines, static_cast<int>(ls.size()));
      for (int i = 0; i < ls.size(); ++i)
        w = std::max(w, (i ? cfm : bfm).horizontalAdvance(ls[i]) + (i ? 0 : 50));
    }
    G.cellW = std::max<qreal>(150, w + 18);
    bool anySub = false;
    for (const auto& d : t.sharding.dims)
      for (const AxisRef& a : d.axes) anySub = anySub || a.isSubAxis();
    if (anySub) G.rowHeaderW = 190;
    G.cellH = std::max<qreal>(60, lines * 16 + 14);
    const int colAxes = static_cast<int>(t.mesh.axes.size()) - g.rowAxes;
    G.colHeaderH = std::max(1, colAxes) * 16 + 10 + (t.sharding.dims.empty() ? 0 : 14);
  }
  const qreal gridW = G.rowHeaderW + g.cols * (G.cellW + G.gap);
  const qreal gridH = G.colHeaderH + g.rows * (G.cellH + G.gap);
  Legend legend;
  legend.meshName = t.meshName;
  legend.mesh = t.mesh;
  legend.showNotation = false;
  legend.dark = dark;
  const QSizeF ls = legend.size();
  const int rank = static_cast<int>(t.layout.globalShape.size());
  const bool sketch = rank >= 1 && rank <= 2 && t.layout.globalShape[0] > 0 &&
                      (rank == 1 || t.layout.globalShape[1] > 0);
  const qreal sketchW = 220;
  qreal sketchH = 0;
  if (sketch) {
    const double ratio =
        rank == 1 ? 0.15 : double(t.layout.globalShape[0]) / double(t.layout.globalShape[1]);
    sketchH = std::clamp(sketchW * ratio, 36.0, 260.0);
  }
  const qreal sideW = std::max(ls.width(), sketch ? sketchW : 0.0);
  const qreal sideH = ls.height() + (sketch ? sketchH + 40 : 0);
  // Legend and sketch right of the grid, or below it when that is too wide.
  const bool below = maxWidth > 0 && gridW + 24 + sideW > maxWidth;
  const QPointF side = below ? QPointF(G.rowHeaderW, gridH + 16) : QPointF(gridW + 24, 0);
  pic.size =
      below ? QSizeF(std::max({headerW, gridW, G.rowHeaderW + sideW}), headerH + gridH + 16 + sideH)
            : QSizeF(std::max(headerW, gridW + 24 + sideW), headerH + std::max(gridH, sideH));

  pic.paint = [t, g, G, header, headerFont, hfm, headerH, side, legend, ls, sketch, sketchW,
               sketchH, rank, dark, cc](QPainter& p) {
    p.save();
    // Header.
    p.setFont(headerFont);
    qreal y = 0;
    for (int i = 0; i < header.size(); ++i) {
      p.setPen(readableOn(i == 0 ? QColor(0x10, 0x10, 0x10) : QColor(0x44, 0x44, 0x44), dark));
      p.drawText(QPointF(0, y + hfm.ascent()), header[i]);
      y += hfm.height() + 2;
    }
    p.translate(0, headerH);

    const int n = static_cast<int>(t.mesh.axes.size());
    AxisRefList subAxes;
    for (const auto& d : t.sharding.dims)
      for (const AxisRef& a : d.axes)
        if (a.isSubAxis()) subAxes.push_back(a);
    for (const AxisRef& a : t.sharding.replicated)
      if (a.isSubAxis()) subAxes.push_back(a);
    // Column headers: the coordinates of the column axes.
    auto coordLabel = [&](int64_t index, int first, int last, QStringList* plain) {
      std::vector<std::pair<QString, QColor>> parts;
      int64_t rest = index;
      std::vector<int64_t> coords(static_cast<size_t>(n), 0);
      for (int k = last - 1; k >= first; --k) {
        coords[static_cast<size_t>(k)] = rest % t.mesh.axes[static_cast<size_t>(k)].size;
        rest /= t.mesh.axes[static_cast<size_t>(k)].size;
      }
      for (int k = first; k < last; ++k) {
        const MeshAxis& ax = t.mesh.axes[static_cast<size_t>(k)];
        const int64_t c = coords[static_cast<size_t>(k)];
        QString s = QStringLiteral("%1=%2").arg(toQString(ax.name)).arg(c);
        // Sub-axes of this axis used by the sharding: their coordinates.
        QStringList subs;
        for (const AxisRef& a : subAxes)
          if (a.name == ax.name && a.subAxis && a.subAxis->preSize * a.subAxis->size > 0) {
            const int64_t minor = ax.size / (a.subAxis->preSize * a.subAxis->size);
            subs << QStringLiteral("(%1)%2=%3")
                        .arg(a.subAxis->preSize)
                        .arg(a.subAxis->size)
                        .arg(minor > 0 ? (c / minor) % a.subAxis->size : 0);
          }
        if (!subs.isEmpty()) s += QStringLiteral(" ") + subs.join(u' ');
        if (plain) *plain << s;
        parts.emplace_back(s, readableOn(axisColor(k), dark));
      }
      return parts;
    };
    p.setFont(font(12, true));
    for (int64_t c = 0; c < g.cols; ++c) {
      const auto parts = coordLabel(c, g.rowAxes, n, nullptr);
      qreal x = G.rowHeaderW + c * (G.cellW + G.gap);
      qreal ly = 4;
      for (const auto& [s, col] : parts) {
        p.setPen(col);
        p.drawText(QRectF(x, ly, G.cellW, 16), Qt::AlignCenter, s);
        ly += 16;
      }
    }
    for (int64_t r = 0; r < g.rows; ++r) {
      const auto parts = coordLabel(r, 0, g.rowAxes, nullptr);
      qreal ry = G.colHeaderH + r * (G.cellH + G.gap);
      qreal ly = ry + G.cellH / 2 - 8 * static_cast<qreal>(parts.size());
      for (const auto& [s, col] : parts) {
        p.setPen(col);
        p.drawText(QRectF(0, ly, G.rowHeaderW - 8, 16), Qt::AlignRight | Qt::AlignVCenter, s);
        ly += 16;
      }
    }
    // Cells.
    const QFont cellBold = font(12, true), cellFont = font(11, false, true);
    for (const api::DeviceShard& d : t.layout.devices) {
      const int64_t r = d.linearIndex / g.cols, c = d.linearIndex % g.cols;
      const QRectF cell(G.rowHeaderW + c * (G.cellW + G.gap), G.colHeaderH + r * (G.cellH + G.gap),
                        G.cellW, G.cellH);
      const QColor fill = groupColor(d.replicaGroup, dark);
      p.setPen(QPen(dark ? fill.lighter(170) : fill.darker(160), 1.2));
      p.setBrush(fill);
      p.drawRoundedRect(cell, 6, 6);
      if (d.replicaRank > 0) {
        p.setPen(Qt::NoPen);
        QBrush hatch(dark ? fill.lighter(140) : fill.darker(125), Qt::BDiagPattern);
        p.setBrush(hatch);
        p.drawRoundedRect(cell, 6, 6);
      }
      const QStringList lines = t.cellText(d.linearIndex).split(u'\n');
      qreal ty = cell.top() + 6;
      for (int i = 0; i < lines.size(); ++i) {
        p.setFont(i == 0 ? cellBold : cellFont);
        const bool isCopy = lines[i].startsWith(QLatin1String("copy"));
        p.setPen(isCopy && d.replicaRank > 0
                     ? (dark ? QColor(0xff, 0x9e, 0x9e) : QColor(0x90, 0x20, 0x20))
                     : cc.text);
        p.drawText(QRectF(cell.left() + 8, ty, cell.width() - 16, 16),
                   Qt::AlignLeft | Qt::AlignVCenter, lines[i]);
        ty += 16;
      }
      if (d.deviceId != d.linearIndex) {
        p.setFont(font(10));
        p.setPen(cc.faintText);
        p.drawText(QRectF(cell.left(), cell.top() + 6, cell.width() - 8, 14),
                   Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("pos %1").arg(d.linearIndex));
      }
    }
    // Legend and tensor sketch on the right.
    const qreal sx = side.x();
    legend.paint(p, side);
    if (sketch) {
      qreal ty = side.y() + ls.height() + 16;
      p.setFont(font(12, true));
      p.setPen(cc.text);
      p.drawText(QRectF(sx, ty, sketchW, 18), Qt::AlignLeft | Qt::AlignVCenter,
                 QStringLiteral("global %1 by shard").arg(joinDims(t.layout.globalShape)));
      ty += 22;
      const int64_t rowsS = rank == 2 ? t.layout.shardsPerDim[0] : 1;
      const int64_t colsS = rank == 2 ? t.layout.shardsPerDim[1] : t.layout.shardsPerDim[0];
      std::map<std::vector<int64_t>, int64_t> groupOf;
      for (const auto& d : t.layout.devices) groupOf.emplace(d.shardIndex, d.replicaGroup);
      const qreal bw = sketchW / static_cast<qreal>(colsS),
                  bh = sketchH / static_cast<qreal>(rowsS);
      p.setFont(font(10, false, true));
      for (int64_t i = 0; i < rowsS; ++i)
        for (int64_t j = 0; j < colsS; ++j) {
          std::vector<int64_t> idx =
              rank == 2 ? std::vector<int64_t>{i, j} : std::vector<int64_t>{j};
          const QRectF b(sx + j * bw, ty + i * bh, bw, bh);
          auto it = groupOf.find(idx);
          p.setPen(QPen(cc.gridLine, 1));
          p.setBrush(it != groupOf.end() ? groupColor(it->second, dark) : cc.background);
          p.drawRect(b);
          if (bw > 26 && bh > 14) {
            p.setPen(cc.text);
            p.drawText(b, Qt::AlignCenter, joinList(idx));
          }
        }
    }
    p.restore();
  };
  return pic;
}

// --- MeshView ------------------------------------------------------------------

MeshView::MeshView(DocumentState* state, QWidget* parent) : QWidget(parent), state_(state) {
  // The canvas background is painted (paintEvent) in the theme's colour.
  setAttribute(Qt::WA_OpaquePaintEvent);
  connect(state_, &DocumentState::selectionChanged, this,
          [this] { showValue(state_->selectedValue()); });
  connect(state_, &DocumentState::documentChanged, this, [this] { showValue(nullptr); });
  // A propagation step changed shardings in place: redrawn when the value
  // shown is one of them.
  connect(state_, &DocumentState::shardingsChanged, this,
          [this](const api::TimelineChanges& changes) {
            const ir::Value* v = state_->selectedValue();
            if (v && std::find(changes.values.begin(), changes.values.end(), v) !=
                         changes.values.end())
              showValue(v);
          });
}

void MeshView::showValue(const ir::Value* value) {
  if (value && state_->document()) {
    tensor_ = describeValue(*state_->document(), *value);
  } else {
    tensor_ = MeshTensor();
    tensor_.note = state_->module()
                       ? tr("Select a value (a graph chip, a tree row) to see its shards.")
                       : tr("No module loaded.");
  }
  updateMinimumSize();
  update();
}

void MeshView::setTextScale(qreal scale) {
  scale = std::max<qreal>(scale, 0.1);
  if (qFuzzyCompare(scale, textScale_)) return;
  textScale_ = scale;
  updateMinimumSize();
  update();
}

void MeshView::updateMinimumSize() {
  // Below minScale() the picture scrolls (the view sits in a scroll area).
  const Picture pic = meshPicture(tensor_, (width() - 32) / minScale());
  setMinimumSize(pic.isNull() ? QSize(200, 100) : (pic.size * minScale() + QSizeF(32, 32)).toSize());
}

void MeshView::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  update();
}

void MeshView::changeEvent(QEvent* e) {
  QWidget::changeEvent(e);
  if (e->type() == QEvent::PaletteChange) update();  // light/dark theme
}

void MeshView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const bool dark = isDark(palette());
  const CanvasColors& cc = canvasColors(dark);
  p.fillRect(rect(), cc.background);
  const Picture pic = meshPicture(tensor_, (width() - 32) / minScale(), dark);
  if (pic.isNull()) {
    p.setPen(cc.faintText);
    p.drawText(rect(), Qt::AlignCenter, tensor_.note);
    return;
  }
  const qreal margin = 16;
  const qreal fit = std::min<qreal>({textScale_, (width() - 2 * margin) / pic.size.width(),
                                     (height() - 2 * margin) / pic.size.height()});
  const qreal s = std::max<qreal>(fit, minScale());
  shownScale_ = s;
  p.translate(margin, margin);
  p.scale(s, s);
  pic.paint(p);
}

}  // namespace shardscope::widgets
