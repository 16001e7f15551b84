#include "ir/type_ref.h"

#include <mutex>
#include <unordered_set>

namespace shardscope::ir {

namespace {
void mix(size_t& h, size_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); }

struct Hash {
  size_t operator()(const Type& t) const { return hashType(t); }
};

struct Table {
  std::mutex mutex;
  // Set nodes never move, so the references handed out stay valid.
  std::unordered_set<Type, Hash> types;
};

Table& table() {
  static auto* t = new Table();  // never destroyed: values may outlive statics
  return *t;
}
}  // namespace

size_t hashType(const Type& t) {
  size_t h = static_cast<size_t>(t.kind) * 31 + (t.unranked ? 1 : 0);
  for (int64_t d : t.shape) mix(h, static_cast<size_t>(d));
  mix(h, std::hash<std::string>()(t.elementType));
  if (!t.encoding.empty()) mix(h, std::hash<std::string>()(t.encoding));
  if (!t.text.empty()) mix(h, std::hash<std::string>()(t.text));
  for (const Type& e : t.elements) mix(h, hashType(e));
  mix(h, t.results.size());
  for (const Type& r : t.results) mix(h, hashType(r));
  return h;
}

const Type& TypeRef::intern(const Type& t) {
  // Values made one after another mostly share a type (an op's operands
  // and results, a layer's ops): the type this thread interned last is
  // compared first, without the hash or the lock.
  thread_local const Type* last = nullptr;
  if (last && *last == t) return *last;
  Table& tb = table();
  std::lock_guard<std::mutex> lock(tb.mutex);
  last = &*tb.types.insert(t).first;
  return *last;
}

TypeRef::TypeRef() {
  static const Type* const empty = &intern(Type{});
  t_ = empty;
}

}  // namespace shardscope::ir
