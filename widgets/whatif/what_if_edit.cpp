#include "whatif/what_if_edit.h"

#include <QRegularExpression>
#include <QStringList>

#include "core/axis_style.h"
#include "ir/parser.h"
#include "whatif/what_if_text_scan.h"

namespace shardscope::widgets {

namespace {

using Rewrite = std::optional<QString>;

// The shape of function result `index` (from function_type), if it has one.
std::optional<ir::Type> functionResultType(const ir::Op& func, unsigned index) {
  const ir::Attribute* ft = func.attr("function_type");
  const auto* type = ft ? ft->as<ir::TypeAttr>() : nullptr;
  if (!type || type->type.kind != ir::Type::Kind::Function || index >= type->type.results.size())
    return std::nullopt;
  return type->type.results[index];
}

// `text` as the sharding of a value of `type` in `module` (see
// parseShardingForValue); `current` gives the mesh of a dimensions-only text.
std::optional<TensorSharding> parseShardingFor(const QString& rawText, const ir::Module& module,
                                               const ir::Type& type,
                                               const std::optional<TensorSharding>& current,
                                               QString* error) {
  auto fail = [&](const QString& e) -> std::optional<TensorSharding> {
    if (error) *error = e;
    return std::nullopt;
  };
  QString text = rawText.trimmed();
  if (text.isEmpty()) return fail(QObject::tr("type a sharding, e.g. [{\"x\"}, {}]"));
  if (text.startsWith(u'[')) {
    QString mesh;
    if (current)
      mesh = toQString(current->mesh.str());
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
  const int64_t rank = static_cast<int64_t>(type.shape.size());
  if (type.isRankedTensor() && ts->rank() != rank)
    return fail(QObject::tr("expected %1 dimension(s), got %2").arg(rank).arg(ts->rank()));
  const Mesh* mesh = api::meshFor(module, *ts);
  if (!mesh) return fail(QObject::tr("unknown mesh %1").arg(toQString(ts->mesh.str())));
  if (type.isRankedTensor()) {
    const auto layout = api::computeShardLayout(type.shape, *ts, *mesh);
    if (!layout.error.empty()) return fail(toQString(layout.error));
  }
  return *ts;
}

// Position of an `sdy.sharding` attribute key in text[from, to), or -1.
qsizetype findShardingKey(const QString& text, qsizetype from, qsizetype to) {
  static const QString key = QStringLiteral("sdy.sharding");
  for (qsizetype i = text.indexOf(key, from); i >= 0 && i < to; i = text.indexOf(key, i + 1)) {
    const QChar next = i + key.size() < text.size() ? text[i + key.size()] : QChar();
    if (next == u' ' || next == u'=') return i;
  }
  return -1;
}

// Replace the `#...<...>` value of the attribute whose key is at `key` by
// `attr`; false when it does not end before `limit`.
bool replaceAttrValue(QString& text, qsizetype key, qsizetype limit, const QString& attr) {
  const qsizetype hash = text.indexOf(u'#', key);
  const qsizetype open = hash < 0 ? -1 : text.indexOf(u'<', hash);
  const qsizetype close = open < 0 ? -1 : matchBracket(text, open);
  if (close < 0 || close > limit) return false;
  text.replace(hash, close - hash, attr);
  return true;
}

// `sdy.sharding = attr` into the attribute dictionary of a signature entry
// whose type starts at `typeAt` (`tensor<8x16xf32> {...}`), replacing one
// there, or a new dictionary after the type.
bool setEntrySharding(QString& text, qsizetype typeAt, const QString& attr) {
  const qsizetype end = typeEnd(text, typeAt);
  if (end < 0) return false;
  qsizetype j = end;
  while (j < text.size() && text[j] == u' ') ++j;
  if (j < text.size() && text[j] == u'{') {
    const qsizetype dictEnd = matchBracket(text, j);
    if (dictEnd < 0) return false;
    const qsizetype key = findTopLevel(text, QStringLiteral("sdy.sharding"), j + 1, dictEnd - 1);
    if (key >= 0) return replaceAttrValue(text, key, dictEnd, attr);
    text.insert(j + 1, QStringLiteral("sdy.sharding = %1, ").arg(attr));
    return true;
  }
  text.insert(end, QStringLiteral(" {sdy.sharding = %1}").arg(attr));
  return true;
}

// The shardings of all results of `op`, result `index` being `sharding`
// (the others keep theirs, or are replicated): `<@mesh, [...]>` each.
QStringList resultEntries(const ir::Op& op, unsigned index, const TensorSharding& sharding) {
  QStringList entries;
  for (unsigned r = 0; r < op.numResults(); ++r) {
    const ir::Value& res = *op.result(r);
    if (r == index) {
      entries << toQString(sharding.strBody());
      continue;
    }
    auto cur = api::valueSharding(res);
    if (!cur)
      cur = TensorSharding::replicatedOf(sharding.mesh, static_cast<int64_t>(res.type->shape.size()),
                                         false);
    entries << toQString(cur->strBody());
  }
  return entries;
}

QString perValueAttr(const QStringList& entries) {
  return QStringLiteral("#sdy.sharding_per_value<[") + entries.join(QStringLiteral(", ")) +
         QStringLiteral("]>");
}

// `{sdy.sharding = attr}` into the attribute dictionary before the last
// top-level ` : ` (the op's type) of text[from, to), or a new one there.
bool insertBeforeTrailingType(QString& text, qsizetype from, qsizetype to, const QString& attr) {
  const qsizetype colon = findTopLevel(text, QStringLiteral(" : "), from, to, /*last=*/true);
  if (colon < 0) return false;
  qsizetype k = colon;
  while (k > from && text[k - 1] == u' ') --k;
  if (k > from && text[k - 1] == u'}') {
    int depth = 0;
    for (qsizetype b = k - 1; b > from; --b) {
      if (text[b] == u'}') ++depth;
      if (text[b] == u'{' && --depth == 0) {
        text.insert(b + 1, QStringLiteral("sdy.sharding = %1, ").arg(attr));
        return true;
      }
    }
  }
  text.insert(colon, QStringLiteral(" {sdy.sharding = %1}").arg(attr));
  return true;
}

// Result `index` of `op`, an op with regions (while, case, manual and named
// computations), given `sharding` in `text`.
Rewrite rewriteRegionOpResult(QString text, const ir::Op& op, unsigned index,
                              const TensorSharding& sharding, QString* error) {
  auto fail = [&](const QString& e) -> Rewrite {
    if (error) *error = e;
    return std::nullopt;
  };
  const QString opName = toQString(op.name());
  const RegionOpText t = regionOpText(text, op);
  if (t.opAt < 0)
    return fail(QObject::tr("line %1 no longer holds %2").arg(op.loc().line).arg(opName));
  const QString cannot =
      QObject::tr("cannot read the shardings of %1 on line %2").arg(opName).arg(op.loc().line);
  if (op.is("sdy.manual_computation") || op.is("sdy.named_computation")) {
    // Their results' shardings are `out_shardings=[...]` in the header.
    const QString key = QStringLiteral("out_shardings=");
    const qsizetype at = findTopLevel(text, key, t.opAt, t.headerEnd);
    if (at >= 0) {
      const qsizetype open = at + key.size();
      const qsizetype close =
          open < text.size() && text[open] == u'[' ? matchBracket(text, open) : -1;
      if (close < 0) return fail(cannot);
      const auto entries = splitTopLevel(text, open + 1, close - 1);
      if (entries.size() != op.numResults() || index >= entries.size()) return fail(cannot);
      text.replace(entries[index].first, entries[index].second - entries[index].first,
                   toQString(sharding.strBody()));
      return text;
    }
    // None yet: after in_shardings=[...], else after the operands.
    const QString list = QStringLiteral(" out_shardings=[") +
                         resultEntries(op, index, sharding).join(QStringLiteral(", ")) + u']';
    const qsizetype in = findTopLevel(text, QStringLiteral("in_shardings="), t.opAt, t.headerEnd);
    qsizetype after = -1;
    if (in >= 0) {
      after = matchBracket(text, in + 13);
    } else {
      qsizetype open = t.opAt + opName.size();
      if (open < text.size() && text[open] == u'<') open = matchBracket(text, open);
      if (open >= 0 && open < text.size() && text[open] == u'(') after = matchBracket(text, open);
    }
    if (after < 0 || after > t.headerEnd) return fail(cannot);
    text.insert(after, list);
    return text;
  }
  const QString attr = perValueAttr(resultEntries(op, index, sharding));
  // An `sdy.sharding` already there: in the header (`attributes {...}` of
  // the custom form) or after the regions (generic form).
  qsizetype key = findShardingKey(text, t.opAt, t.headerEnd);
  const qsizetype limit = key >= 0 ? t.headerEnd : t.end;
  if (key < 0) key = findShardingKey(text, t.regionsEnd, t.end);
  if (key >= 0) {
    if (!replaceAttrValue(text, key, limit, attr)) return fail(cannot);
    return text;
  }
  // Generic form: `}) {attrs} : type` after the regions.
  if (insertBeforeTrailingType(text, t.regionsEnd, t.end, attr)) return text;
  // Custom form (`stablehlo.while(...) : types attributes {...}` then
  // `cond {`): into that dictionary, or a new one before the first region.
  const QString attrsKey = QStringLiteral("attributes {");
  if (const qsizetype dict = findTopLevel(text, attrsKey, t.opAt, t.headerEnd); dict >= 0) {
    text.insert(dict + attrsKey.size(), QStringLiteral("sdy.sharding = %1, ").arg(attr));
    return text;
  }
  const qsizetype brace = findTopLevel(text, QStringLiteral("{"), t.opAt, t.headerEnd, true);
  if (brace < 0) return fail(cannot);
  qsizetype k = brace;  // back over ` cond ` to the end of the header
  while (k > t.opAt && text[k - 1].isSpace()) --k;
  while (k > t.opAt && (text[k - 1].isLetterOrNumber() || text[k - 1] == u'_')) --k;
  while (k > t.opAt && text[k - 1].isSpace()) --k;
  text.insert(k, QStringLiteral(" attributes {sdy.sharding = %1}").arg(attr));
  return text;
}

}  // namespace

std::optional<TensorSharding> parseShardingForValue(const QString& text, const ir::Module& module,
                                                    const ir::Value& value, QString* error) {
  return parseShardingFor(text, module, value.type, api::valueSharding(value), error);
}

std::optional<TensorSharding> parseShardingForFunctionResult(const QString& text,
                                                             const ir::Module& module,
                                                             const ir::Op& func, unsigned index,
                                                             QString* error) {
  const auto type = functionResultType(func, index);
  if (!type) {
    if (error) *error = QObject::tr("the function has no result #%1").arg(index);
    return std::nullopt;
  }
  return parseShardingFor(text, module, *type, api::functionResultSharding(func, index), error);
}

std::optional<QString> rewriteValueSharding(const QString& source, const ir::Value& value,
                                            const TensorSharding& sharding, QString* error) {
  auto fail = [&](const QString& e) -> Rewrite {
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
    if (start < 0)
      return fail(QObject::tr("the source no longer has line %1").arg(owner->loc().line));
    const qsizetype body = text.indexOf(u'{', text.indexOf(u')', start));
    qsizetype at = findName(text, name + u':', start, body < 0 ? text.size() : body);
    if (at < 0) {
      at = findName(text, name, start, body < 0 ? text.size() : body);
      if (at < 0) return fail(QObject::tr("cannot find %1 in the function signature").arg(name));
    }
    qsizetype i = text.indexOf(u':', at) + 1;
    while (i < text.size() && text[i].isSpace()) ++i;
    if (!setEntrySharding(text, i, toQString(sharding.str())))
      return fail(QObject::tr("cannot read the type and attributes of %1").arg(name));
    return text;
  }

  const ir::Op* op = value.definingOp;
  if (!op) return fail(QObject::tr("%1 has no defining op").arg(name));
  if (op->numRegions() > 0) return rewriteRegionOpResult(text, *op, value.index, sharding, error);
  const auto [start, end] = lineSpan(text, static_cast<int>(op->loc().line));
  if (start < 0) return fail(QObject::tr("the source no longer has line %1").arg(op->loc().line));
  const QString opName = toQString(op->name());
  const qsizetype opAt = text.indexOf(opName, start);
  if (opAt < 0 || opAt >= end)
    return fail(QObject::tr("line %1 no longer holds %2").arg(op->loc().line).arg(opName));
  const QString cannot = QObject::tr("cannot read the sharding of %1").arg(name);
  if (op->is("sdy.sharding_constraint") || op->is("sdy.reshard")) {
    const qsizetype open = text.indexOf(QStringLiteral("<@"), opAt);
    const qsizetype close = open < 0 || open >= end ? -1 : matchBracket(text, open);
    if (close < 0 || close > end) return fail(cannot);
    text.replace(open, close - open, toQString(sharding.strBody()));
    return text;
  }
  const QString attr = perValueAttr(resultEntries(*op, value.index, sharding));
  if (const qsizetype key = findShardingKey(text, opAt, end); key >= 0) {
    if (!replaceAttrValue(text, key, end, attr)) return fail(cannot);
    return text;
  }
  if (!insertBeforeTrailingType(text, opAt, end, attr))
    return fail(QObject::tr("cannot find the type of %1 on line %2").arg(name).arg(op->loc().line));
  return text;
}

std::optional<QString> rewriteFunctionResultSharding(const QString& source, const ir::Op& func,
                                                     unsigned index, const TensorSharding& sharding,
                                                     QString* error) {
  auto fail = [&](const QString& e) -> Rewrite {
    if (error) *error = e;
    return std::nullopt;
  };
  const QString name = u'@' + toQString(api::symbolName(func));
  QString text = source;
  const auto [start, end] = lineSpan(text, static_cast<int>(func.loc().line));
  const qsizetype at = start < 0 ? -1 : text.indexOf(QStringLiteral("func.func"), start);
  const qsizetype open = at < 0 || at >= end ? -1 : text.indexOf(u'(', at);
  const qsizetype close = open < 0 ? -1 : matchBracket(text, open);
  if (close < 0)
    return fail(
        QObject::tr("line %1 no longer holds the signature of %2").arg(func.loc().line).arg(name));
  qsizetype i = close;
  while (i < text.size() && text[i].isSpace()) ++i;
  if (!QStringView(text).mid(i).startsWith(u"->"))
    return fail(QObject::tr("%1 has no results").arg(name));
  i += 2;
  while (i < text.size() && text[i].isSpace()) ++i;
  const QString attr = toQString(sharding.str());
  if (i < text.size() && text[i] == u'(') {
    const qsizetype listEnd = matchBracket(text, i);
    const auto entries = listEnd < 0 ? decltype(splitTopLevel(text, 0, 0)){}
                                     : splitTopLevel(text, i + 1, listEnd - 1);
    if (index >= entries.size() || !setEntrySharding(text, entries[index].first, attr))
      return fail(QObject::tr("cannot read result #%1 of %2").arg(index).arg(name));
    return text;
  }
  // A single result written without parentheses: it needs them now.
  const qsizetype typeStop = typeEnd(text, i);
  if (index != 0 || typeStop < 0)
    return fail(QObject::tr("cannot read result #%1 of %2").arg(index).arg(name));
  const QString type = text.mid(i, typeStop - i);
  text.replace(i, typeStop - i,
               u'(' + type + QStringLiteral(" {sdy.sharding = ") + attr + QStringLiteral("})"));
  return text;
}

}  // namespace shardscope::widgets
