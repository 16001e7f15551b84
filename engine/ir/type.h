// MLIR types as the engine needs them: ranked tensors with static or dynamic
// dims, tokens, tuples, and anything else kept as text.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace shardscope::ir {

struct Type {
  enum class Kind { Tensor, Token, Tuple, Function, Other };
  static constexpr int64_t kDynamic = -1;

  Kind kind = Kind::Other;
  std::vector<int64_t> shape;   // Tensor: dims (kDynamic for `?`)
  bool unranked = false;        // Tensor: `tensor<*xf32>`
  std::string elementType;      // Tensor: "f32", "i1", "complex<f32>", ...
  std::string encoding;         // Tensor: raw text after the element type, if any
  std::vector<Type> elements;   // Tuple; Function: inputs
  std::vector<Type> results;    // Function: results
  std::string text;             // Other: the type exactly as written ("i32", "!foo.bar<...>")

  bool operator==(const Type&) const = default;
  bool isTensor() const { return kind == Kind::Tensor; }
  bool isToken() const { return kind == Kind::Token; }
  bool isRankedTensor() const { return kind == Kind::Tensor && !unranked; }
  bool hasStaticShape() const;
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  int64_t numElements() const;  // product of dims (static shapes only)
  // Shaped types can carry a sharding of their rank; others (tokens, scalars
  // like `i32`) only rank 0.
  bool isShaped() const { return kind == Kind::Tensor; }
  std::string str() const;  // `tensor<4x8xf32>`
  void print(std::string& out) const;  // the same, appended to `out`

  static Type tensor(std::vector<int64_t> shape, std::string elementType);
  static Type token();
  static Type other(std::string text);
  static Type function(std::vector<Type> inputs, std::vector<Type> results);
};

// `tensor<4x8xf32>, tensor<f32>`.
std::string strTypeList(const std::vector<Type>& types);
void printTypeList(const std::vector<Type>& types, std::string& out);

}  // namespace shardscope::ir
