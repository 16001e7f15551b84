#include "whatif/what_if_text_scan.h"

#include <algorithm>

namespace shardscope::widgets {

namespace {

bool isOpening(QChar c) { return c == u'<' || c == u'{' || c == u'[' || c == u'('; }
bool isClosing(QChar c) { return c == u'>' || c == u'}' || c == u']' || c == u')'; }

// Walks s[from, to) calling `visit(i, depth)` at every character outside
// strings (depth before the character is applied); stops when it returns true.
template <typename Visit>
qsizetype scan(const QString& s, qsizetype from, qsizetype to, Visit visit) {
  int depth = 0;
  bool inString = false;
  for (qsizetype i = from; i < to; ++i) {
    const QChar c = s[i];
    if (inString) {
      if (c == u'\\')
        ++i;
      else if (c == u'"')
        inString = false;
      continue;
    }
    if (visit(i, depth)) return i;
    if (c == u'"')
      inString = true;
    else if (c == u'-' && i + 1 < to && s[i + 1] == u'>')
      ++i;
    else if (isOpening(c))
      ++depth;
    else if (isClosing(c))
      --depth;
  }
  return -1;
}

}  // namespace

qsizetype matchBracket(const QString& s, qsizetype open) {
  const qsizetype at = scan(s, open, s.size(), [&](qsizetype i, int depth) {
    return i > open && depth == 1 && isClosing(s[i]);
  });
  return at < 0 ? -1 : at + 1;
}

qsizetype findTopLevel(const QString& s, const QString& needle, qsizetype from, qsizetype to,
                       bool last) {
  qsizetype found = -1;
  scan(s, from, to, [&](qsizetype i, int depth) {
    if (depth == 0 && QStringView(s).mid(i, to - i).startsWith(needle)) {
      found = i;
      return !last;
    }
    return false;
  });
  return found;
}

std::vector<std::pair<qsizetype, qsizetype>> splitTopLevel(const QString& s, qsizetype from,
                                                           qsizetype to) {
  std::vector<std::pair<qsizetype, qsizetype>> out;
  auto add = [&](qsizetype a, qsizetype b) {
    while (a < b && s[a].isSpace()) ++a;
    while (b > a && s[b - 1].isSpace()) --b;
    if (a < b || !out.empty()) out.emplace_back(a, b);
  };
  qsizetype start = from;
  scan(s, from, to, [&](qsizetype i, int depth) {
    if (depth == 0 && s[i] == u',') {
      add(start, i);
      start = i + 1;
    }
    return false;
  });
  add(start, to);
  if (out.size() == 1 && out.front().first == out.front().second) out.clear();
  return out;
}

std::pair<qsizetype, qsizetype> lineSpan(const QString& s, int line) {
  if (line < 1) return {-1, -1};
  qsizetype start = 0;
  for (int l = 1; l < line; ++l) {
    start = s.indexOf(u'\n', start);
    if (start < 0) return {-1, -1};
    ++start;
  }
  const qsizetype end = s.indexOf(u'\n', start);
  return {start, end < 0 ? s.size() : end};
}

qsizetype findName(const QString& s, const QString& name, qsizetype from, qsizetype to) {
  for (qsizetype i = s.indexOf(name, from); i >= 0 && i < to; i = s.indexOf(name, i + 1)) {
    const qsizetype after = i + name.size();
    const bool endOk = after >= s.size() || !(s[after].isLetterOrNumber() || s[after] == u'_' ||
                                              s[after] == u'#' || s[after] == u'.');
    if (endOk) return i;
  }
  return -1;
}

qsizetype typeEnd(const QString& s, qsizetype at) {
  qsizetype end = at;
  while (end < s.size() &&
         (s[end].isLetterOrNumber() || s[end] == u'_' || s[end] == u'!' || s[end] == u'.'))
    ++end;
  if (end == at) return -1;
  if (end < s.size() && s[end] == u'<') end = matchBracket(s, end);
  return end;
}

RegionOpText regionOpText(const QString& s, const ir::Op& op) {
  RegionOpText t;
  // The lines the nested ops span.
  uint32_t first = 0, last = 0;
  const_cast<ir::Op&>(op).walk([&](ir::Op& o) {
    // Ops the import passes add inside carry the op's own location: skip them.
    if (&o == &op || !o.loc().known() || o.loc().line <= op.loc().line) return;
    first = first ? std::min(first, o.loc().line) : o.loc().line;
    last = std::max(last, o.loc().line);
  });
  const auto [start, lineEnd] = lineSpan(s, static_cast<int>(op.loc().line));
  if (start < 0 || first == 0) return t;
  qsizetype opAt = s.indexOf(QString::fromStdString(op.name()), start);
  if (opAt < 0 || opAt >= lineEnd) return t;
  if (opAt > 0 && s[opAt - 1] == u'"') --opAt;  // generic form: from the quote on
  const qsizetype headerEnd = lineSpan(s, static_cast<int>(first)).first;
  const qsizetype lastEnd = lineSpan(s, static_cast<int>(last)).second;
  if (headerEnd < 0 || lastEnd < 0) return t;
  // Counted from the op's name, the regions (and a generic op's region
  // list) close with the first outermost closing bracket after the last
  // nested op.
  const qsizetype closeAt = scan(s, opAt, s.size(), [&](qsizetype i, int depth) {
    return i >= lastEnd && depth == 1 && isClosing(s[i]);
  });
  if (closeAt < 0) return t;
  const qsizetype nl = s.indexOf(u'\n', closeAt);
  t.opAt = opAt;
  t.headerEnd = headerEnd;
  t.regionsEnd = closeAt + 1;
  t.end = nl < 0 ? s.size() : nl;
  return t;
}

}  // namespace shardscope::widgets
