#include "sample_catalog.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace shardscope::app {

namespace {

QString readText(const QString& path, qint64 maxBytes = 1 << 20) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(f.read(maxBytes));
}

QStringList tableCells(const QString& line) {
  QString row = line.trimmed();
  if (!row.startsWith(u'|')) return {};
  row = row.mid(1);
  if (row.endsWith(u'|')) row.chop(1);
  QStringList cells = row.split(u'|');
  for (QString& c : cells) c = c.trimmed();
  return cells;
}

// Markdown's code and bold marks dropped: "**Communication:** an `add`" ->
// "Communication: an add".
QString withoutMarkdown(QString s) { return s.remove(u'`').remove(QStringLiteral("**")); }

// An MLIR sample's leading comment, first paragraph, without its
// "name.mlir — " lead: "a transformer MLP block with ...".
QString leadingComment(const QString& path) {
  const QStringList lines = readText(path, 8192).split(u'\n');
  QString text;
  for (const QString& line : lines) {
    if (!line.startsWith(QLatin1String("//"))) break;
    const QString body = line.mid(2).trimmed();
    if (body.isEmpty()) break;
    text += (text.isEmpty() ? QString() : QStringLiteral(" ")) + body;
  }
  const qsizetype dash = text.indexOf(QStringLiteral(" — "));
  if (dash >= 0 && text.left(dash).endsWith(QLatin1String(".mlir"))) text = text.mid(dash + 3);
  if (!text.isEmpty()) text[0] = text[0].toUpper();
  return text;
}

QString jobDescription(const QString& path) {
  const QJsonDocument json = QJsonDocument::fromJson(readText(path, 4 << 20).toUtf8());
  return json.object().value(QLatin1String("description")).toString();
}

}  // namespace

QHash<QString, QString> readmeDescriptions(const QString& markdown) {
  QHash<QString, QString> out;
  int column = -1;
  for (const QString& line : markdown.split(u'\n')) {
    const QStringList cells = tableCells(line);
    if (cells.isEmpty()) {
      column = -1;  // a table ended
      continue;
    }
    if (column < 0) {  // the header row
      for (int i = 0; i < cells.size(); ++i)
        if (cells[i].compare(QLatin1String("what it shows"), Qt::CaseInsensitive) == 0) column = i;
      continue;
    }
    const QString first = cells.front();
    if (!first.startsWith(u'`') || column >= cells.size()) continue;
    // "`matmul_chain.mlir` (default)" -> matmul_chain.mlir
    const qsizetype close = first.indexOf(u'`', 1);
    if (close < 0) continue;
    out.insert(first.mid(1, close - 1), withoutMarkdown(cells[column]));
  }
  return out;
}

QString firstClause(const QString& description, int maxChars) {
  QString s = description.trimmed();
  // A one-word label ("Communication: two shardings ...") says less than
  // what follows it.
  const qsizetype colon = s.indexOf(u':');
  if (colon > 0 && !s.left(colon).contains(u' ') && colon + 1 < s.size()) {
    s = s.mid(colon + 1).trimmed();
    if (!s.isEmpty()) s[0] = s[0].toUpper();
  }
  // A clause ends at ':' / ';' / ". ", but not inside parentheses
  // ("softmax(QKᵀ)V with ...", "(\"x\":(1)2)").
  int depth = 0;
  for (qsizetype i = 0; i < s.size(); ++i) {
    const QChar c = s[i];
    if (c == u'(') {
      ++depth;
    } else if (c == u')') {
      depth = std::max(0, depth - 1);
    } else if (depth == 0 && (c == u':' || c == u';' ||
                              (c == u'.' && (i + 1 == s.size() || s[i + 1].isSpace())))) {
      s.truncate(i);
      break;
    }
  }
  if (s.size() > maxChars) {
    qsizetype cut = s.lastIndexOf(u' ', maxChars - 1);
    if (cut <= 0) cut = maxChars - 1;
    s = s.left(cut) + QStringLiteral("…");
  }
  return s;
}

QList<SampleEntry> sampleCatalog(const QString& dirPath) {
  QList<SampleEntry> out;
  if (dirPath.isEmpty()) return out;
  auto addDir = [&out](const QDir& dir, const QString& pattern, bool isJob) {
    const QHash<QString, QString> readme =
        readmeDescriptions(readText(dir.filePath(QStringLiteral("README.md"))));
    for (const QString& f : dir.entryList({pattern}, QDir::Files, QDir::Name)) {
      SampleEntry e;
      e.path = dir.filePath(f);
      e.description = readme.value(f);
      if (e.description.isEmpty())
        e.description = isJob ? jobDescription(e.path) : leadingComment(e.path);
      const QString name = QFileInfo(f).completeBaseName();
      const QString clause = firstClause(e.description);
      e.menuText = clause.isEmpty() ? name : name + QStringLiteral(" — ") + clause;
      out.append(e);
    }
  };
  const QDir dir(dirPath);
  addDir(dir, QStringLiteral("*.mlir"), false);
  if (dir.exists(QStringLiteral("sparsecore")))
    addDir(QDir(dir.filePath(QStringLiteral("sparsecore"))), QStringLiteral("*.json"), true);
  return out;
}

}  // namespace shardscope::app
