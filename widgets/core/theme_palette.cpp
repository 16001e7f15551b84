#include "core/theme_palette.h"

#include <QApplication>
#include <QPainter>
#include <QProxyStyle>
#include <QStyleOption>
#include <QGraphicsScene>
#include <QRegularExpression>
#include <QStyle>
#include <QStyleFactory>
#include <algorithm>

namespace shardscope::widgets {

QString themeName(Theme theme) {
  return theme == Theme::Dark ? QStringLiteral("dark") : QStringLiteral("light");
}

Theme themeFromName(const QString& name) {
  return name.compare(QLatin1String("dark"), Qt::CaseInsensitive) == 0 ? Theme::Dark
                                                                        : Theme::Light;
}

QPalette themePalette(Theme theme) {
  if (theme == Theme::Light) {
    QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"));
    QPalette p = fusion ? fusion->standardPalette() : QPalette();
    delete fusion;
    return p;
  }
  QPalette p;
  const QColor window(0x2b, 0x2d, 0x31), base(0x1e, 0x1f, 0x22), text(0xe6, 0xe6, 0xe6);
  const QColor disabled(0x80, 0x80, 0x80);
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2c));
  p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3d, 0x42));
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, QColor(0x35, 0x37, 0x3c));
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
  p.setColor(QPalette::Light, QColor(0x4a, 0x4d, 0x52));
  p.setColor(QPalette::Midlight, QColor(0x3c, 0x3f, 0x44));
  p.setColor(QPalette::Mid, QColor(0x25, 0x26, 0x29));
  p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
  p.setColor(QPalette::Shadow, Qt::black);
  p.setColor(QPalette::Highlight, QColor(0x3d, 0x7e, 0xd6));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xff));
  p.setColor(QPalette::LinkVisited, QColor(0xb3, 0x9d, 0xf0));
  for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
    p.setColor(QPalette::Disabled, role, disabled);
  p.setColor(QPalette::Disabled, QPalette::Base, window);
  return p;
}

namespace {
QColor indicatorEdge(bool dark, bool enabled) {
  // 3:1 at least against the window and base colours (a control's edge,
  // WCAG 1.4.11); disabled ones dimmer, as their text is.
  if (dark) return enabled ? QColor(0x9a, 0x9d, 0xa2) : QColor(0x5c, 0x5e, 0x62);
  return enabled ? QColor(0x5c, 0x5c, 0x5c) : QColor(0xb4, 0xb4, 0xb4);
}

// Fusion with one change: an empty check box or radio button keeps a
// visible edge. Fusion draws that edge in the window colour darkened
// (#1f2023 on the dark theme, on the base colour #1e1f22 inside: an
// unchecked box was a dark square without a border, in every dialog, table
// and the SparseCore side pane alike; #aaaaaa on the light one, 1.7:1).
class ThemeStyle : public QProxyStyle {
 public:
  ThemeStyle() : QProxyStyle(QStyleFactory::create(QStringLiteral("Fusion"))) {
    setObjectName(QLatin1String(kThemeStyleName));
  }
  static constexpr const char* kThemeStyleName = "shardscopeThemeStyle";

  void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                     const QWidget* widget) const override {
    QProxyStyle::drawPrimitive(element, option, painter, widget);
    if ((element != PE_IndicatorCheckBox && element != PE_IndicatorRadioButton) || !option) return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(indicatorEdge(isDark(option->palette), option->state.testFlag(State_Enabled)), 1));
    painter->translate(0.5, 0.5);
    const QRectF r = QRectF(option->rect).adjusted(0, 0, -1, -1);
    if (element == PE_IndicatorRadioButton) painter->drawEllipse(r.adjusted(0.5, 0.5, -0.5, -0.5));
    else painter->drawRect(r);
    painter->restore();
  }
};
}  // namespace

void applyTheme(Theme theme) {
  if (qApp->style()->objectName() != QLatin1String(ThemeStyle::kThemeStyleName))
    QApplication::setStyle(new ThemeStyle);
  QApplication::setPalette(themePalette(theme));
}

bool isDark(const QPalette& palette) { return palette.color(QPalette::Base).lightness() < 128; }

bool isDark(const QGraphicsScene* scene) {
  return isDark(scene ? scene->palette() : QGuiApplication::palette());
}

QColor readableOn(const QColor& c, bool dark) {
  if (!dark || !c.isValid()) return c;
  int h = 0, s = 0, l = 0, a = 0;
  c.getHsl(&h, &s, &l, &a);
  if (s < 40 || h < 0)  // grey: mirror the lightness (#333 -> #ccc), never dim
    return QColor::fromHsl(h < 0 ? 0 : h, s, std::max(150, 255 - l), a);
  return QColor::fromHsl(h, s, std::max(l, 165), a);  // a hue: lighter, same hue
}

QString readableHtml(const QString& html, bool dark) {
  if (!dark) return html;
  static const QRegularExpression re(
      QStringLiteral("(?<![-\\w])color\\s*:\\s*(#[0-9A-Fa-f]{6}|#[0-9A-Fa-f]{3})(?![0-9A-Fa-f])"));
  QString out;
  out.reserve(html.size());
  qsizetype last = 0;
  for (auto it = re.globalMatch(html); it.hasNext();) {
    const auto m = it.next();
    out += QStringView(html).mid(last, m.capturedStart(1) - last);
    out += readableOn(QColor(m.captured(1)), true).name();
    last = m.capturedEnd(1);
  }
  out += QStringView(html).mid(last);
  return out;
}

QColor CanvasColors::clusterFill(int depth) const {
  if (dark) {
    const int shade = std::min(0x36, 0x26 + 5 * depth);
    return QColor(shade, shade, std::min(255, shade + 6));
  }
  const int shade = std::max(0xe6, 0xf6 - 8 * depth);
  return QColor(shade, shade, std::min(255, shade + 6));
}

const CanvasColors& canvasColors(bool dark) {
  static const CanvasColors light = [] {
    CanvasColors c;
    c.dark = false;
    c.background = Qt::white;
    c.text = Qt::black;
    c.mutedText = QColor(0x44, 0x44, 0x55);
    c.faintText = QColor(0x66, 0x66, 0x66);
    c.opFill = QColor(0xe9, 0xf1, 0xfb);
    c.sdyOpFill = QColor(0xff, 0xf3, 0xe0);
    c.argumentFill = QColor(0xe8, 0xf5, 0xe9);
    c.valueFill = Qt::white;
    c.returnFill = QColor(0xec, 0xec, 0xec);
    c.terminatorFill = QColor(0xf4, 0xf4, 0xf4);
    c.matchFill = QColor(0xff, 0xf1, 0x76);
    c.highlight = QColor(0xd8, 0x1b, 0x60);
    c.highlightHalo = QColor(0xd8, 0x1b, 0x60, 90);
    c.groupFill = QColor(0xe8, 0xea, 0xf6);
    c.groupExpandedFill = QColor(0xf7, 0xf8, 0xfe);
    c.groupHeaderFill = QColor(0xe3, 0xe6, 0xf8);
    c.groupTitle = QColor(0x3f, 0x51, 0xb5).darker(140);
    c.groupText = QColor(0x44, 0x44, 0x55);
    c.clusterBorder = QColor(0xa8, 0xa8, 0xb8);
    c.clusterText = QColor(0x44, 0x44, 0x66);
    c.gridLine = QColor(0x55, 0x55, 0x55);
    c.changed = QColor(0xe6, 0x8a, 0x00);
    c.changedHalo = QColor(0xff, 0xb3, 0x00, 150);
    c.legendFill = QColor(255, 255, 255, 235);
    c.legendBorder = QColor(0xbb, 0xbb, 0xbb);
    return c;
  }();
  static const CanvasColors darkColors = [] {
    CanvasColors c;
    c.dark = true;
    c.background = QColor(0x1e, 0x1f, 0x22);  // the dark palette's Base
    c.text = QColor(0xe6, 0xe6, 0xe6);
    c.mutedText = QColor(0xb4, 0xb4, 0xc4);
    c.faintText = QColor(0x9a, 0x9a, 0x9a);
    c.opFill = QColor(0x23, 0x30, 0x40);
    c.sdyOpFill = QColor(0x40, 0x32, 0x1e);
    c.argumentFill = QColor(0x1f, 0x36, 0x26);
    c.valueFill = QColor(0x2a, 0x2c, 0x31);
    c.returnFill = QColor(0x35, 0x37, 0x3c);
    c.terminatorFill = QColor(0x30, 0x32, 0x36);
    c.matchFill = QColor(0x52, 0x48, 0x08);  // search hits: amber, dark enough for 7:1 text
    c.highlight = QColor(0xf0, 0x62, 0x92);
    c.highlightHalo = QColor(0xf0, 0x62, 0x92, 110);
    c.groupFill = QColor(0x2c, 0x30, 0x48);
    c.groupExpandedFill = QColor(0x22, 0x24, 0x30);
    c.groupHeaderFill = QColor(0x33, 0x38, 0x5a);
    c.groupTitle = QColor(0xc5, 0xca, 0xe9);
    c.groupText = QColor(0xb4, 0xb4, 0xc4);
    c.clusterBorder = QColor(0x5c, 0x5c, 0x70);
    c.clusterText = QColor(0xa8, 0xa8, 0xc8);
    c.gridLine = QColor(0x8a, 0x8a, 0x90);
    c.changed = QColor(0xff, 0xb3, 0x00);
    c.changedHalo = QColor(0xff, 0xb3, 0x00, 140);
    c.legendFill = QColor(0x2b, 0x2d, 0x31, 235);
    c.legendBorder = QColor(0x55, 0x57, 0x5c);
    return c;
  }();
  return dark ? darkColors : light;
}

}  // namespace shardscope::widgets
