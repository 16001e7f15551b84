#include "core/svg_fonts.h"

#include <QFontDatabase>
#include <QGuiApplication>
#include <QRegularExpression>
#include <QStringList>

namespace shardscope::widgets {

namespace {
const QStringList& genericNames() {
  static const QStringList names = {QStringLiteral("serif"),     QStringLiteral("sans-serif"),
                                    QStringLiteral("monospace"), QStringLiteral("cursive"),
                                    QStringLiteral("fantasy"),   QStringLiteral("system-ui")};
  return names;
}
}  // namespace

QString genericFontFamily(const QString& family) {
  const QString f = family.toLower();
  const bool fixed = (qobject_cast<QGuiApplication*>(QCoreApplication::instance()) &&
                      QFontDatabase::isFixedPitch(family)) ||
                     f.contains(QLatin1String("mono")) || f.contains(QLatin1String("courier")) ||
                     f.contains(QLatin1String("code"));
  if (fixed) return QStringLiteral("monospace");
  if (f.contains(QLatin1String("serif")) && !f.contains(QLatin1String("sans")))
    return QStringLiteral("serif");
  return QStringLiteral("sans-serif");
}

QByteArray addGenericFontFamilies(const QByteArray& svg) {
  static const QRegularExpression attr(QStringLiteral("font-family=\"([^\"]*)\""));
  const QString text = QString::fromUtf8(svg);
  QString out;
  out.reserve(text.size() + text.size() / 16);
  qsizetype last = 0;
  for (auto it = attr.globalMatch(text); it.hasNext();) {
    const QRegularExpressionMatch m = it.next();
    out += QStringView(text).mid(last, m.capturedStart() - last);
    last = m.capturedEnd();
    const QString families = m.captured(1);
    bool hasGeneric = false;
    for (const QString& part : families.split(u',')) {
      QString name = part.trimmed();
      if (name.startsWith(u'\'') || name.startsWith(u'"')) name = name.mid(1, name.size() - 2);
      hasGeneric = hasGeneric || genericNames().contains(name.toLower());
    }
    if (hasGeneric || families.trimmed().isEmpty()) {
      out += m.captured(0);
      continue;
    }
    // QSvgGenerator writes one family, unquoted: quote it (names with
    // spaces), then name its generic family.
    const QString first = families.section(u',', 0, 0).trimmed();
    const QString listed =
        families.contains(u',') ? families : QStringLiteral("'") + families + u'\'';
    out += QStringLiteral("font-family=\"") + listed + QStringLiteral(", ") +
           genericFontFamily(first.startsWith(u'\'') ? first.mid(1, first.size() - 2) : first) +
           u'"';
  }
  out += QStringView(text).mid(last);
  return out.toUtf8();
}

}  // namespace shardscope::widgets
