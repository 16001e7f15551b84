#include "api/op_source.h"
#include "api/nested_name_scope.h"

#include <functional>

#include "ir/location.h"

namespace shardscope::api {

using ir::Location;

std::string frameText(const SourceFrame& frame) {
  std::string s = frame.file + ':' + std::to_string(frame.line);
  if (frame.column) s += ':' + std::to_string(frame.column);
  return s;
}

namespace {

// The frames of the stack part of a location, innermost first. A name
// wrapping a file location names the function of that frame.
void collectFrames(const Location& loc, std::vector<SourceFrame>& out) {
  switch (loc.kind()) {
    case Location::Kind::Unknown: return;
    case Location::Kind::FileLineCol:
      out.push_back({std::string(loc.file()), loc.line(), loc.column(), {}});
      return;
    case Location::Kind::Name: {
      size_t first = out.size();
      collectFrames(*loc.child(), out);
      if (out.size() > first && out[first].function.empty()) out[first].function = loc.name();
      return;
    }
    case Location::Kind::CallSite:
      collectFrames(*loc.callee(), out);
      collectFrames(*loc.caller(), out);
      return;
    case Location::Kind::Fused:
      for (const Location* l : loc.locations()) collectFrames(*l, out);
      return;
  }
}

// Whether `name` has a '/' outside brackets: a scope path, not one part.
bool hasScopeSeparator(std::string_view name) {
  int depth = 0;
  for (char c : name) {
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    if (c == '/' && depth == 0) return true;
  }
  return false;
}

// Whether a name under the op's name is JAX's name stack rather than a
// Python function: a stack has a transform (`jit(f)`, `transpose(jvp(f))`)
// or several parts; a Python function name (`main`, `Model.__call__`,
// `<module>`, `f.<locals>.g`) has neither '(' nor '/'.
bool looksLikeNameStack(std::string_view name) {
  return name.find('(') != std::string_view::npos || name.find('/') != std::string_view::npos;
}

// The outer names of a location are the op's name (JAX: its name scopes
// and primitive); a name ending in ':' is the op's kind ("add:"), not a
// scope. What is under them is the stack.
//
// JAX writes the name in one piece, `"jit(f)/mlp/add"(stack)`, except where
// it inlines a cached lowering into a scope whose location is a bare file
// line (the export back-compat modules of 2025-26): there the primitive
// wraps the scope, `"add"("jit(f)/mlp"("model.py":3:4))`. The two read the
// same: name scope "jit(f)/mlp/add", stack model.py:3:4 (not a frame "in
// jit(f)/mlp").
void readSource(const Location& loc, OpSource& out) {
  const Location* l = &loc;
  while (l->kind() == Location::Kind::Name) {
    const std::string_view n = l->name();
    if (!n.empty() && n.back() == ':') {
      l = l->child();
      continue;
    }
    if (!out.nameScope.empty()) break;  // a name under the op's name: a frame's function
    out.nameScope = n;
    l = l->child();
    if (!n.empty() && !hasScopeSeparator(n) && l->kind() == Location::Kind::Name &&
        looksLikeNameStack(l->name())) {
      out.nameScope = std::string(l->name()) + '/' + std::string(n);
      l = l->child();
    }
  }
  if (l->kind() == Location::Kind::Fused) {
    for (const Location* part : l->locations()) readSource(*part, out);
    return;
  }
  collectFrames(*l, out.stack);
}

OpSource sourceOf(const Location* loc) {
  OpSource s;
  if (!loc) return s;
  readSource(*loc, s);
  if (!s.nameScope.empty()) {
    std::vector<std::string> parts = splitNameScope(s.nameScope);
    s.primitive = parts.back();
    if (size_t b = s.primitive.find('['); b != std::string::npos) s.primitive.resize(b);
    parts.pop_back();
    s.scopePath = std::move(parts);
  }
  return s;
}

}  // namespace

OpSource opSource(const ir::Op& op) { return sourceOf(op.location()); }

OpSource argumentSource(const ir::Block& block, unsigned index) {
  return sourceOf(block.argumentLocation(index));
}

std::vector<std::string> splitNameScope(std::string_view nameScope) {
  std::vector<std::string> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < nameScope.size(); ++i) {
    char c = nameScope[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    if (c == '/' && depth == 0) {
      parts.emplace_back(nameScope.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.emplace_back(nameScope.substr(start));
  return parts;
}

std::string_view nameScopeOf(const ir::Op& op) {
  // readSource's first name without the stack: no strings are built (a
  // million ops are grouped and indexed by it). Of the nested form
  // `"add"("jit(f)"(...))` that is the primitive alone; its scope is
  // nestedNameScopeOf's.
  auto first = [](auto& self, const Location* l) -> std::string_view {
    while (l && l->kind() == Location::Kind::Name) {
      const std::string_view n = l->name();
      if (n.empty() || n.back() != ':') return n;
      l = l->child();
    }
    if (l && l->kind() == Location::Kind::Fused)
      for (const Location* part : l->locations())
        if (const std::string_view s = self(self, part); !s.empty()) return s;
    return {};
  };
  return first(first, op.location());
}

std::string_view nestedNameScopeOf(const ir::Op& op) {
  // The same test as readSource's, on the first name only (as nameScopeOf).
  auto nested = [](auto& self, const Location* l) -> std::string_view {
    while (l && l->kind() == Location::Kind::Name) {
      const std::string_view n = l->name();
      if (!n.empty() && n.back() == ':') {  // the op's kind ("add:"), not its name
        l = l->child();
        continue;
      }
      if (n.empty() || hasScopeSeparator(n)) return {};
      const Location* under = l->child();
      if (under && under->kind() == Location::Kind::Name && looksLikeNameStack(under->name()))
        return under->name();
      return {};
    }
    if (l && l->kind() == Location::Kind::Fused)
      for (const Location* part : l->locations())
        if (const std::string_view s = self(self, part); !s.empty()) return s;
    return {};
  };
  return nested(nested, op.location());
}

const std::vector<std::string>& NameScopeCache::scopePath(const ir::Op& op) {
  auto [it, added] = byLocation_.try_emplace(op.location());
  if (added) {
    if (const std::string_view nested = nestedNameScopeOf(op); !nested.empty()) {
      it->second = splitNameScope(nested);  // the primitive is outside it
    } else if (const std::string_view scope = nameScopeOf(op); !scope.empty()) {
      it->second = splitNameScope(scope);
      it->second.pop_back();  // the primitive
    }
  }
  return it->second;
}

bool hasNameScopes(const ir::Op& root) {
  // A '/' outside brackets in the op's name, looked for in place: a module
  // without scopes is walked to its end (a million ops), so nothing is
  // split or cached per op.
  bool found = false;
  const_cast<ir::Op&>(root).walkPreOrder([&](ir::Op& op) {
    if (!found && (hasScopeSeparator(nameScopeOf(op)) || !nestedNameScopeOf(op).empty())) found = true;
    return !found;
  });
  return found;
}

std::optional<SourceLineQuery> parseSourceLineQuery(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  auto trailingNumber = [](std::string_view& t, uint32_t& n) {
    size_t colon = t.rfind(':');
    if (colon == std::string_view::npos || colon + 1 == t.size() || t.size() - colon > 10) return false;
    uint64_t v = 0;
    for (char c : t.substr(colon + 1)) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    if (v == 0 || v > UINT32_MAX) return false;
    n = static_cast<uint32_t>(v);
    t = t.substr(0, colon);
    return true;
  };
  uint32_t last = 0, before = 0;
  if (!trailingNumber(text, last)) return std::nullopt;
  std::string_view withCol = text;
  uint32_t line = last;
  if (trailingNumber(withCol, before)) {  // FILE:LINE:COL
    line = before;
    text = withCol;
  }
  if (text.empty() || text.find_first_of(" \t") != std::string_view::npos) return std::nullopt;
  if (text.find_first_of("./") == std::string_view::npos && text.front() != '<') return std::nullopt;
  return SourceLineQuery{std::string(text), line};
}

bool frameMatches(const SourceFrame& frame, const SourceLineQuery& query) {
  if (frame.line != query.line || query.file.size() > frame.file.size()) return false;
  if (frame.file.compare(frame.file.size() - query.file.size(), query.file.size(), query.file) != 0)
    return false;
  size_t before = frame.file.size() - query.file.size();
  return before == 0 || frame.file[before - 1] == '/' || query.file.front() == '/';
}

bool opFromSourceLine(const ir::Op& op, const SourceLineQuery& query) {
  for (const SourceFrame& f : opSource(op).stack)
    if (frameMatches(f, query)) return true;
  return false;
}

std::vector<const ir::Op*> opsAtSourceLine(const ir::Op& root, const SourceLineQuery& query) {
  std::vector<const ir::Op*> found;
  std::unordered_map<const Location*, bool> matches;  // ops share locations
  const_cast<ir::Op&>(root).walkPreOrder([&](ir::Op& op) {
    if (!op.location()) return true;
    auto [it, added] = matches.try_emplace(op.location(), false);
    if (added) it->second = opFromSourceLine(op, query);
    if (it->second) found.push_back(&op);
    return true;
  });
  return found;
}

}  // namespace shardscope::api
