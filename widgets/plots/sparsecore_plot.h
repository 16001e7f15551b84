// Base of the SparseCore plots: a QWidget owning one QCustomPlot (kept out
// of the headers, whose bare `signals` keyword clashes with other code) and
// the export of what it shows to PNG, SVG or PDF.
#pragma once
#include <QFont>
#include <QRect>
#include <QSize>
#include <QString>
#include <QWidget>
#include <utility>
#include <vector>

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

  // The texts above the axes (title, captions) as last laid out: the lines
  // drawn, their font and the rect the layout gave them (plot pixels), so
  // tests can check that nothing is cut off.
  struct ShownText {
    QString text;
    QFont font;
    QRect rect;
  };
  std::vector<ShownText> shownTexts() const;

  // Removes everything drawn (hasData() becomes false); the title stays
  // unless `title` is given.
  void clearPlot(const QString& title = {});

  // True when the chart is drawn for a dark theme (its palette is dark).
  // The charts follow the application's theme on screen: background, axes,
  // grid, texts and legend switch live with it (a PaletteChange); the
  // colours the plot code chose are kept for the light theme and for
  // exports, which stay light.
  bool drawnDark() const { return dark_; }

  // Set (true) on an item whose colours must not follow the theme: a label
  // drawn on a bar or box of its own colour (the pipeline's stage names).
  static constexpr const char* kKeepColorsProperty = "shardscopeKeepColors";

  // Every text of the chart (title, captions, legend, axis labels and tick
  // labels, labels on the plot) drawn at `scale` times the size the plot
  // code chose: presentation mode's 1.6, so that the chart reads as large
  // as the widgets around it. 1 gives back exactly the chosen sizes.
  // Pictures (exportTo) are drawn at 1 whatever the screen shows.
  void setTextScale(double scale);
  double textScale() const { return textScale_; }

 protected:
  // The legend row's most columns, as moveLegendToRow was asked (wrapTexts
  // fits fewer); 0 or unset: the legend is not a row.
  static constexpr const char* kLegendWrapProperty = "shardscopeLegendWrap";
  QCustomPlot* plot() const { return plot_; }
  void setTitle(const QString& title);
  // `element` shows `text` broken into lines that fit the plot's width, now,
  // after every resize and in exports of another size (a long stack name or
  // figures line is never cut off at the edge).
  void setWrappedText(QCPTextElement* element, const QString& text);
  void resizeEvent(QResizeEvent* e) override;
  void changeEvent(QEvent* e) override;
  // Arranges what depends on the chart's width and text scale (where a
  // legend goes) for a chart `width` pixels wide with texts at `scale`:
  // after a resize, setTextScale, and for a picture (its width, at 1).
  virtual void layOutFor(int width, double scale) const {}
  // Moves the legend out of the axis rect into its own layout row `row`
  // (one line, columns first, wrapping after `wrap` entries).
  void moveLegendToRow(int row, int wrap = 6);
  // Clears plottables, items and the legend before a new result.
  void reset();
  void finish(bool hasData);  // replot and remember whether data was drawn

 private:
  // Recolours what is drawn for a dark or light canvas (see drawnDark);
  // const because exports draw light for a moment.
  void applyCanvasTheme(bool dark) const;
  // Sizes every text for `scale` (see setTextScale); const because exports
  // draw at 1 for a moment.
  void applyTextScale(double scale) const;
  // Re-breaks every wrapped text for a plot `width` pixels wide.
  void wrapTexts(int width) const;
  // After a layout: each wrapped text broken for the width its cell got.
  void fitWrappedTexts();
  // Each y axis's title no longer than its panel is tall.
  void fitSideAxisLabels();
  QCustomPlot* plot_ = nullptr;
  QCPTextElement* title_ = nullptr;
  std::vector<std::pair<QCPTextElement*, QString>> wrapped_;  // element, its whole text
  bool hasData_ = false;
  mutable bool dark_ = false;
  double textScale_ = 1.0;
};

}  // namespace shardscope::plots
