// Pictures for export: a size and a paint function; written as PNG (QImage),
// SVG (QSvgGenerator; text names a generic font family after its own, see
// svg_fonts.h) or PDF (QPdfWriter) by the file suffix, atomically through
// QSaveFile.
#pragma once
#include <QSizeF>
#include <QString>
#include <functional>

class QPainter;

namespace shardscope::widgets {

struct Picture {
  QSizeF size;  // logical units (1 unit = 1 px at 96 dpi, 1 pt in PDF)
  std::function<void(QPainter&)> paint;
  QString title;  // the title withTitle() drew above it ("" without one)
  bool isNull() const { return !paint || size.isEmpty(); }
};

enum class PictureFormat { Png, Svg, Pdf, Unknown };
PictureFormat pictureFormatForPath(const QString& path);

// A picture with a title bar above `content` (and optional subtitle).
Picture withTitle(const Picture& content, const QString& title, const QString& subtitle = {});

// Write `picture` to `path`; on failure returns false and sets `error`.
// `scale` applies to PNG only (2 = crisp on high-dpi screens and in docs).
bool writePicture(const Picture& picture, const QString& path, QString* error, double scale = 2.0);

}  // namespace shardscope::widgets
