#include "sharding/string_literal.h"

namespace shardscope {

void appendQuoted(std::string& out, std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  out += '"';
  for (unsigned char c : s) {
    // As MLIR prints strings: only the backslash keeps a backslash escape; a
    // quote, like any unprintable byte, is written in hex (\22).
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"' || c < 0x20 || c >= 0x7f) {
      out += '\\';
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
}

bool isBareIdentifier(std::string_view s) {
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (s.empty() || !(letter(s[0]) || s[0] == '_')) return false;
  for (char c : s)
    if (!(letter(c) || (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.')) return false;
  return true;
}

void appendName(std::string& out, std::string_view name) {
  if (isBareIdentifier(name))
    out += name;
  else
    appendQuoted(out, name);
}

}  // namespace shardscope
