// A QTableView for FactorTableModel: each axis is a chip in its mesh-axis
// colour (the colours of widgets/axis_style.h, shared with the graph and
// mesh views), open cells end in a grey `?`, unmapped cells show a grey
// `—`, conflicts are tinted red, cells the step changed yellow, and the
// compatible major-most axes are outlined.
//
// The painting functions are public so that the export draws the same
// pictures without a widget.
#pragma once
#include <QStyledItemDelegate>
#include <QTableView>

#include "core/picture_export.h"

namespace shardscope::widgets::trace {

class FactorTableModel;

// What one cell draws (read from the model's roles).
struct AxisCellData {
  QStringList axes;
  QList<QColor> colors;
  QStringList overflow;
  bool mapped = true;
  bool open = false;
  bool conflict = false;
  bool changed = false;
  int compatiblePrefix = 0;
  QString text;  // fallback text (tensor / value columns)
  bool blank = false;  // draw nothing (an empty replicated cell)
  static AxisCellData fromIndex(const QModelIndex& index);
};

// Paint one cell into `rect` (background, chips, markers). `ink` is the
// colour of a text cell (the tensor and value columns): the view passes
// its palette's text colour, so that the names read in the dark theme too;
// pictures (drawn on white) keep the default.
void paintAxisCell(QPainter& painter, const QRectF& rect, const AxisCellData& cell, const QFont& font,
                   const QColor& ink = QColor(0x20, 0x20, 0x20));
// The fills behind a cell: changed by the step (amber), in conflict (red),
// not mapped to the factor (grey), and the selected row's. Light ones on a
// light table; on a dark table dark tints of the same hues, so the
// palette's light text keeps a contrast of 4.5:1 or more (the light fills
// left ~1.3:1). E.g. axisCellFills(true, blue).changed is a dark amber.
struct AxisCellFills {
  QColor changed, conflict, unmapped, selected;
};
AxisCellFills axisCellFills(bool dark, const QColor& highlight, const QColor& base);
// The width a cell needs.
qreal axisCellWidth(const AxisCellData& cell, const QFont& font);

class AxisChipDelegate : public QStyledItemDelegate {
  Q_OBJECT
 public:
  using QStyledItemDelegate::QStyledItemDelegate;
  void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

class FactorTableView : public QTableView {
  Q_OBJECT
 public:
  explicit FactorTableView(QWidget* parent = nullptr);
  void setModel(QAbstractItemModel* model) override;
};

// The table as a picture: header row (factor names, sizes, kinds), one row
// per tensor, and a legend (mesh axes and the cell markers) below.
Picture factorTablePicture(const FactorTableModel& model);

// The legend alone: one chip per axis plus the markers.
Picture factorLegendPicture(const FactorTableModel& model);

}  // namespace shardscope::widgets::trace
