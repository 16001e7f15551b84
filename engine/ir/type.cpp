#include "ir/type.h"

namespace shardscope::ir {

bool Type::hasStaticShape() const {
  if (kind != Kind::Tensor || unranked) return false;
  for (int64_t d : shape)
    if (d < 0) return false;
  return true;
}

int64_t Type::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::string Type::str() const {
  switch (kind) {
    case Kind::Tensor: {
      std::string s = "tensor<";
      if (unranked) {
        s += "*x";
      } else {
        for (int64_t d : shape) {
          s += d < 0 ? std::string("?") : std::to_string(d);
          s += 'x';
        }
      }
      s += elementType;
      if (!encoding.empty()) s += ", " + encoding;
      return s + '>';
    }
    case Kind::Token:
      return "!stablehlo.token";
    case Kind::Tuple:
      return "tuple<" + strTypeList(elements) + '>';
    case Kind::Function: {
      std::string s = "(" + strTypeList(elements) + ") -> ";
      if (results.size() == 1 && results[0].kind != Kind::Function) return s + results[0].str();
      return s + "(" + strTypeList(results) + ")";
    }
    case Kind::Other:
      return text;
  }
  return text;
}

Type Type::tensor(std::vector<int64_t> shape, std::string elementType) {
  Type t;
  t.kind = Kind::Tensor;
  t.shape = std::move(shape);
  t.elementType = std::move(elementType);
  return t;
}

Type Type::token() {
  Type t;
  t.kind = Kind::Token;
  return t;
}

Type Type::other(std::string text) {
  Type t;
  t.kind = Kind::Other;
  t.text = std::move(text);
  return t;
}

Type Type::function(std::vector<Type> inputs, std::vector<Type> results) {
  Type t;
  t.kind = Kind::Function;
  t.elements = std::move(inputs);
  t.results = std::move(results);
  return t;
}

std::string strTypeList(const std::vector<Type>& types) {
  std::string s;
  for (size_t i = 0; i < types.size(); ++i) {
    if (i) s += ", ";
    s += types[i].str();
  }
  return s;
}

}  // namespace shardscope::ir
