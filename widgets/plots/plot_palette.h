// Colours shared by the SparseCore plots (Tableau 10 without its red, which
// means "over the limit" here, and with a violet: readable on white and
// distinguishable in print). On a dark canvas lines are drawn lighter with
// their hue kept (widgets::readableOn); the ten stay apart there too (a
// navy would turn into the first one's pale blue). No QCustomPlot here.
#pragma once
#include <QColor>

namespace shardscope::plots {

// Colour of series `i` (tables, stacks); repeats after 10.
inline QColor seriesColor(int i) {
  static const QColor palette[] = {
      QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b), QColor(0x59, 0xa1, 0x4f),
      QColor(0xb0, 0x7a, 0xa1), QColor(0xed, 0xc9, 0x48), QColor(0x76, 0xb7, 0xb2),
      QColor(0xff, 0x9d, 0xa7), QColor(0x9c, 0x75, 0x5f), QColor(0xba, 0xb0, 0xac),
      QColor(0x6a, 0x51, 0xa3)};
  return palette[(i < 0 ? -i : i) % 10];
}

// Overflow / failure red.
inline QColor errorColor() { return QColor(0xd6, 0x27, 0x28); }

}  // namespace shardscope::plots
