#include "sparsecore_plot.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QBuffer>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QVBoxLayout>

#include "core/svg_fonts.h"

namespace shardscope::plots {

SparseCorePlot::SparseCorePlot(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->plotLayout()->insertRow(0);
  title_ = new QCPTextElement(plot_, QString(), QFont(font().family(), 11, QFont::Bold));
  plot_->plotLayout()->addElement(0, 0, title_);
  setMinimumSize(320, 200);
}

SparseCorePlot::~SparseCorePlot() = default;

void SparseCorePlot::setTitle(const QString& title) { title_->setText(title); }

void SparseCorePlot::moveLegendToRow(int row, int wrap) {
  plot_->axisRect()->insetLayout()->take(plot_->legend);
  plot_->plotLayout()->insertRow(row);
  plot_->plotLayout()->addElement(row, 0, plot_->legend);
  plot_->plotLayout()->setRowStretchFactor(row, 0.001);
  plot_->legend->setBorderPen(Qt::NoPen);
  plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
  plot_->legend->setWrap(wrap);
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
  plot_->replot();
}

void SparseCorePlot::clearPlot(const QString& title) {
  reset();
  if (!title.isNull()) setTitle(title);
  finish(false);
}

QString SparseCorePlot::title() const { return title_ ? title_->text() : QString(); }

int SparseCorePlot::elementCount() const { return plot_->plottableCount() + plot_->itemCount(); }

bool SparseCorePlot::exportTo(const QString& path, QSize size, QString* error) const {
  auto fail = [&](const QString& why) {
    if (error) *error = why;
    return false;
  };
  if (size.isEmpty())
    size = (isVisible() && !plot_->size().isEmpty()) ? plot_->size() : QSize(900, 500);
  const QString suffix = QFileInfo(path).suffix().toLower();
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
