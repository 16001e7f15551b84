// Base of the SparseCore plots: a QWidget owning one QCustomPlot (kept out
// of the headers, whose bare `signals` keyword clashes with other code) and
// the export of what it shows to PNG, SVG or PDF.
#pragma once
#include <QSize>
#include <QString>
#include <QWidget>

class QCustomPlot;
class QCPTextElement;

namespace shardscope::plots {

class SparseCorePlot : public QWidget {
  Q_OBJECT
 public:
  explicit SparseCorePlot(QWidget* parent = nullptr);
  ~SparseCorePlot() override;

  // Writes the plot to `path`; the format follows the suffix (.png, .svg,
  // .pdf). `size` empty: the widget's size, or 900 x 500 when not shown.
  // SVG text names a generic font family after its own (svg_fonts.h).
  // On failure returns false and sets `error`.
  bool exportTo(const QString& path, QSize size = {}, QString* error = nullptr) const;

  // The title drawn above the plot.
  QString title() const;

  // True when the last set...() call had something to draw.
  bool hasData() const { return hasData_; }

  // Number of plottables + items (bars, markers, rectangles), for tests.
  int elementCount() const;

  // Removes everything drawn (hasData() becomes false); the title stays
  // unless `title` is given.
  void clearPlot(const QString& title = {});

 protected:
  QCustomPlot* plot() const { return plot_; }
  void setTitle(const QString& title);
  // Moves the legend out of the axis rect into its own layout row `row`
  // (one line, columns first, wrapping after `wrap` entries).
  void moveLegendToRow(int row, int wrap = 6);
  // Clears plottables, items and the legend before a new result.
  void reset();
  void finish(bool hasData);  // replot and remember whether data was drawn

 private:
  QCustomPlot* plot_ = nullptr;
  QCPTextElement* title_ = nullptr;
  bool hasData_ = false;
};

}  // namespace shardscope::plots
