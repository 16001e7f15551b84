#include "sparsecore_plot.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QBuffer>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QVBoxLayout>
#include <algorithm>

#include "core/svg_fonts.h"
#include "plot_text.h"

namespace shardscope::plots {


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
}

void SparseCorePlot::reset() {
  plot_->clearPlottables();
  plot_->clearItems();
  plot_->legend->clearItems();
  plot_->legend->setVisible(false);
}

void SparseCorePlot::finish(bool hasData) {
  hasData_ = hasData;
  wrapTexts(plot_->width());  // the legend's new entries in as many columns as fit
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
  // Texts broken for the picture's width while it is drawn.
  wrapTexts(size.width());
  struct Rewrap {
    const SparseCorePlot* plot;
    ~Rewrap() { plot->wrapTexts(plot->plot_->width()); }
  } rewrap{this};
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
