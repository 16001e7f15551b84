#include "location_aliases.h"

#include <algorithm>

namespace shardscope::ir {

void LocationAliases::meet(const Location* loc, bool deferrable) {
  if (loc) visit(loc, deferrable);
}

std::pair<unsigned, size_t> LocationAliases::visit(const Location* loc, bool deferrable) {
  if (auto it = index_.find(loc); it != index_.end()) {
    if (!deferrable) markNotDeferrable(it->second);
    return {entries_[it->second].depth, it->second};
  }
  // The holder is met before what it holds (MLIR's order); its depth is
  // known once they are.
  size_t index = entries_.size();
  index_.emplace(loc, index);
  entries_.push_back({loc, 1, deferrable, {}, {}});
  unsigned deepest = 0;
  std::vector<size_t> children;
  for (const Location* child : loc->children()) {
    auto [depth, childIndex] = visit(child, deferrable);
    deepest = std::max(deepest, depth);
    children.push_back(childIndex);
  }
  Entry& e = entries_[index];
  e.children = std::move(children);
  if (deepest) e.depth = deepest + 1;
  return {e.depth, index};
}

void LocationAliases::markNotDeferrable(size_t index) {
  if (!entries_[index].deferrable) return;  // and so are all it holds
  entries_[index].deferrable = false;
  for (size_t child : entries_[index].children) markNotDeferrable(child);
}

void LocationAliases::name() {
  named_.resize(entries_.size());
  for (size_t i = 0; i < named_.size(); ++i) named_[i] = i;
  std::stable_sort(named_.begin(), named_.end(),
                   [this](size_t a, size_t b) { return entries_[a].depth < entries_[b].depth; });
  for (size_t n = 0; n < named_.size(); ++n)
    entries_[named_[n]].alias = n == 0 ? std::string("loc") : "loc" + std::to_string(n);
}

const std::string& LocationAliases::aliasOf(const Location* loc) const {
  static const std::string none;
  auto it = index_.find(loc);
  return it == index_.end() ? none : entries_[it->second].alias;
}

std::string LocationAliases::inlineText(const Location& loc) const {
  std::string out = "loc(";
  writeLocationText(loc, out, [this](const Location& nested, std::string& o) {
    const std::string& alias = aliasOf(&nested);
    if (alias.empty()) return false;
    o += '#';
    o += alias;
    return true;
  });
  out += ')';
  return out;
}

std::string LocationAliases::definitions(bool beforeModule) const {
  std::string out;
  for (size_t i : named_) {
    const Entry& e = entries_[i];
    if (e.deferrable == beforeModule) continue;
    out += '#' + e.alias + " = " + inlineText(*e.loc) + '\n';
  }
  return out;
}

}  // namespace shardscope::ir
