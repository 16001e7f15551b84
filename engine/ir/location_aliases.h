// The `#loc` names the writer gives locations with -mlir-print-debuginfo,
// numbered and placed as mlir-opt does, so that our output matches its:
//
//   #loc1 = loc("x")                       used by a block argument: before
//   module {                               the module (MLIR writes argument
//     func.func @f(%arg0: f32 loc("x")) {  locations inline but names them)
//       %0 = ... loc(#loc4)
//     } loc(#loc)
//   } loc(#loc)
//   #loc = loc(unknown)                    only ops use them: after the module
//   #loc2 = loc("m.py":3:8)
//   #loc3 = loc("f"(#loc2))
//   #loc4 = loc(callsite(#loc3 at #loc2))
//
// Every location met gets a name. Names are given in the order the
// locations were met, those holding others after those they hold (by
// nesting depth: a file location before the name around it, before the
// call site around that); the first is `#loc`, then `#loc1`, `#loc2`, ...
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

#include "location.h"

namespace shardscope::ir {

class LocationAliases {
 public:
  // Meet `loc` (and the locations in it) in printing order. `deferrable`:
  // only an op uses it, so its definition may follow the module; a block
  // argument's location (and all in it) is defined before.
  void meet(const Location* loc, bool deferrable);
  // Give the names; meet nothing after this.
  void name();
  // "loc3" for a location met, "" for others.
  const std::string& aliasOf(const Location* loc) const;
  // `loc(...)` of `loc` with the locations inside it by name.
  std::string inlineText(const Location& loc) const;
  // The `#locN = loc(...)` lines before / after the module, each ending in '\n'.
  std::string definitions(bool beforeModule) const;

 private:
  struct Entry {
    const Location* loc;
    unsigned depth = 1;
    bool deferrable = true;
    std::vector<size_t> children;
    std::string alias;
  };
  // {depth, index} of `loc`'s entry.
  std::pair<unsigned, size_t> visit(const Location* loc, bool deferrable);
  void markNotDeferrable(size_t index);
  std::vector<Entry> entries_;
  std::unordered_map<const Location*, size_t> index_;
  std::vector<size_t> named_;  // entries in name order
};

}  // namespace shardscope::ir
