// Where an op came from: MLIR's location, the `loc(...)` written after an
// op or a block argument. JAX writes the Python line and the name scope of
// every op there:
//
//   %3 = stablehlo.dot_general ... loc(#loc7)
//   #loc2 = loc("model.py":41:12)                     FileLineCol
//   #loc5 = loc("Block.__call__"(#loc2))              Name with a child
//   #loc6 = loc(callsite(#loc5 at #loc4))             CallSite: frame at caller
//   #loc7 = loc("jit(f)/layer_3/attention/dot_general"(#loc6))
//   loc(fused["a.py":1:2, "b.py":3:4])                Fused
//   loc(unknown)                                      Unknown
//
// Locations are values: equal ones are one object for the whole process
// (as MLIR's context uniques them), so an op holds one pointer and a
// million ops from a few hundred Python lines share a few hundred objects.
// They are never freed (a module read again finds its old ones).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::ir {

// Each interned location is 56 bytes and its text sits in one character
// arena, not a std::string of its own: a module with JAX name scopes holds
// about 835,000 of them at a million ops, and fresh memory is what its
// reading spends most on (perf: a quarter of the time clearing new pages).
class Location {
 public:
  enum class Kind : uint8_t { Unknown, FileLineCol, Name, CallSite, Fused };

  Kind kind() const { return kind_; }
  bool isUnknown() const { return kind_ == Kind::Unknown; }

  // FileLineCol: `"model.py":12:3`, or a range `"model.py":12:3 to :20`
  // (same line) or `"model.py":12:3 to 14:2`. Without a range the end is
  // the start.
  std::string_view file() const { return text(); }
  uint32_t line() const { return line_; }
  uint32_t column() const { return column_; }
  uint32_t endLine() const { return endLine_; }
  uint32_t endColumn() const { return endColumn_; }

  // Name: `"name"` or `"name"(child)`; child() is unknown() when none.
  std::string_view name() const { return text(); }
  const Location* child() const { return first_; }

  // CallSite: `callsite(callee at caller)`; the callee is the inner frame.
  const Location* callee() const { return first_; }
  const Location* caller() const { return second_; }

  // Fused: `fused<metadata>[a, b]`; metadata() is its attribute text, "" when none.
  std::string_view metadata() const { return text(); }
  const std::vector<const Location*>& locations() const;

  // The locations directly inside this one, in the order MLIR writes them
  // (a Name's unknown child is not written, so not listed).
  std::vector<const Location*> children() const;

  // ---- builders (all interned) ----
  static const Location* unknown();
  static const Location* fileLineCol(std::string_view file, uint32_t line, uint32_t column);
  static const Location* fileRange(std::string_view file, uint32_t line, uint32_t column,
                                   uint32_t endLine, uint32_t endColumn);
  static const Location* name(std::string_view name, const Location* child = nullptr);
  static const Location* callSite(const Location* callee, const Location* caller);
  // As MLIR builds a fused location: fused ones inside with the same
  // metadata are flattened, unknown ones and repeats dropped; none left
  // gives unknown() (without metadata), a single one is itself.
  static const Location* fused(const std::vector<const Location*>& locations,
                               std::string_view metadata = {});

  // Use the builders; a default Location is an unknown one not interned.
  Location() = default;

 private:
  friend struct LocationInterner;
  std::string_view text() const { return {text_, textSize_}; }
  Kind kind_ = Kind::Unknown;
  uint32_t textSize_ = 0;
  const char* text_ = "";  // in the interner's arena, never freed
  uint32_t line_ = 0, column_ = 0, endLine_ = 0, endColumn_ = 0;
  const Location* first_ = nullptr;
  const Location* second_ = nullptr;
  const std::vector<const Location*>* locations_ = nullptr;  // Fused only (interned, never freed)
};

// The text inside `loc(...)`, every nested location written out:
//   "jit(f)/add"("model.py":3:8)   callsite("f"("a.py":1:2) at "b.py":5:1)
std::string locationText(const Location& loc);
// The same into `out`; `nested(loc, out)` may write a nested location
// otherwise (the printer writes an alias, `#loc3`) and returns whether it did.
using NestedLocationWriter = std::function<bool(const Location&, std::string&)>;
void writeLocationText(const Location& loc, std::string& out,
                       const NestedLocationWriter& nested = nullptr);

}  // namespace shardscope::ir
