// The reader's table of `#name = loc(...)` definitions, by name.
//
//   #loc = loc(unknown)                        -> map      "loc"
//   #loc7 = loc("model.py":41:12)              -> numbered slot 7
//   #loc8 = loc("jit(f)/layer_3/add"(#loc7))   -> numbered slot 8 (finds #loc7 at slot 7)
//   #my_loc = loc("x")                         -> map      "my_loc"
//
// JAX writes one alias per op, named `#loc` and a number, so a module of a
// million ops defines about as many; every op's `loc(#locN)` and every
// nested `(#locM)` is a lookup. A hash map of string views spends most of
// that in cache misses on its scattered nodes; the numbered names go into a
// vector indexed by their number instead (one load each). Other names, and
// numbers far past those defined so far (`#loc999999999`, which would make
// the vector huge) or spelled with a leading zero (`#loc07` is not
// `#loc7`), stay in the map. Names are views of the source text, which
// outlives the table.
#pragma once
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace shardscope::ir {

class Location;

class LocationAliasTable {
 public:
  // The location named `name`, or nullptr when none is defined.
  const Location* find(std::string_view name) const;
  bool contains(std::string_view name) const { return find(name) != nullptr; }
  // Define `name` (not defined before: the reader checks that first).
  void define(std::string_view name, const Location* loc);

 private:
  // The number N of a name `locN` spelled canonically, or -1.
  static int64_t slotOf(std::string_view name);
  std::vector<const Location*> numbered_;
  std::unordered_map<std::string_view, const Location*> named_;
};

}  // namespace shardscope::ir
