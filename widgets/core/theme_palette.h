// Light and dark themes for the whole application, palette based (Fusion
// style, so every widget follows the palette). Views that paint themselves
// (the graph and mesh canvases) ask isDark() and take their colours from
// canvasColors(). Exported pictures are light unless a dark export is asked
// for explicitly (ExportRequest::theme, `shardscope --export ... --theme dark`).
#pragma once
#include <QColor>
#include <QPalette>
#include <QString>

class QGraphicsScene;

namespace shardscope::widgets {

enum class Theme { Light, Dark };

// "light" / "dark".
QString themeName(Theme theme);
// Accepts "light" and "dark" (case-insensitive); Light otherwise.
Theme themeFromName(const QString& name);
QPalette themePalette(Theme theme);
// Set the application palette (and the Fusion style) for `theme`.
void applyTheme(Theme theme);
// True when `palette`'s base (text background) is dark.
bool isDark(const QPalette& palette);
// True when the items of `scene` are drawn dark: its palette is dark (a
// scene follows the application palette unless one is set on it).
bool isDark(const QGraphicsScene* scene);

// `c` as a foreground (text, line) readable on the canvas background: the
// same colour on light canvases; on dark ones dark greys are mirrored to light
// greys and dark hues (e.g. the blue and orange mesh-axis colours) are
// lightened, keeping their hue so the axis colours still match the legend.
QColor readableOn(const QColor& c, bool dark);
// Rich text whose inline `color:#...` are made readableOn(dark) (node labels,
// sharding HTML with axis colours). Unchanged when !dark.
QString readableHtml(const QString& html, bool dark);

// Colours of the canvases (graph scene, mesh view) for a light or dark theme.
struct CanvasColors {
  bool dark = false;
  QColor background;
  QColor text, mutedText, faintText;  // labels; secondary lines; hints
  QColor opFill, sdyOpFill, argumentFill, valueFill, returnFill, terminatorFill;
  QColor matchFill;                     // search match
  QColor highlight, highlightHalo;      // selected node / its halo
  QColor groupFill, groupExpandedFill, groupHeaderFill, groupTitle, groupText;
  QColor clusterBorder, clusterText;
  QColor clusterFill(int depth) const;  // nested regions get darker (lighter when dark)
  QColor gridLine;                      // mesh sketch outlines
  QColor changed, changedHalo;          // what-if: values whose sharding changed
  QColor legendFill, legendBorder;
};
const CanvasColors& canvasColors(bool dark);

}  // namespace shardscope::widgets
