// Words for plot titles and captions.
#pragma once
#include <QFont>
#include <QFontMetricsF>
#include <QString>
#include <QStringList>

namespace shardscope::plots {

// "1 table", "3 tables" (regular English plurals only).
inline QString countOf(qint64 n, const char* singular) {
  return QStringLiteral("%1 %2%3").arg(n).arg(QLatin1String(singular)).arg(n == 1 ? QString() : QStringLiteral("s"));
}

// `text` broken at spaces into lines no wider than `width` in `font` (its
// own line breaks kept); a word wider than `width` gets a line of its own.
//   wrapToWidth("Partition load: user_item (3 tables, 8 SparseCores)", f, 260)
//   -> "Partition load: user_item (3\ntables, 8 SparseCores)"
inline QString wrapToWidth(const QString& text, const QFont& font, qreal width) {
  const QFontMetricsF fm(font);
  QStringList out;
  for (const QString& paragraph : text.split(u'\n')) {
    QString line;
    for (const QString& word : paragraph.split(u' ')) {
      const QString candidate = line.isEmpty() ? word : line + u' ' + word;
      if (!line.isEmpty() && fm.horizontalAdvance(candidate) > width) {
        out << line;
        line = word;
      } else {
        line = candidate;
      }
    }
    out << line;
  }
  return out.join(u'\n');
}

}  // namespace shardscope::plots
