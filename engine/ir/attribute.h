// MLIR attributes. sdy attributes are held as sharding-model values; the
// common builtin attributes are structured; anything else is kept as its text.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "node_pool.h"
#include "propagation_edges.h"
#include "sharding/sharding.h"
#include "type.h"

namespace shardscope::ir {

class Attribute;
using NamedAttribute = std::pair<std::string, Attribute>;

struct UnitAttr { bool operator==(const UnitAttr&) const = default; };
struct BoolAttr { bool value = false; bool operator==(const BoolAttr&) const = default; };
// `5 : i64`; `type` is the MLIR type text ("i64", "i32", "index", "ui8").
struct IntegerAttr {
  int64_t value = 0;
  std::string type = "i64";
  bool operator==(const IntegerAttr&) const = default;
};
// `1.000000e+00 : f32`; `text` is the literal as MLIR prints it.
struct FloatAttr {
  double value = 0;
  std::string type = "f64";
  bool operator==(const FloatAttr&) const = default;
};
struct StringAttr { std::string value; bool operator==(const StringAttr&) const = default; };
// `@a` or `@a::@b`: the nested names without '@'.
struct SymbolRefAttr {
  std::vector<std::string> path;
  bool operator==(const SymbolRefAttr&) const = default;
  const std::string& root() const { return path.front(); }
};
struct ArrayAttr;
struct DictionaryAttr;
// `array<i64: 1, 2>`.
struct DenseArrayAttr {
  std::string elementType = "i64";
  std::vector<int64_t> values;  // integers and bools (as 0/1)
  bool operator==(const DenseArrayAttr&) const = default;
};
struct TypeAttr { Type type; bool operator==(const TypeAttr&) const = default; };
// `#dialect<enum VALUE>`, e.g. `#stablehlo<comparison_direction LT>`.
struct EnumAttr {
  std::string dialect;  // "stablehlo"
  std::string kind;     // "comparison_direction"
  std::string value;    // "LT"
  bool operator==(const EnumAttr&) const = default;
};
// `#dialect.name<key = value, ...>`, e.g. `#stablehlo.dot<lhs_batching_dimensions = [0], ...>`.
struct StructAttr;
// Anything else, kept verbatim (`dense<...> : tensor<...>`, `#foo.bar<...>`).
struct OpaqueAttr { std::string text; bool operator==(const OpaqueAttr&) const = default; };

// `#sdy.mesh<[...]>` is held as a Mesh; `#sdy.manual_axes<{"a"}>` as ManualAxes.
struct ManualAxesAttr {
  std::vector<std::string> axes;
  bool operator==(const ManualAxesAttr&) const = default;
};
// `#sdy<axis_ref_list[...]>`-like lists; also `{"a", "b"}` in custom op syntax.
struct AxisRefListAttr {
  AxisRefList axes;
  bool operator==(const AxisRefListAttr&) const = default;
};
// One axis list per tensor dimension, the axes a collective works on
// (`gathering_axes` of `sdy.all_gather`): `[{}, {"x"}]` in custom op syntax,
// `#sdy<list_of_axis_ref_lists[{}, {"x"}]>` generically.
struct AxisRefListsAttr {
  std::vector<AxisRefList> perDim;
  bool operator==(const AxisRefListsAttr&) const = default;
};
// The `params` of `sdy.all_to_all`: each moves `axes` from the end of
// dimension `srcDim`'s sharding to the end of `tgtDim`'s.
// `[{"x"}: 0->2, {"y"}: 1->3]` in custom op syntax.
struct AllToAllParam {
  AxisRefList axes;
  int64_t srcDim = 0;
  int64_t tgtDim = 0;
  bool operator==(const AllToAllParam&) const = default;
};
struct AllToAllParamsAttr {
  std::vector<AllToAllParam> params;
  bool operator==(const AllToAllParamsAttr&) const = default;
};

class Attribute {
 public:
  using Value = std::variant<UnitAttr, BoolAttr, IntegerAttr, FloatAttr, StringAttr, SymbolRefAttr,
                             std::shared_ptr<const ArrayAttr>, std::shared_ptr<const DictionaryAttr>,
                             DenseArrayAttr, TypeAttr, EnumAttr, std::shared_ptr<const StructAttr>,
                             OpaqueAttr, TensorSharding, TensorShardingPerValue, Mesh, OpShardingRule,
                             ManualAxesAttr, AxisRefListAttr, AxisRefListsAttr,
                             AllToAllParamsAttr, PropagationEdgesAttr>;

  // The shared values come from the node pools (node_pool.h): an op's
  // attributes then lie near its neighbours' rather than anywhere in the heap.
  // All unit attributes share one value: a default-constructed Attribute
  // (a placeholder about to be assigned, most often) allocates nothing.
  Attribute() : v_(unitValue()) {}
  template <typename T>
  Attribute(T value)
      : v_(std::allocate_shared<const Value>(detail::PoolAllocator<Value>(),
                                             Value(std::move(value)))) {}

  const Value& value() const { return *v_; }
  template <typename T> bool is() const { return std::holds_alternative<T>(*v_); }
  template <typename T> const T* as() const { return std::get_if<T>(v_.get()); }

  // Convenience accessors (nullptr when the attribute is of another kind).
  const ArrayAttr* array() const;
  const DictionaryAttr* dict() const;
  const StructAttr* structAttr() const;
  std::optional<int64_t> integer() const;  // IntegerAttr or BoolAttr
  const std::string* string() const;       // StringAttr

  static Attribute makeArray(std::vector<Attribute> elems);
  static Attribute makeDict(std::vector<NamedAttribute> entries);  // sorted by name
  static Attribute makeStruct(std::string name, std::vector<NamedAttribute> params);

  // Text as MLIR prints it (`#sdy.sharding<...>`, `[1, 2]`, `"s"`, `5 : i64`).
  std::string str() const;
  // The same text, appended to `out`.
  void print(std::string& out) const;
  bool operator==(const Attribute& o) const;

 private:
  static const std::shared_ptr<const Value>& unitValue();
  std::shared_ptr<const Value> v_;
};

struct ArrayAttr {
  std::vector<Attribute> elems;
  bool operator==(const ArrayAttr&) const = default;
};
// Entries kept sorted by name, as MLIR's DictionaryAttr does.
struct DictionaryAttr {
  std::vector<NamedAttribute> entries;
  bool operator==(const DictionaryAttr&) const = default;
  const Attribute* get(std::string_view name) const;  // string_view: no string built per lookup
};
struct StructAttr {
  std::string name;  // "stablehlo.dot"
  std::vector<NamedAttribute> params;  // in written order
  bool operator==(const StructAttr&) const = default;
  const Attribute* get(std::string_view key) const;
};

// Print a dense i64 list as `[1, 2, 3]`.
std::string strIntList(const std::vector<int64_t>& values);
// Integer list from an ArrayAttr of integers, a DenseArrayAttr or an opaque `dense<[..]>`.
std::optional<std::vector<int64_t>> intListOf(const Attribute& attr);
// A float as MLIR prints it: `1.000000e+00`, or full precision when six
// digits do not round-trip.
std::string formatMlirFloat(double v);
// The canonical spelling of a `dense<...>` body (angle brackets included) for
// elements of `elementType`: floats in MLIR's form, and a list whose elements
// are all equal folded to its splat (`<[1.0, 1.0]>` -> `<1.000000e+00>`).
std::string canonicalDenseBody(const std::string& body, const std::string& elementType);
// Where in a `dense<...>` body the first number runs on past its end
// (`0.5e+000.5`: MLIR's lexer stops after `0.5e+000`) or is followed by
// something other than `,`, `]` or `>`, or npos when every number is whole.
// Bodies canonicalDenseBody keeps as written are not looked at.
size_t malformedDenseNumber(const std::string& body);
// `[{}, {"x"}]`: the custom op syntax of an AxisRefListsAttr, appended to `out`.
void printAxisRefLists(const AxisRefListsAttr& lists, std::string& out);
// `[{"x"}: 0->2, {"y"}: 1->3]`: the custom op syntax of all-to-all params.
void printAllToAllParams(const AllToAllParamsAttr& params, std::string& out);
// What MLIR's reader says about a `dense<...>` body (angle brackets
// included) for a tensor of `shape` and `elementType`, or "" when it fits:
//   dense<[1.0, 2.0]> : tensor<3xf32>
//     -> "inferred shape of elements literal ([2]) does not match type ([3])"
//   dense<[1e26]> : tensor<1xi8>
//     -> "expected integer elements, but parsed floating-point"
// A single value is a splat and fits any shape. Bodies canonicalDenseBody
// keeps as written are not looked at.
std::string denseLiteralProblem(const std::string& body, const std::vector<int64_t>& shape,
                                const std::string& elementType);
// MLIR string literal with escapes: `"a\22b"`.
std::string quoteString(const std::string& s);

}  // namespace shardscope::ir
