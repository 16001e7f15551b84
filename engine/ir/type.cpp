#include "ir/type.h"

#include <charconv>

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
  std::string s;
  print(s);
  return s;
}

void Type::print(std::string& out) const {
  switch (kind) {
    case Kind::Tensor: {
      out += "tensor<";
      if (unranked) {
        out += "*x";
      } else {
        for (int64_t d : shape) {
          if (d < 0) {
            out += '?';
          } else {
            char buf[24];
            out.append(buf, std::to_chars(buf, buf + sizeof buf, d).ptr);
          }
          out += 'x';
        }
      }
      out += elementType;
      if (!encoding.empty()) {
        out += ", ";
        out += encoding;
      }
      out += '>';
      return;
    }
    case Kind::Token:
      out += "!stablehlo.token";
      return;
    case Kind::Tuple:
      out += "tuple<";
      printTypeList(elements, out);
      out += '>';
      return;
    case Kind::Function: {
      out += '(';
      printTypeList(elements, out);
      out += ") -> ";
      if (results.size() == 1 && results[0].kind != Kind::Function) return results[0].print(out);
      out += '(';
      printTypeList(results, out);
      out += ')';
      return;
    }
    case Kind::Other:
      out += text;
      return;
  }
  out += text;
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
  printTypeList(types, s);
  return s;
}

void printTypeList(const std::vector<Type>& types, std::string& out) {
  for (size_t i = 0; i < types.size(); ++i) {
    if (i) out += ", ";
    types[i].print(out);
  }
}

}  // namespace shardscope::ir
