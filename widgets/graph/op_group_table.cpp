#include "graph/op_group_table.h"

#include <algorithm>
#include <bit>

namespace shardscope::widgets {

size_t OpGroupTable::home(const ir::Op* op) const {
  // Fibonacci hashing: ops sit in pools a fixed stride apart, and the
  // multiply spreads neighbouring addresses over the whole table.
  return size_t((uint64_t(reinterpret_cast<uintptr_t>(op)) * 0x9E3779B97F4A7C15ULL) >> shift_);
}

void OpGroupTable::reserve(size_t count) {
  const size_t wanted = std::bit_ceil(std::max<size_t>(16, count * 2));
  if (wanted > slots_.size()) grow(wanted);
}

void OpGroupTable::grow(size_t capacity) {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(capacity, Slot{});
  shift_ = 64 - std::countr_zero(capacity);
  size_ = 0;
  for (const Slot& s : old)
    if (s.op) emplace(s.op, s.group);
}

void OpGroupTable::emplace(const ir::Op* op, int group) {
  if (!op) return;
  if ((size_ + 1) * 2 > slots_.size()) grow(std::max<size_t>(16, slots_.size() * 2));
  const size_t mask = slots_.size() - 1;
  for (size_t i = home(op);; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.op == op) return;
    if (!s.op) {
      s = {op, group};
      ++size_;
      return;
    }
  }
}

int OpGroupTable::find(const ir::Op* op) const {
  if (slots_.empty() || !op) return -1;
  const size_t mask = slots_.size() - 1;
  for (size_t i = home(op);; i = (i + 1) & mask) {
    const Slot& s = slots_[i];
    if (s.op == op) return s.group;
    if (!s.op) return -1;
  }
}

}  // namespace shardscope::widgets
