#include "sparsecore_plot.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QFontMetrics>
#include <QBuffer>
#include <QEvent>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QVBoxLayout>
#include <algorithm>

#include "core/svg_fonts.h"
#include "core/theme_palette.h"
#include "plot_text.h"

namespace shardscope::plots {

namespace {

// Colour `key` of `o` drawn as `map(chosen)`, where `chosen` is the colour
// the plot code set: kept in a property the first time, and again whenever
// the code set another one since (the colour found is not the one shown
// last). So the light colours come back exactly when the theme turns light.
template <class Get, class Set, class Map>
void recolor(QObject* o, const char* key, Get get, Set set, Map map) {
  const QByteArray chosenKey = QByteArray(key) + "Chosen";
  const QByteArray shownKey = QByteArray(key) + "Shown";
  const QColor current = get();
  const QVariant shown = o->property(shownKey.constData());
  QColor chosen = current;
  if (shown.isValid() && shown.value<QColor>() == current)
    chosen = o->property(chosenKey.constData()).value<QColor>();
  else
    o->setProperty(chosenKey.constData(), current);
  const QColor c = map(chosen);
  o->setProperty(shownKey.constData(), c);
  set(c);
}

// The same for a pen's colour (style and width stay).
template <class T, class Map>
void recolorPen(T* o, const char* key, QPen (T::*get)() const, void (T::*set)(const QPen&), Map map) {
  recolor(
      o, key, [&] { return (o->*get)().color(); },
      [&](const QColor& c) {
        QPen pen = (o->*get)();
        pen.setColor(c);
        (o->*set)(pen);
      },
      map);
}

template <class T, class Map>
void recolorBrush(T* o, const char* key, Map map) {
  recolor(
      o, key, [&] { return o->brush().color(); },
      [&](const QColor& c) {
        QBrush brush = o->brush();
        if (brush.style() == Qt::NoBrush) return;
        brush.setColor(c);
        o->setBrush(brush);
      },
      map);
}

// How the light chart's colours read on a dark canvas.
struct CanvasMapping {
  bool dark = false;
  QColor background;
  // Texts, axis lines, ticks, dark strokes: readable on the background.
  QColor ink(const QColor& c) const { return widgets::readableOn(c, dark); }
  // A light fill behind a label (white at some alpha): the background at
  // the same alpha.
  QColor paper(const QColor& c) const {
    if (!dark || !c.isValid() || c.lightness() < 200) return c;
    QColor b = background;
    b.setAlpha(c.alpha());
    return b;
  }
  // Grid lines: light greys on white, the same step from the background
  // on a dark canvas.
  QColor grid(const QColor& c) const {
    if (!dark || !c.isValid()) return c;
    return QColor::fromHsl(c.hslHue(), c.hslSaturation(), std::clamp(285 - c.lightness(), 0, 255), c.alpha());
  }
  // A stroke: white separators between boxes become the background,
  // other strokes ink.
  QColor stroke(const QColor& c) const {
    if (dark && c.isValid() && c.lightness() >= 230) return paper(c);
    return ink(c);
  }
};

void recolorAxis(QCPAxis* a, const CanvasMapping& m) {
  auto ink = [&](const QColor& c) { return m.ink(c); };
  auto grid = [&](const QColor& c) { return m.grid(c); };
  recolorPen(a, "base", &QCPAxis::basePen, &QCPAxis::setBasePen, ink);
  recolorPen(a, "tick", &QCPAxis::tickPen, &QCPAxis::setTickPen, ink);
  recolorPen(a, "subTick", &QCPAxis::subTickPen, &QCPAxis::setSubTickPen, ink);
  recolor(a, "label", [&] { return a->labelColor(); }, [&](const QColor& c) { a->setLabelColor(c); }, ink);
  recolor(
      a, "tickLabel", [&] { return a->tickLabelColor(); }, [&](const QColor& c) { a->setTickLabelColor(c); }, ink);
  QCPGrid* g = a->grid();
  recolorPen(g, "grid", &QCPGrid::pen, &QCPGrid::setPen, grid);
  recolorPen(g, "subGrid", &QCPGrid::subGridPen, &QCPGrid::setSubGridPen, grid);
  recolorPen(g, "zeroLine", &QCPGrid::zeroLinePen, &QCPGrid::setZeroLinePen, grid);
}

void recolorLegend(QCPLegend* legend, const CanvasMapping& m) {
  auto ink = [&](const QColor& c) { return m.ink(c); };
  recolorBrush(legend, "fill", [&](const QColor& c) { return m.paper(c); });
  recolorPen(legend, "border", &QCPLegend::borderPen, &QCPLegend::setBorderPen, ink);
  recolor(
      legend, "text", [&] { return legend->textColor(); }, [&](const QColor& c) { legend->setTextColor(c); }, ink);
  for (int i = 0; i < legend->itemCount(); ++i)
    if (QCPAbstractLegendItem* item = legend->item(i))
      recolor(
          item, "text", [&] { return item->textColor(); }, [&](const QColor& c) { item->setTextColor(c); }, ink);
}

void recolorItem(QCPAbstractItem* item, const CanvasMapping& m) {
  if (item->property(SparseCorePlot::kKeepColorsProperty).toBool()) return;
  auto stroke = [&](const QColor& c) { return m.stroke(c); };
  auto paper = [&](const QColor& c) { return m.paper(c); };
  if (auto* t = qobject_cast<QCPItemText*>(item)) {
    recolor(t, "text", [&] { return t->color(); }, [&](const QColor& c) { t->setColor(c); },
            [&](const QColor& c) { return m.ink(c); });
    recolorBrush(t, "fill", paper);
    recolorPen(t, "pen", &QCPItemText::pen, &QCPItemText::setPen, stroke);
  } else if (auto* l = qobject_cast<QCPItemStraightLine*>(item)) {
    recolorPen(l, "pen", &QCPItemStraightLine::pen, &QCPItemStraightLine::setPen, stroke);
  } else if (auto* l = qobject_cast<QCPItemLine*>(item)) {
    recolorPen(l, "pen", &QCPItemLine::pen, &QCPItemLine::setPen, stroke);
  } else if (auto* c = qobject_cast<QCPItemCurve*>(item)) {
    recolorPen(c, "pen", &QCPItemCurve::pen, &QCPItemCurve::setPen, stroke);
  } else if (auto* r = qobject_cast<QCPItemRect*>(item)) {
    // Boxes keep their fill (a stage's colour); their outline is a stroke.
    recolorPen(r, "pen", &QCPItemRect::pen, &QCPItemRect::setPen, stroke);
  } else if (auto* tr = qobject_cast<QCPItemTracer*>(item)) {
    recolorPen(tr, "pen", &QCPItemTracer::pen, &QCPItemTracer::setPen, stroke);
  }
}

// Font `key` of `o` drawn at `scale` times the size the plot code chose,
// kept as recolor keeps colours: the chosen font is remembered the first
// time and whenever the code set another one since; at 1 it comes back
// exactly.
template <class Get, class Set>
void rescale(QObject* o, const char* key, Get get, Set set, double scale) {
  const QByteArray chosenKey = QByteArray(key) + "FontChosen";
  const QByteArray shownKey = QByteArray(key) + "FontShown";
  const QFont current = get();
  const QVariant shown = o->property(shownKey.constData());
  QFont chosen = current;
  if (shown.isValid() && shown.value<QFont>() == current)
    chosen = o->property(chosenKey.constData()).value<QFont>();
  else
    o->setProperty(chosenKey.constData(), chosen);
  QFont f = chosen;
  if (chosen.pointSizeF() > 0)
    f.setPointSizeF(chosen.pointSizeF() * scale);
  else if (chosen.pixelSize() > 0)
    f.setPixelSize(std::max(1, qRound(chosen.pixelSize() * scale)));
  o->setProperty(shownKey.constData(), f);
  if (f != current) set(f);
}

void rescaleAxis(QCPAxis* a, double scale) {
  rescale(a, "label", [&] { return a->labelFont(); }, [&](const QFont& f) { a->setLabelFont(f); }, scale);
  rescale(
      a, "tickLabel", [&] { return a->tickLabelFont(); }, [&](const QFont& f) { a->setTickLabelFont(f); }, scale);
  rescale(
      a, "selectedLabel", [&] { return a->selectedLabelFont(); },
      [&](const QFont& f) { a->setSelectedLabelFont(f); }, scale);
  rescale(
      a, "selectedTickLabel", [&] { return a->selectedTickLabelFont(); },
      [&](const QFont& f) { a->setSelectedTickLabelFont(f); }, scale);
}

void rescaleLegend(QCPLegend* legend, double scale) {
  // QCPLegend::setFont sets every entry's font too, and an entry takes the
  // legend's font when it is made: entries with the legend's font follow
  // the legend (their chosen font is its chosen one); others scale alone.
  const QFont legendBefore = legend->font();
  std::vector<bool> follows(size_t(legend->itemCount()), false);
  for (int i = 0; i < legend->itemCount(); ++i)
    if (QCPAbstractLegendItem* item = legend->item(i)) follows[size_t(i)] = item->font() == legendBefore;
  rescale(legend, "legend", [&] { return legend->font(); }, [&](const QFont& f) { legend->setFont(f); }, scale);
  // The icons too: an entry is as tall as its icon or its text, with no
  // margin, so text taller than the icon lost its underscores ("max ids
  // per partition") at 1.6x. Only as much taller as the text needs: each
  // legend row taken from a low chart's plot.
  if (!legend->property("iconSizeChosen").isValid()) legend->setProperty("iconSizeChosen", legend->iconSize());
  const QSize icon = legend->property("iconSizeChosen").toSize();
  const int textHeight = QFontMetrics(legend->font()).height() + 2;
  legend->setIconSize(qRound(icon.width() * scale), scale == 1.0 ? icon.height() : std::max(icon.height(), textHeight));
  for (int i = 0; i < legend->itemCount(); ++i) {
    QCPAbstractLegendItem* item = legend->item(i);
    if (!item) continue;
    if (follows[size_t(i)]) {
      if (item->font() != legend->font()) item->setFont(legend->font());
      item->setProperty("itemFontChosen", legend->property("legendFontChosen"));
      item->setProperty("itemFontShown", legend->font());
    } else {
      rescale(item, "item", [&] { return item->font(); }, [&](const QFont& f) { item->setFont(f); }, scale);
    }
  }
}

}  // namespace

void SparseCorePlot::applyCanvasTheme(bool dark) const {
  dark_ = dark;
  const CanvasMapping m{dark, widgets::canvasColors(dark).background};
  plot_->setBackground(m.background);
  for (QCPAxisRect* rect : plot_->axisRects())
    for (QCPAxis* a : rect->axes()) recolorAxis(a, m);
  for (QCPLayoutElement* e : plot_->plotLayout()->elements(true)) {
    if (auto* text = qobject_cast<QCPTextElement*>(e))
      recolor(
          text, "text", [&] { return text->textColor(); }, [&](const QColor& c) { text->setTextColor(c); },
          [&](const QColor& c) { return m.ink(c); });
    else if (auto* scale = qobject_cast<QCPColorScale*>(e))
      recolorAxis(scale->axis(), m);
    else if (auto* legend = qobject_cast<QCPLegend*>(e))
      recolorLegend(legend, m);
  }
  recolorLegend(plot_->legend, m);  // also when it sits in an axis rect's inset
  // Plottables keep their fills (the series colours read on both); their
  // strokes (limit lines, mean lines, curves) are ink.
  for (int i = 0; i < plot_->plottableCount(); ++i) {
    QCPAbstractPlottable* p = plot_->plottable(i);
    recolorPen(p, "pen", &QCPAbstractPlottable::pen, &QCPAbstractPlottable::setPen,
               [&](const QColor& c) { return m.stroke(c); });
  }
  for (int i = 0; i < plot_->itemCount(); ++i) recolorItem(plot_->item(i), m);
}

void SparseCorePlot::applyTextScale(double scale) const {
  for (QCPAxisRect* rect : plot_->axisRects())
    for (QCPAxis* a : rect->axes()) rescaleAxis(a, scale);
  for (QCPLayoutElement* e : plot_->plotLayout()->elements(true)) {
    if (auto* text = qobject_cast<QCPTextElement*>(e))
      rescale(text, "text", [&] { return text->font(); }, [&](const QFont& f) { text->setFont(f); }, scale);
    else if (auto* colorScale = qobject_cast<QCPColorScale*>(e))
      rescaleAxis(colorScale->axis(), scale);
    else if (auto* legend = qobject_cast<QCPLegend*>(e))
      rescaleLegend(legend, scale);
  }
  rescaleLegend(plot_->legend, scale);  // also when it sits in an axis rect's inset
  for (int i = 0; i < plot_->itemCount(); ++i)
    if (auto* t = qobject_cast<QCPItemText*>(plot_->item(i)))
      rescale(t, "text", [&] { return t->font(); }, [&](const QFont& f) { t->setFont(f); }, scale);
}

void SparseCorePlot::setTextScale(double scale) {
  scale = std::clamp(scale, 0.5, 4.0);
  if (scale == textScale_) return;
  textScale_ = scale;
  applyTextScale(scale);
  // Too low a chart overlays its text rows: the least height grows with them.
  setMinimumSize(320, int(200 * std::max(1.0, scale)));
  layOutFor(width(), scale);
  // Titles and legend columns fitted again for the larger text.
  wrapTexts(plot_->width());
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void SparseCorePlot::changeEvent(QEvent* e) {
  QWidget::changeEvent(e);
  if (e->type() == QEvent::PaletteChange && widgets::isDark(palette()) != dark_) {
    applyCanvasTheme(!dark_);
    plot_->replot(QCustomPlot::rpQueuedReplot);
  }
}


SparseCorePlot::SparseCorePlot(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->plotLayout()->insertRow(0);
  title_ = new QCPTextElement(plot_, QString(), QFont(font().family(), 11, QFont::Bold));
  plot_->plotLayout()->addElement(0, 0, title_);
  title_->setMinimumSize(1, 0);  // its width follows the plot (wrapped), not its text
  wrapped_.emplace_back(title_, QString());  // the title first (shownTexts)
  connect(plot_, &QCustomPlot::afterLayout, this, &SparseCorePlot::fitWrappedTexts);
  setMinimumSize(320, 200);
}

SparseCorePlot::~SparseCorePlot() = default;

void SparseCorePlot::setTitle(const QString& title) { setWrappedText(title_, title); }

void SparseCorePlot::setWrappedText(QCPTextElement* element, const QString& text) {
  auto it = std::find_if(wrapped_.begin(), wrapped_.end(),
                         [element](const auto& w) { return w.first == element; });
  if (it == wrapped_.end()) {
    // A text's width never widens its column: the layout gives the width,
    // fitWrappedTexts breaks the text into it.
    element->setMinimumSize(1, 0);
    wrapped_.emplace_back(element, text);
  } else {
    it->second = text;
  }
  wrapTexts(plot_->width());
}

void SparseCorePlot::fitWrappedTexts() {
  fitSideAxisLabels();
  // A text in a column of a multi-column layout (a side legend or panel)
  // gets less than the plot's width: broken again for the width it got, and
  // laid out again for the lines' new height (twice at most: only heights
  // change).
  for (int pass = 0; pass < 2; ++pass) {
    bool changed = false;
    for (const auto& [element, text] : wrapped_) {
      const QMargins m = element->margins();
      const int width = element->outerRect().width() - m.left() - m.right() - 8;
      if (width <= 0) continue;
      const QString lines = wrapToWidth(text, element->font(), width);
      if (lines != element->text()) {
        element->setText(lines);
        changed = true;
      }
    }
    if (!changed) return;
    for (auto phase : {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins,
                       QCPLayoutElement::upLayout})
      plot_->plotLayout()->update(phase);
  }
}

void SparseCorePlot::fitSideAxisLabels() {
  // A y axis's title runs along its panel: longer than a short panel (two
  // panels stacked, text 1.6x in presentation mode) it ran into the next
  // panel's title. It is shortened ("ids, sum over 16 sources" -> "ids,
  // sum"), and whole again when the panel is tall enough.
  static const char* kFullLabel = "shardscopeFullAxisLabel";
  for (QCPAxisRect* rect : plot_->axisRects())
    for (QCPAxis* axis : {rect->axis(QCPAxis::atLeft), rect->axis(QCPAxis::atRight)}) {
      if (!axis) continue;
      QString full = axis->property(kFullLabel).toString();
      // Set anew by its chart since it was shortened: that is the full one.
      if (full.isEmpty() || axis->label() != axis->property("shardscopeShownAxisLabel").toString()) full = axis->label();
      axis->setProperty(kFullLabel, full);
      const int room = rect->height() - 4;
      const QFontMetrics fm(axis->labelFont());
      QString shown = full;
      if (room > 0 && fm.horizontalAdvance(shown) > room) {
        // Its words before " over ..." ("ids, sum"), which still tell two
        // stacked panels apart, else before the first comma, else elided.
        const QString beforeOver = full.section(QStringLiteral(" over "), 0, 0);
        const QString head = full.section(QLatin1Char(','), 0, 0);
        if (fm.horizontalAdvance(beforeOver) <= room)
          shown = beforeOver;
        else
          shown = fm.horizontalAdvance(head) <= room ? head : fm.elidedText(head, Qt::ElideRight, room);
      }
      if (axis->label() != shown) axis->setLabel(shown);
      axis->setProperty("shardscopeShownAxisLabel", shown);
    }
}

void SparseCorePlot::wrapTexts(int width) const {
  for (const auto& [element, text] : wrapped_) {
    const QMargins m = element->margins();
    element->setText(wrapToWidth(text, element->font(), width - m.left() - m.right() - 8));
  }
  // The legend row (moveLegendToRow): as many columns as fit, at most the
  // number asked there, so that no entry's text is cut.
  QCPLegend* legend = plot_->legend;
  const int wanted = legend->property(kLegendWrapProperty).toInt();
  if (wanted <= 0 || legend->itemCount() == 0) return;
  int widest = 0;
  for (int i = 0; i < legend->itemCount(); ++i)
    if (QCPAbstractLegendItem* item = legend->item(i))
      widest = std::max(widest, item->minimumOuterSizeHint().width());
  const QMargins m = legend->margins();
  const int room = width - m.left() - m.right() - 8;
  const int columns = (room + legend->columnSpacing()) / std::max(1, widest + legend->columnSpacing());
  const int wrap = std::clamp(columns, 1, wanted);
  if (legend->wrap() != wrap) {
    legend->setWrap(wrap);
    legend->setFillOrder(legend->fillOrder(), true);  // the entries laid out again
  }
}

void SparseCorePlot::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  // The plot's own resize replots (queued) after this.
  wrapTexts(plot_->width());
}

std::vector<SparseCorePlot::ShownText> SparseCorePlot::shownTexts() const {
  std::vector<ShownText> out;
  for (const auto& [element, text] : wrapped_)
    if (element->visible() && !element->text().isEmpty())
      out.push_back({element->text(), element->font(), element->outerRect()});
  return out;
}

void SparseCorePlot::moveLegendToRow(int row, int wrap) {
  plot_->axisRect()->insetLayout()->take(plot_->legend);
  plot_->plotLayout()->insertRow(row);
  plot_->plotLayout()->addElement(row, 0, plot_->legend);
  plot_->plotLayout()->setRowStretchFactor(row, 0.001);
  plot_->legend->setBorderPen(Qt::NoPen);
  plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
  plot_->legend->setWrap(wrap);
  plot_->legend->setProperty(kLegendWrapProperty, wrap);
  plot_->legend->setFont(QFont(font().family(), 8));
  plot_->legend->setMargins(QMargins(4, 0, 4, 0));
  // An empty legend's widest size is its margins, and a grid column is no
  // wider than its narrowest maximum: with no entries (no file yet) the
  // whole chart shrank to ~100 px, its title broken word by word. An
  // explicit maximum lets the column take the chart's width: not
  // QWIDGETSIZE_MAX, which means "ask the hint", nor near it (QCustomPlot
  // adds the margins and the sum overflows), but wider than any screen.
  plot_->legend->setMaximumSize(100000, QWIDGETSIZE_MAX);
}

void SparseCorePlot::reset() {
  plot_->clearPlottables();
  plot_->clearItems();
  plot_->legend->clearItems();
  plot_->legend->setVisible(false);
}

void SparseCorePlot::finish(bool hasData) {
  hasData_ = hasData;
  applyTextScale(textScale_);  // the new elements' texts too
  wrapTexts(plot_->width());  // the legend's new entries in as many columns as fit
  applyCanvasTheme(widgets::isDark(palette()));  // the new elements too
  plot_->replot();
}

void SparseCorePlot::clearPlot(const QString& title) {
  reset();
  if (!title.isNull()) setTitle(title);
  finish(false);
}

QString SparseCorePlot::title() const {
  for (const auto& [element, text] : wrapped_)
    if (element == title_) return text;
  return {};
}

int SparseCorePlot::elementCount() const { return plot_->plottableCount() + plot_->itemCount(); }



bool SparseCorePlot::exportTo(const QString& path, QSize size, QString* error) const {
  auto fail = [&](const QString& why) {
    if (error) *error = why;
    return false;
  };
  if (size.isEmpty())
    size = (isVisible() && !plot_->size().isEmpty()) ? plot_->size() : QSize(900, 500);
  const QString suffix = QFileInfo(path).suffix().toLower();
  // Texts at the sizes the plot code chose (presentation mode's larger
  // text is for the screen), broken for the picture's width while it is
  // drawn, in the light colours (pictures are light, as the graph's are)
  // however the screen is.
  const bool scaled = textScale_ != 1.0;
  if (scaled) applyTextScale(1.0);
  layOutFor(size.width(), 1.0);
  wrapTexts(size.width());
  const bool shownDark = dark_;
  if (shownDark) applyCanvasTheme(false);
  struct Rewrap {
    const SparseCorePlot* plot;
    bool dark, scaled;
    ~Rewrap() {
      if (scaled) plot->applyTextScale(plot->textScale_);
      plot->layOutFor(plot->width(), plot->textScale_);
      plot->wrapTexts(plot->plot_->width());
      if (dark) plot->applyCanvasTheme(true);
      if (dark || scaled) plot->plot_->replot(QCustomPlot::rpQueuedReplot);
    }
  } rewrap{this, shownDark, scaled};
  bool ok = false;
  if (suffix == QLatin1String("png")) {
    ok = plot_->savePng(path, size.width(), size.height(), 2.0);
  } else if (suffix == QLatin1String("pdf")) {
    ok = plot_->savePdf(path, size.width(), size.height());
  } else if (suffix == QLatin1String("svg")) {
    QBuffer svg;
    svg.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&svg);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(QStringLiteral("Shardscope SparseCore plot"));
    QCPPainter painter;
    ok = painter.begin(&generator);
    if (ok) {
      plot_->toPainter(&painter, size.width(), size.height());
      ok = painter.end();
    }
    if (ok) {
      QSaveFile file(path);
      const QByteArray bytes = widgets::addGenericFontFamilies(svg.data());
      ok = file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size() && file.commit();
    }
  } else {
    return fail(QStringLiteral("unknown picture format '%1' (use .png, .svg or .pdf)").arg(suffix));
  }
  if (!ok) return fail(QStringLiteral("cannot write %1").arg(path));
  return QFileInfo(path).size() > 0 ? true : fail(QStringLiteral("%1 is empty").arg(path));
}

}  // namespace shardscope::plots
