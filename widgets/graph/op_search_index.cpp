#include "graph/op_search_index.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "api/document.h"
#include "api/nested_name_scope.h"
#include "api/op_source.h"

namespace shardscope::widgets {

namespace {

// Grown once, then written as a plain loop the compiler vectorizes: a
// push_back per character (its capacity check each time) was the index's
// largest cost, 90 million characters at a million ops.
void appendLower(std::string& out, std::string_view s) {
  const size_t at = out.size();
  out.resize(at + s.size());
  char* to = out.data() + at;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    to[i] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
}

}  // namespace

OpSearchIndex::OpSearchIndex(const ir::Op& func, const std::function<bool()>& canceled) {
  const_cast<ir::Op&>(func).walkPreOrder([&](ir::Op& op) {
    if (&op == &func) return true;
    if (ops_.size() % 4096 == 0 && canceled && canceled()) return false;
    starts_.push_back(static_cast<uint32_t>(text_.size()));
    ops_.push_back(&op);
    appendLower(text_, op.name());
    for (unsigned r = 0; r < op.numResults(); ++r) {
      text_ += ' ';
      appendLower(text_, api::valueName(*op.result(r)));
    }
    // A space after the last name: "%12 " finds %12, not %123.
    text_ += ' ';
    // The nested form's scope is outside its name: indexed as the one-piece
    // form reads, "jit(f)/mlp/add".
    if (const std::string_view nested = api::nestedNameScopeOf(op); !nested.empty()) {
      appendLower(text_, nested);
      text_ += '/';
    }
    appendLower(text_, api::nameScopeOf(op));
    text_ += '\n';
    return true;
  });
  text_.shrink_to_fit();
}

std::vector<int> OpSearchIndex::find(const QString& query) const {
  std::vector<int> out;
  const QString trimmed = query.trimmed();
  if (trimmed.isEmpty()) return out;
  const std::string q = trimmed.toStdString();
  if (const auto line = api::parseSourceLineQuery(q)) {
    // A Python line: the ops whose call stack passes through it.
    std::unordered_map<const void*, bool> matches;  // ops share locations
    for (size_t i = 0; i < ops_.size(); ++i) {
      const ir::Op& op = *ops_[i];
      if (!op.location()) continue;
      auto [it, added] = matches.try_emplace(op.location(), false);
      if (added) it->second = api::opFromSourceLine(op, *line);
      if (it->second) out.push_back(static_cast<int>(i));
    }
    return out;
  }
  std::string needle;
  appendLower(needle, q);
  if (needle.find('\n') != std::string::npos) return out;
  const char* base = text_.data();
  const char* end = base + text_.size();
  const char* at = base;
  while (at < end) {
    const void* hit = memmem(at, static_cast<size_t>(end - at), needle.data(), needle.size());
    if (!hit) break;
    const auto pos = static_cast<uint32_t>(static_cast<const char*>(hit) - base);
    // The op whose line holds the hit; go on after that line.
    const auto it = std::upper_bound(starts_.begin(), starts_.end(), pos) - 1;
    const auto ordinal = static_cast<size_t>(it - starts_.begin());
    out.push_back(static_cast<int>(ordinal));
    at = ordinal + 1 < starts_.size() ? base + starts_[ordinal + 1] : end;
  }
  return out;
}

size_t OpSearchIndex::memoryBytes() const {
  return text_.capacity() + starts_.capacity() * sizeof(uint32_t) +
         ops_.capacity() * sizeof(const ir::Op*);
}

}  // namespace shardscope::widgets
