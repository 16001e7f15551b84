#include "location_alias_table.h"

namespace shardscope::ir {

namespace {

// A slot this far past the numbered ones defined so far goes to the map:
// the vector grows with what the file defines, not with the largest
// number it spells.
constexpr int64_t kSlack = 1 << 16;
constexpr int64_t kMaxSlot = int64_t(1) << 26;

}  // namespace

int64_t LocationAliasTable::slotOf(std::string_view name) {
  constexpr std::string_view prefix = "loc";
  if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix) return -1;
  const std::string_view digits = name.substr(prefix.size());
  // `loc07` is another name than `loc7`; ten digits are past kMaxSlot.
  if (digits.size() > 9 || (digits.size() > 1 && digits.front() == '0')) return -1;
  int64_t n = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return -1;
    n = n * 10 + (c - '0');
  }
  return n;
}

const Location* LocationAliasTable::find(std::string_view name) const {
  const int64_t slot = slotOf(name);
  if (slot >= 0 && slot < int64_t(numbered_.size()) && numbered_[size_t(slot)])
    return numbered_[size_t(slot)];
  if (named_.empty()) return nullptr;
  auto it = named_.find(name);
  return it == named_.end() ? nullptr : it->second;
}

void LocationAliasTable::define(std::string_view name, const Location* loc) {
  const int64_t slot = slotOf(name);
  if (slot >= 0 && slot < kMaxSlot && slot < int64_t(numbered_.size()) + kSlack) {
    if (slot >= int64_t(numbered_.size())) numbered_.resize(size_t(slot) + 1, nullptr);
    numbered_[size_t(slot)] = loc;
    return;
  }
  named_[name] = loc;
}

}  // namespace shardscope::ir
