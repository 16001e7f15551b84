#include "location.h"

#include <deque>
#include <mutex>
#include <unordered_set>

#include "attribute.h"

namespace shardscope::ir {

// One table for the process: readers on several threads (the GUI opens a
// file off the UI thread while a propagation reads another) share it.
struct LocationInterner {
  struct Hash {
    size_t operator()(const Location* l) const {
      size_t h = std::hash<std::string>()(l->text_);
      auto mix = [&h](size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
      mix(static_cast<size_t>(l->kind_));
      mix(l->line_);
      mix(l->column_);
      mix(l->endLine_);
      mix(l->endColumn_);
      mix(reinterpret_cast<size_t>(l->first_));
      mix(reinterpret_cast<size_t>(l->second_));
      for (const Location* c : l->locations_) mix(reinterpret_cast<size_t>(c));
      return h;
    }
  };
  struct Equal {
    bool operator()(const Location* a, const Location* b) const {
      return a->kind_ == b->kind_ && a->line_ == b->line_ && a->column_ == b->column_ &&
             a->endLine_ == b->endLine_ && a->endColumn_ == b->endColumn_ && a->first_ == b->first_ &&
             a->second_ == b->second_ && a->locations_ == b->locations_ && a->text_ == b->text_;
    }
  };

  std::mutex mutex;
  std::deque<Location> store;
  std::unordered_set<const Location*, Hash, Equal> set;

  static LocationInterner& get() {
    static auto* interner = new LocationInterner();  // never destroyed: ops may outlive statics
    return *interner;
  }

  const Location* intern(Location&& probe) {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = set.find(&probe); it != set.end()) return *it;
    store.push_back(std::move(probe));
    const Location* stored = &store.back();
    set.insert(stored);
    return stored;
  }

  static Location make(Location::Kind kind) {
    Location l;
    l.kind_ = kind;
    return l;
  }
  static void setText(Location& l, std::string_view t) { l.text_.assign(t); }
  static void setLines(Location& l, uint32_t line, uint32_t col, uint32_t endLine, uint32_t endCol) {
    l.line_ = line;
    l.column_ = col;
    l.endLine_ = endLine;
    l.endColumn_ = endCol;
  }
  static void setLinks(Location& l, const Location* a, const Location* b) {
    l.first_ = a;
    l.second_ = b;
  }
  static void setList(Location& l, std::vector<const Location*> list) { l.locations_ = std::move(list); }
};

const Location* Location::unknown() {
  static const Location* u = LocationInterner::get().intern(LocationInterner::make(Kind::Unknown));
  return u;
}

const Location* Location::fileLineCol(std::string_view file, uint32_t line, uint32_t column) {
  return fileRange(file, line, column, line, column);
}

const Location* Location::fileRange(std::string_view file, uint32_t line, uint32_t column,
                                    uint32_t endLine, uint32_t endColumn) {
  Location l = LocationInterner::make(Kind::FileLineCol);
  LocationInterner::setText(l, file);
  LocationInterner::setLines(l, line, column, endLine, endColumn);
  return LocationInterner::get().intern(std::move(l));
}

const Location* Location::name(std::string_view name, const Location* child) {
  Location l = LocationInterner::make(Kind::Name);
  LocationInterner::setText(l, name);
  LocationInterner::setLinks(l, child ? child : unknown(), nullptr);
  return LocationInterner::get().intern(std::move(l));
}

const Location* Location::callSite(const Location* callee, const Location* caller) {
  Location l = LocationInterner::make(Kind::CallSite);
  LocationInterner::setLinks(l, callee ? callee : unknown(), caller ? caller : unknown());
  return LocationInterner::get().intern(std::move(l));
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
  Location l = LocationInterner::make(Kind::Fused);
  LocationInterner::setText(l, metadata);
  LocationInterner::setList(l, std::move(flat));
  return LocationInterner::get().intern(std::move(l));
}

std::vector<const Location*> Location::children() const {
  switch (kind_) {
    case Kind::Name:
      if (first_->isUnknown()) return {};
      return {first_};
    case Kind::CallSite: return {first_, second_};
    case Kind::Fused: return locations_;
    default: return {};
  }
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
      out += quoteString(loc.file());
      out += ':' + std::to_string(loc.line()) + ':' + std::to_string(loc.column());
      if (loc.endLine() == loc.line() && loc.endColumn() == loc.column()) return;
      out += " to ";
      if (loc.endLine() != loc.line()) out += std::to_string(loc.endLine());
      out += ':' + std::to_string(loc.endColumn());
      return;
    case Location::Kind::Name:
      out += quoteString(loc.name());
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
      if (!loc.metadata().empty()) out += '<' + loc.metadata() + '>';
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
