// Attribute sites (see attribute_sites.h).
#include "ir/attribute_sites.h"

#include <tuple>

namespace shardscope::ir {

namespace {

uint64_t opKey(SourceLoc op) { return (static_cast<uint64_t>(op.line) << 32) | op.col; }

// The end of the string literal whose opening quote is at `i` (the index
// after its closing quote), honouring backslash escapes.
size_t skipString(std::string_view text, size_t i) {
  for (++i; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i + 1;
    }
  }
  return text.size();
}

bool opens(char c) { return c == '[' || c == '<' || c == '{' || c == '('; }
bool closes(char c) { return c == ']' || c == '>' || c == '}' || c == ')'; }

// [begin, end) of the `index`-th element of the first `[...]` list in
// `text`, or nothing when there is no such element. Brackets inside string
// literals (axis names may hold any character) do not count.
std::optional<std::pair<size_t, size_t>> listElement(std::string_view text, size_t index) {
  size_t i = 0;
  while (i < text.size() && text[i] != '[') i = text[i] == '"' ? skipString(text, i) : i + 1;
  if (i >= text.size()) return std::nullopt;
  size_t start = ++i, count = 0;
  int depth = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"') {
      i = skipString(text, i);
      continue;
    }
    // `->` in a factor mapping is no closing bracket.
    if (c == '-' && i + 1 < text.size() && text[i + 1] == '>') {
      i += 2;
      continue;
    }
    if (opens(c)) {
      ++depth;
    } else if (closes(c) && depth > 0) {
      --depth;
    } else if ((c == ',' || closes(c)) && depth == 0) {
      if (count == index) {
        while (start < i && (text[start] == ' ' || text[start] == '\n' || text[start] == '\t' ||
                             text[start] == '\r'))
          ++start;
        return std::make_pair(start, i);
      }
      if (c != ',') return std::nullopt;
      ++count;
      start = i + 1;
    }
    ++i;
  }
  return std::nullopt;
}

}  // namespace

void AttributeSites::add(SourceLoc op, std::string key, size_t begin, size_t end, SourceLoc at) {
  sites_[{opKey(op), std::move(key)}] = Span{begin, end, at};
}

SourceLoc AttributeSites::locOf(const Span& span, size_t offset) const {
  SourceLoc loc = span.at;
  size_t lineStart = std::string_view::npos;
  for (size_t i = span.begin; i < offset && i < text_.size(); ++i) {
    if (text_[i] == '\n') {
      ++loc.line;
      lineStart = i + 1;
    }
  }
  if (lineStart == std::string_view::npos)
    loc.col += static_cast<uint32_t>(offset - span.begin);
  else
    loc.col = static_cast<uint32_t>(offset - lineStart + 1);
  return loc;
}

SourceLoc AttributeSites::locate(SourceLoc op, std::string_view key,
                                 const SiteTarget& target) const {
  auto it = sites_.find({opKey(op), std::string(key)});
  if (it == sites_.end()) return {};
  const Span& span = it->second;
  if (span.end > text_.size() || span.begin > span.end) return span.at;
  const std::string_view attr = text_.substr(span.begin, span.end - span.begin);
  size_t from = 0, to = attr.size();
  if (target.element) {
    if (auto element = listElement(attr, *target.element)) std::tie(from, to) = *element;
  }
  size_t found = std::string_view::npos;
  if (!target.token.empty()) {
    const std::string_view part = attr.substr(from, to - from);
    // The occurrence asked for, or the last one there is.
    size_t at = part.find(target.token);
    for (int n = 1; at != std::string_view::npos && n < target.occurrence; ++n) {
      const size_t next = part.find(target.token, at + 1);
      if (next == std::string_view::npos) break;
      at = next;
    }
    if (at != std::string_view::npos) found = from + at;
  }
  return locOf(span, span.begin + (found != std::string_view::npos ? found : from));
}

std::string argAttrKey(std::string_view kind, size_t index, std::string_view name) {
  std::string key(kind);
  key += '/';
  key += std::to_string(index);
  key += '/';
  key += name;
  return key;
}

}  // namespace shardscope::ir
