// Where an op came from in the user's Python: its source line, the call
// stack around it and its name scope, read from the op's MLIR location
// (JAX writes one on every op of an exported module). A JAX user thinks
// in `model.py:41` and `transformer/layer_3/attention`, not in `%123`.
//
// Worked example, a module as JAX exports it:
//
//   %5 = stablehlo.dot_general %3, %4, ... loc(#loc9)
//   #loc1 = loc("model.py":41:12)
//   #loc2 = loc("train.py":88:4)
//   #loc5 = loc("Attention.__call__"(#loc1))
//   #loc6 = loc("main"(#loc2))
//   #loc7 = loc(callsite(#loc5 at #loc6))
//   #loc9 = loc("jit(f)/transformer/layer_3/attention/dot_general"(#loc7))
//
//   OpSource s = opSource(op5);
//   s.stack      == {{"model.py", 41, 12, "Attention.__call__"},
//                    {"train.py", 88, 4, "main"}}     // innermost first
//   s.frame()    -> model.py:41:12, the line that made the op
//   s.nameScope  == "jit(f)/transformer/layer_3/attention/dot_general"
//   s.scopePath  == {"jit(f)", "transformer", "layer_3", "attention"}
//   s.primitive  == "dot_general"
//
//   nameScopePath(op5) == s.scopePath    // for grouping the graph
//   opsAtSourceLine(module, *parseSourceLineQuery("model.py:41")) == {op5, ...}
//
// Ops without a location (or with `loc(unknown)`) give an empty OpSource.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ir/operation.h"

namespace shardscope::api {

// One Python frame: `file:line:column` in `function` ("" when the location
// names none).
struct SourceFrame {
  std::string file;
  uint32_t line = 0;
  uint32_t column = 0;
  std::string function;
  bool operator==(const SourceFrame&) const = default;
};
// "model.py:41:12", or "model.py:41" without a column.
std::string frameText(const SourceFrame& frame);

struct OpSource {
  // The call stack, innermost (the line that made the op) first. A fused
  // location gives the frames of each of its parts, in order.
  std::vector<SourceFrame> stack;
  // The op's name as JAX gives it: name scopes and the primitive, joined
  // by '/' ("" when the location has no name).
  std::string nameScope;
  // nameScope split at '/' (not inside brackets: `scatter[dims=(0/1)]`
  // stays whole), without the last part.
  std::vector<std::string> scopePath;
  // The last part without its parameters: "iota" for `iota[dtype=float32]`.
  std::string primitive;

  const SourceFrame* frame() const { return stack.empty() ? nullptr : &stack.front(); }
  bool empty() const { return stack.empty() && nameScope.empty(); }
};

OpSource opSource(const ir::Op& op);
// The same for block argument `index` of `block` (JAX names function
// arguments: `loc("x")`).
OpSource argumentSource(const ir::Block& block, unsigned index);

// Split a name scope at '/' outside brackets:
// "jit(f)/a/scatter[x=(1/2)]" -> {"jit(f)", "a", "scatter[x=(1/2)]"}.
std::vector<std::string> splitNameScope(std::string_view nameScope);

// OpSource::nameScope of `op` without reading its stack (cheap; points into
// the op's location).
std::string_view nameScopeOf(const ir::Op& op);

// The name-scope path of `op` (OpSource::scopePath). Many ops share a
// location: the cache splits each location's name once (for grouping a
// large function). Not thread-safe; one per thread.
class NameScopeCache {
 public:
  const std::vector<std::string>& scopePath(const ir::Op& op);

 private:
  std::unordered_map<const void*, std::vector<std::string>> byLocation_;
};
inline std::vector<std::string> nameScopePath(const ir::Op& op) { return opSource(op).scopePath; }
// Whether any op under `root` (a function, a module op) has a name scope
// with at least one '/' level: the graph can then be grouped by them.
bool hasNameScopes(const ir::Op& root);

// A search for the ops made by one Python line: "model.py:41" or
// "src/model.py:41:12" (the column is ignored). The file matches a frame
// whose path ends with it at a '/' ("model.py" finds "src/model.py", not
// "mymodel.py").
struct SourceLineQuery {
  std::string file;
  uint32_t line = 0;
};
// nullopt unless `text` reads FILE:LINE[:COL], FILE having a '.' or '/' or
// starting with '<' ("<string>"), so that a search for "%3" or "a:1" is
// not taken for one.
std::optional<SourceLineQuery> parseSourceLineQuery(std::string_view text);
bool frameMatches(const SourceFrame& frame, const SourceLineQuery& query);
// Whether a frame of `op`'s stack is on the query's line: the line made
// the op, directly or through calls.
bool opFromSourceLine(const ir::Op& op, const SourceLineQuery& query);
// Every op under `root` (pre-order, `root` included) from the query's line.
std::vector<const ir::Op*> opsAtSourceLine(const ir::Op& root, const SourceLineQuery& query);

}  // namespace shardscope::api
