#include "location.h"

#include <cstring>
#include <deque>
#include <mutex>
#include <vector>

#include "attribute.h"
#include "sharding/string_literal.h"

namespace shardscope::ir {

// One table for the process: readers on several threads (the GUI opens a
// file off the UI thread while a propagation reads another) share it.
//
// A module with JAX locations interns about one location per op (each op's
// name scope differs by its layer), so a lookup must not allocate: it
// probes with a Key of views (the name's text, the nested locations) and
// builds the stored Location only when the key is new.
struct LocationInterner {
  struct Key {
    Location::Kind kind = Location::Kind::Unknown;
    uint32_t line = 0, column = 0, endLine = 0, endColumn = 0;
    std::string_view text;
    const Location* first = nullptr;
    const Location* second = nullptr;
    const std::vector<const Location*>* locations = nullptr;  // Fused only
  };
  static Key keyOf(const Location& l) {
    return {l.kind_, l.line_, l.column_, l.endLine_, l.endColumn_, l.text(), l.first_, l.second_,
            l.locations_};
  }
  static size_t hashOf(const Key& k) {
    size_t h = std::hash<std::string_view>()(k.text);
    auto mix = [&h](size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
    mix(static_cast<size_t>(k.kind));
    mix(k.line);
    mix(k.column);
    mix(k.endLine);
    mix(k.endColumn);
    mix(reinterpret_cast<size_t>(k.first));
    mix(reinterpret_cast<size_t>(k.second));
    if (k.locations)
      for (const Location* c : *k.locations) mix(reinterpret_cast<size_t>(c));
    // Spread every bit into the low ones the table indexes by.
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 29);
  }
  static bool same(const Key& a, const Key& b) {
    auto list = [](const Key& k) { return k.locations ? k.locations->size() : size_t(0); };
    return a.kind == b.kind && a.line == b.line && a.column == b.column &&
           a.endLine == b.endLine && a.endColumn == b.endColumn && a.first == b.first &&
           a.second == b.second && a.text == b.text && list(a) == list(b) &&
           (list(a) == 0 || *a.locations == *b.locations);
  }
  // An open-addressing table of {hash, location}: a million distinct name
  // scopes went into a node-based set at 0.6 us each, most of it cache
  // misses walking bucket chains and rehashing nodes (perf at 1M ops). Here
  // a probe reads one 16-byte slot, compares the stored hash and looks at
  // the location only when the hashes agree, and growing moves slots
  // without hashing a name again.
  struct Slot {
    size_t hash = 0;
    const Location* loc = nullptr;
  };
  std::vector<Slot> slots = std::vector<Slot>(1024);
  size_t used = 0;

  // The slot holding `key`, or the empty one where it would go.
  Slot& slotFor(const Key& key, size_t hash) {
    const size_t mask = slots.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      Slot& s = slots[i];
      if (!s.loc || (s.hash == hash && same(key, keyOf(*s.loc)))) return s;
    }
  }
  void grow() {
    std::vector<Slot> old(slots.size() * 2);
    old.swap(slots);
    const size_t mask = slots.size() - 1;
    for (const Slot& s : old) {
      if (!s.loc) continue;
      size_t i = s.hash & mask;
      while (slots[i].loc) i = (i + 1) & mask;
      slots[i] = s;
    }
  }

  std::mutex mutex;
  std::deque<Location> store;
  std::deque<std::vector<const Location*>> fusedLists;

  // The texts of the locations, back to back in blocks that are never
  // freed: a heap block per name cost its malloc header and rounding, and
  // the call, 835,000 times at a million ops.
  static constexpr size_t kArenaBlock = size_t(1) << 20;
  char* arenaAt = nullptr;
  size_t arenaLeft = 0;
  const char* keepText(std::string_view text) {
    if (text.empty()) return "";
    if (text.size() > arenaLeft) {
      if (text.size() > kArenaBlock / 4) {  // a long one in a block of its own
        char* own = new char[text.size()];
        std::memcpy(own, text.data(), text.size());
        return own;
      }
      arenaAt = new char[kArenaBlock];
      arenaLeft = kArenaBlock;
    }
    char* at = arenaAt;
    std::memcpy(at, text.data(), text.size());
    arenaAt += text.size();
    arenaLeft -= text.size();
    return at;
  }

  static LocationInterner& get() {
    static auto* interner = new LocationInterner();  // never destroyed: ops may outlive statics
    return *interner;
  }

  // The stored location equal to `key`; new ones are built from it (the
  // fused list moved from `list` when given).
  const Location* intern(const Key& key, std::vector<const Location*>* list = nullptr) {
    const size_t hash = hashOf(key);
    std::lock_guard<std::mutex> lock(mutex);
    Slot* slot = &slotFor(key, hash);
    if (slot->loc) return slot->loc;
    if ((used + 1) * 4 > slots.size() * 3) {  // at most three quarters full
      grow();
      slot = &slotFor(key, hash);
    }
    Location& l = store.emplace_back();
    l.kind_ = key.kind;
    l.line_ = key.line;
    l.column_ = key.column;
    l.endLine_ = key.endLine;
    l.endColumn_ = key.endColumn;
    l.text_ = keepText(key.text);
    l.textSize_ = static_cast<uint32_t>(key.text.size());
    l.first_ = key.first;
    l.second_ = key.second;
    if (list) l.locations_ = &fusedLists.emplace_back(std::move(*list));
    *slot = {hash, &l};
    ++used;
    return &l;
  }
};

const Location* Location::unknown() {
  static const Location* u = LocationInterner::get().intern(LocationInterner::Key{});
  return u;
}

const Location* Location::fileLineCol(std::string_view file, uint32_t line, uint32_t column) {
  return fileRange(file, line, column, line, column);
}

const Location* Location::fileRange(std::string_view file, uint32_t line, uint32_t column,
                                    uint32_t endLine, uint32_t endColumn) {
  LocationInterner::Key k;
  k.kind = Kind::FileLineCol;
  k.text = file;
  k.line = line;
  k.column = column;
  k.endLine = endLine;
  k.endColumn = endColumn;
  return LocationInterner::get().intern(k);
}

const Location* Location::name(std::string_view name, const Location* child) {
  LocationInterner::Key k;
  k.kind = Kind::Name;
  k.text = name;
  k.first = child ? child : unknown();
  return LocationInterner::get().intern(k);
}

const Location* Location::callSite(const Location* callee, const Location* caller) {
  LocationInterner::Key k;
  k.kind = Kind::CallSite;
  k.first = callee ? callee : unknown();
  k.second = caller ? caller : unknown();
  return LocationInterner::get().intern(k);
}

const Location* Location::fused(const std::vector<const Location*>& locations, std::string_view metadata) {
  std::vector<const Location*> flat;
  auto add = [&flat](const Location* l) {
    for (const Location* seen : flat)
      if (seen == l) return;
    flat.push_back(l);
  };
  for (const Location* l : locations) {
    if (!l || l->isUnknown()) continue;
    if (l->kind() == Kind::Fused && l->metadata() == metadata) {
      for (const Location* inner : l->locations()) add(inner);
      continue;
    }
    add(l);
  }
  if (flat.empty()) {
    if (metadata.empty()) return unknown();
    flat.push_back(unknown());
  }
  if (flat.size() == 1 && metadata.empty()) return flat.front();
  LocationInterner::Key k;
  k.kind = Kind::Fused;
  k.text = metadata;
  k.locations = &flat;
  return LocationInterner::get().intern(k, &flat);
}

std::vector<const Location*> Location::children() const {
  switch (kind_) {
    case Kind::Name:
      if (first_->isUnknown()) return {};
      return {first_};
    case Kind::CallSite: return {first_, second_};
    case Kind::Fused: return locations();
    default: return {};
  }
}

const std::vector<const Location*>& Location::locations() const {
  static const std::vector<const Location*> none;
  return locations_ ? *locations_ : none;
}

namespace {

void writeNested(const Location& loc, std::string& out, const NestedLocationWriter& nested) {
  if (nested && nested(loc, out)) return;
  writeLocationText(loc, out, nested);
}

}  // namespace

void writeLocationText(const Location& loc, std::string& out, const NestedLocationWriter& nested) {
  switch (loc.kind()) {
    case Location::Kind::Unknown: out += "unknown"; return;
    case Location::Kind::FileLineCol:
      appendQuoted(out, loc.file());
      out += ':' + std::to_string(loc.line()) + ':' + std::to_string(loc.column());
      if (loc.endLine() == loc.line() && loc.endColumn() == loc.column()) return;
      out += " to ";
      if (loc.endLine() != loc.line()) out += std::to_string(loc.endLine());
      out += ':' + std::to_string(loc.endColumn());
      return;
    case Location::Kind::Name:
      appendQuoted(out, loc.name());
      if (!loc.child()->isUnknown()) {
        out += '(';
        writeNested(*loc.child(), out, nested);
        out += ')';
      }
      return;
    case Location::Kind::CallSite:
      out += "callsite(";
      writeNested(*loc.callee(), out, nested);
      out += " at ";
      writeNested(*loc.caller(), out, nested);
      out += ')';
      return;
    case Location::Kind::Fused: {
      out += "fused";
      if (!loc.metadata().empty()) {
        out += '<';
        out += loc.metadata();
        out += '>';
      }
      out += '[';
      bool first = true;
      for (const Location* l : loc.locations()) {
        if (!first) out += ", ";
        first = false;
        writeNested(*l, out, nested);
      }
      out += ']';
      return;
    }
  }
}

std::string locationText(const Location& loc) {
  std::string out;
  writeLocationText(loc, out);
  return out;
}

}  // namespace shardscope::ir
