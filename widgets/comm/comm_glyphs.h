// How a collective looks wherever it is drawn (the graph's communication
// layer, its legend, the Communication dock): a small icon and a short tag
// per kind, and a colour that goes from amber to red with the collective's
// share of the most expensive one's estimated time.
//
//   all-gather          AG   pieces fanning in to one
//   all-slice           AS   one fanning out to pieces
//   all-to-all          A2A  two crossing arrows
//   collective-permute  CP   a circular arrow
//   reduce-scatter      RS   a sum fanning out
//   all-reduce          AR   a sum in a ring
//   reshard (a reshard not lowered to collectives yet, or any other kind)  RSH
//
// Example: the all-gather of tensor<8x8xf32> from [{"x"}, {}] to [{}, {}] on
// "x"=4 is drawn as the pill [fan-in icon] "AG 192 B".
#pragma once
#include <QColor>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QStringList>

class QPainter;

namespace shardscope::widgets {

// The kinds in legend order (api::CollectiveEntry::kind spellings; "reshard"
// stands for every other kind).
const QStringList& commKinds();
// The tag of a kind: "AG", "AS", "A2A", "CP", "RS", "AR", "RSH".
QString commKindTag(const QString& kind);
// The icon of `kind`, drawn in `rect` (about 14x12) with `color`.
void paintCommKindIcon(QPainter& p, const QRectF& rect, const QString& kind, const QColor& color);

// The colour of a collective costing `share` (0..1) of the most expensive
// one: amber for the cheapest, red for the most expensive.
QColor commCostColor(double share, bool dark);
// The line width of the cost stroke drawn under an edge (about 3 to 13 px).
double commCostWidth(double share);

// A glyph: the kind's icon, its tag and a text (the bytes per device) in a
// pill outlined in the cost colour. `selected` draws it thicker.
struct CommGlyphStyle {
  QString kind;
  QString text;  // "192 B"; for a group's summary "3 · 48.0 MiB"
  double share = 0;
  bool dark = false;
  bool selected = false;
};
QSizeF commGlyphSize(const CommGlyphStyle& style);
void paintCommGlyph(QPainter& p, const QRectF& rect, const CommGlyphStyle& style);

// The legend of the layer: a title, the totals, one row per kind shown
// (icon, tag, name) and the cost scale from cheap to `maxTime` ("1.2 ms").
// Narrow, to fit the column beside the graph.
struct CommLegend {
  QString title;      // "Communication on tpu-v5p"
  QString totals;     // "3 collectives · 1.2 ms\n48.0 MiB per device" (a row per line)
  QStringList kinds;  // the kinds drawn, in commKinds() order
  QString maxTime;    // the largest estimated time, as text
  bool dark = false;
  QSizeF size() const;
  void paint(QPainter& p, const QPointF& topLeft) const;
};

}  // namespace shardscope::widgets
