// Colours and text for shardings, shared by the graph view, the mesh view
// and the legends: one colour per mesh axis, open dims, replicated axes.
#pragma once
#include <QColor>
#include <QRectF>
#include <QString>
#include <QStringList>

#include "sharding/sharding.h"

class QPainter;

namespace shardscope::widgets {

// Colour of axis `index` in a mesh (stable, distinguishable palette).
QColor axisColor(int index);
// Colour of axis `name` in `mesh` (grey when the axis is unknown).
QColor axisColor(const Mesh* mesh, const QString& name);

// Plain text of a sharding without the mesh, e.g. `[{"x"}, {?}] rep={"y"}`.
QString shardingText(const TensorSharding& sharding);
// The same as HTML: axis names in their colour, open dims in italics with `?`,
// replicated axes struck through, unreduced axes underlined.
QString shardingHtml(const TensorSharding& sharding, const Mesh* mesh);
// True when any dimension is open.
bool hasOpenDim(const TensorSharding& sharding);
// The first axis used by a dimension (for the edge colour), or "".
QString primaryAxis(const TensorSharding& sharding);

// A legend: one swatch per mesh axis plus the notation key.
struct Legend {
  QString meshName;
  Mesh mesh;
  bool showNotation = true;  // open/closed/replicated key
  bool dark = false;         // drawn on a dark canvas (theme_palette.h canvasColors)
  QSizeF size() const;
  void paint(QPainter& painter, const QPointF& topLeft) const;
};

QString toQString(const std::string& s);

}  // namespace shardscope::widgets
