// Light and dark themes for the whole application, palette based (Fusion
// style, so every widget follows the palette). Pictures for export keep
// their own light colours; views that paint themselves can ask isDark().
#pragma once
#include <QPalette>
#include <QString>

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

}  // namespace shardscope::widgets
