// Generic font families in exported SVG. QSvgGenerator names each text run
// by the one family it was drawn with (font-family="DejaVu Sans"); a viewer
// without that font falls back to its own default, often a serif face with
// other widths, and labels overflow their boxes. After each family we name
// the generic family it belongs to, which every viewer has:
//
//   font-family="DejaVu Sans"       -> font-family="'DejaVu Sans', sans-serif"
//   font-family="DejaVu Sans Mono"  -> font-family="'DejaVu Sans Mono', monospace"
//   font-family="Noto Serif"        -> font-family="'Noto Serif', serif"
#pragma once
#include <QByteArray>
#include <QString>

namespace shardscope::widgets {

// "monospace", "serif" or "sans-serif" for a font family name (fixed-pitch
// fonts by the font database when a QGuiApplication exists, else by name).
QString genericFontFamily(const QString& family);

// `svg` with every font-family attribute followed by its generic family
// (attributes already naming one are left alone).
QByteArray addGenericFontFamilies(const QByteArray& svg);

}  // namespace shardscope::widgets
