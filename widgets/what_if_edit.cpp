#include "what_if_edit.h"

#include <QRegularExpression>
#include <QStringList>

#include "axis_style.h"
#include "ir/parser.h"

namespace shardscope::widgets {

namespace {

// Index just past the bracket matching the one at `open` ('<', '{', '[',
// '('), skipping strings and `->`; -1 if unbalanced.
qsizetype matchBracket(const QString& s, qsizetype open) {
  int depth = 0;
  bool inString = false;
  for (qsizetype i = open; i < s.size(); ++i) {
    const QChar c = s[i];
    if (inString) {
      if (c == u'\\') ++i;
      else if (c == u'"') inString = false;
      continue;
    }
    if (c == u'"') inString = true;
    else if (c == u'-' && i + 1 < s.size() && s[i + 1] == u'>') ++i;
    else if (c == u'<' || c == u'{' || c == u'[' || c == u'(') ++depth;
    else if (c == u'>' || c == u'}' || c == u']' || c == u')') {
      if (--depth == 0) return i + 1;
    }
  }
  return -1;
}

// Top-level position of `needle` in s[from, to) (outside brackets and strings), or -1.
qsizetype findTopLevel(const QString& s, const QString& needle, qsizetype from, qsizetype to,
                       bool last = false) {
  int depth = 0;
  bool inString = false;
  qsizetype found = -1;
  for (qsizetype i = from; i < to; ++i) {
    const QChar c = s[i];
    if (inString) {
      if (c == u'\\') ++i;
      else if (c == u'"') inString = false;
      continue;
    }
    if (depth == 0 && QStringView(s).mid(i).startsWith(needle)) {
      found = i;
      if (!last) return found;
    }
    if (c == u'"') inString = true;
    else if (c == u'-' && i + 1 < to && s[i + 1] == u'>') ++i;
    else if (c == u'<' || c == u'{' || c == u'[' || c == u'(') ++depth;
    else if (c == u'>' || c == u'}' || c == u']' || c == u')') --depth;
  }
  return found;
}

// [start, end) of line `line` (1-based) in `s`, or {-1, -1}.
std::pair<qsizetype, qsizetype> lineSpan(const QString& s, int line) {
  qsizetype start = 0;
  for (int l = 1; l < line; ++l) {
    start = s.indexOf(u'\n', start);
    if (start < 0) return {-1, -1};
    ++start;
  }
  qsizetype end = s.indexOf(u'\n', start);
  return {start, end < 0 ? s.size() : end};
}

// Position of `name` as a whole token in s[from, to), or -1.
qsizetype findName(const QString& s, const QString& name, qsizetype from, qsizetype to) {
  for (qsizetype i = s.indexOf(name, from); i >= 0 && i < to; i = s.indexOf(name, i + 1)) {
    const qsizetype after = i + name.size();
    const bool endOk = after >= s.size() || !(s[after].isLetterOrNumber() || s[after] == u'_' ||
                                              s[after] == u'#' || s[after] == u'.');
    if (endOk) return i;
  }
  return -1;
}

}  // namespace

std::optional<TensorSharding> parseShardingForValue(const QString& rawText,
                                                    const ir::Module& module,
                                                    const ir::Value& value, QString* error) {
  auto fail = [&](const QString& e) -> std::optional<TensorSharding> {
    if (error) *error = e;
    return std::nullopt;
  };
  QString text = rawText.trimmed();
  if (text.isEmpty()) return fail(QObject::tr("type a sharding, e.g. [{\"x\"}, {}]"));
  if (text.startsWith(u'[')) {
    QString mesh;
    if (auto cur = api::valueSharding(value)) mesh = toQString(cur->mesh.str());
    else if (auto ms = api::meshes(module); !ms.empty()) mesh = u'@' + toQString(ms.front().first);
    else return fail(QObject::tr("the module has no mesh; write #sdy.sharding<@mesh, [...]>"));
    text = QStringLiteral("#sdy.sharding<") + mesh + QStringLiteral(", ") + text + u'>';
  } else if (text.startsWith(u'<')) {
    text.prepend(QStringLiteral("#sdy.sharding"));
  }
  ir::DiagnosticSink sink;
  const std::optional<ir::Attribute> attr = ir::parseAttribute(text.toStdString(), sink);
  if (!attr || sink.hasErrors()) {
    const auto& all = sink.all();
    return fail(all.empty() ? QObject::tr("not a sharding")
                            : toQString(all.front().message) +
                                  (all.front().loc.col
                                       ? QObject::tr(" (column %1)").arg(all.front().loc.col)
                                       : QString()));
  }
  const auto* ts = attr->as<TensorSharding>();
  if (!ts) return fail(QObject::tr("expected #sdy.sharding<@mesh, [...]>"));
  const int64_t rank = static_cast<int64_t>(value.type.shape.size());
  if (value.type.isRankedTensor() && ts->rank() != rank)
    return fail(QObject::tr("expected %1 dimension(s), got %2").arg(rank).arg(ts->rank()));
  const Mesh* mesh = api::meshFor(module, *ts);
  if (!mesh) return fail(QObject::tr("unknown mesh %1").arg(toQString(ts->mesh.str())));
  if (value.type.isRankedTensor()) {
    const auto layout = api::computeShardLayout(value.type.shape, *ts, *mesh);
    if (!layout.error.empty()) return fail(toQString(layout.error));
  }
  return *ts;
}

std::optional<QString> rewriteValueSharding(const QString& source, const ir::Value& value,
                                            const TensorSharding& sharding, QString* error) {
  auto fail = [&](const QString& e) -> std::optional<QString> {
    if (error) *error = e;
    return std::nullopt;
  };
  const QString name = toQString(api::valueName(value));
  QString text = source;
  if (value.isBlockArgument()) {
    const ir::Op* owner = value.ownerBlock->parentOp();
    if (!owner || !owner->is("func.func"))
      return fail(QObject::tr("%1 is a region argument: edit it in the source").arg(name));
    // The argument is in the signature, which may span several lines.
    const auto [start, _] = lineSpan(text, static_cast<int>(owner->loc().line));
    if (start < 0) return fail(QObject::tr("the source no longer has line %1").arg(owner->loc().line));
    const qsizetype body = text.indexOf(u'{', text.indexOf(u')', start));
    qsizetype at = findName(text, name + u':', start, body < 0 ? text.size() : body);
    if (at < 0) {
      at = findName(text, name, start, body < 0 ? text.size() : body);
      if (at < 0) return fail(QObject::tr("cannot find %1 in the function signature").arg(name));
    }
    qsizetype i = text.indexOf(u':', at) + 1;
    while (i < text.size() && text[i].isSpace()) ++i;
    // The type: `tensor<...>` (or a bare word).
    qsizetype typeEnd = i;
    while (typeEnd < text.size() && (text[typeEnd].isLetterOrNumber() || text[typeEnd] == u'_'))
      ++typeEnd;
    if (typeEnd < text.size() && text[typeEnd] == u'<') typeEnd = matchBracket(text, typeEnd);
    if (typeEnd < 0) return fail(QObject::tr("cannot read the type of %1").arg(name));
    qsizetype j = typeEnd;
    while (j < text.size() && text[j] == u' ') ++j;
    const QString attr = toQString(sharding.str());
    if (j < text.size() && text[j] == u'{') {
      const qsizetype dictEnd = matchBracket(text, j);
      if (dictEnd < 0) return fail(QObject::tr("unbalanced attributes of %1").arg(name));
      const qsizetype key = findTopLevel(text, QStringLiteral("sdy.sharding"), j + 1, dictEnd - 1);
      if (key >= 0) {
        const qsizetype hash = text.indexOf(u'#', key);
        const qsizetype open = text.indexOf(u'<', hash);
        const qsizetype close = open < 0 ? -1 : matchBracket(text, open);
        if (hash < 0 || close < 0 || close > dictEnd)
          return fail(QObject::tr("cannot read the sharding of %1").arg(name));
        text.replace(hash, close - hash, attr);
      } else {
        text.insert(j + 1, QStringLiteral("sdy.sharding = ") + attr + QStringLiteral(", "));
      }
    } else {
      text.insert(typeEnd, QStringLiteral(" {sdy.sharding = ") + attr + u'}');
    }
    return text;
  }

  const ir::Op* op = value.definingOp;
  if (!op) return fail(QObject::tr("%1 has no defining op").arg(name));
  if (op->numRegions() > 0)
    return fail(QObject::tr("%1 is the result of an op with regions: edit it in the source")
                    .arg(name));
  const auto [start, end] = lineSpan(text, static_cast<int>(op->loc().line));
  if (start < 0) return fail(QObject::tr("the source no longer has line %1").arg(op->loc().line));
  const QString opName = toQString(op->name());
  const qsizetype opAt = text.indexOf(opName, start);
  if (opAt < 0 || opAt >= end)
    return fail(QObject::tr("line %1 no longer holds %2").arg(op->loc().line).arg(opName));
  const QString body = toQString(sharding.strBody());
  if (op->is("sdy.sharding_constraint") || op->is("sdy.reshard")) {
    const qsizetype open = text.indexOf(QStringLiteral("<@"), opAt);
    const qsizetype close = open < 0 || open >= end ? -1 : matchBracket(text, open);
    if (close < 0 || close > end) return fail(QObject::tr("cannot read the sharding of %1").arg(name));
    text.replace(open, close - open, body);
    return text;
  }
  // All results' shardings, with this one replaced.
  QStringList entries;
  for (unsigned r = 0; r < op->numResults(); ++r) {
    const ir::Value& res = *op->result(r);
    if (r == value.index) {
      entries << body;
      continue;
    }
    auto cur = api::valueSharding(res);
    if (!cur)
      cur = TensorSharding::replicatedOf(sharding.mesh,
                                         static_cast<int64_t>(res.type.shape.size()), false);
    entries << toQString(cur->strBody());
  }
  const QString attr = QStringLiteral("#sdy.sharding_per_value<[") +
                       entries.join(QStringLiteral(", ")) + QStringLiteral("]>");
  // An existing `sdy.sharding = ...` of the op (inside its attribute dictionary).
  qsizetype found = -1;
  for (qsizetype i = text.indexOf(QStringLiteral("sdy.sharding"), opAt); i >= 0 && i < end;
       i = text.indexOf(QStringLiteral("sdy.sharding"), i + 1)) {
    const QChar next = i + 12 < text.size() ? text[i + 12] : QChar();
    if (next == u' ' || next == u'=') {
      found = i;
      break;
    }
  }
  if (found >= 0) {
    const qsizetype hash = text.indexOf(u'#', found);
    const qsizetype open = hash < 0 ? -1 : text.indexOf(u'<', hash);
    const qsizetype close = open < 0 ? -1 : matchBracket(text, open);
    if (close < 0 || close > end) return fail(QObject::tr("cannot read the sharding of %1").arg(name));
    text.replace(hash, close - hash, attr);
    return text;
  }
  // No sharding yet: into the attribute dictionary before the trailing
  // ` : type`, or a new one there.
  const qsizetype colon = findTopLevel(text, QStringLiteral(" : "), opAt, end, /*last=*/true);
  if (colon < 0) return fail(QObject::tr("cannot find the type of %1 on line %2").arg(name).arg(op->loc().line));
  qsizetype k = colon;
  while (k > opAt && text[k - 1] == u' ') --k;
  if (k > opAt && text[k - 1] == u'}') {
    // An existing dictionary `{...}`: find its `{`.
    int depth = 0;
    for (qsizetype b = k - 1; b > opAt; --b) {
      if (text[b] == u'}') ++depth;
      if (text[b] == u'{' && --depth == 0) {
        text.insert(b + 1, QStringLiteral("sdy.sharding = ") + attr + QStringLiteral(", "));
        return text;
      }
    }
  }
  text.insert(colon, QStringLiteral(" {sdy.sharding = ") + attr + u'}');
  return text;
}

}  // namespace shardscope::widgets
