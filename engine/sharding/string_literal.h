// MLIR's spelling of names and strings, shared by every printer (axis names
// in meshes and shardings, attribute names, op names, string attributes), so
// that what is printed reads back:
//
//   appendQuoted(out, "a\\b\n")   ->  "a\\b\0A"
//   appendName(out, "sdy.sharding") -> sdy.sharding      (a bare identifier)
//   appendName(out, ",y")           -> ",y"              (anything else quoted)
#pragma once
#include <string>
#include <string_view>

namespace shardscope {

// Appends `s` in double quotes as MLIR prints strings: `\` doubled, `"`,
// control and non-ASCII bytes as `\XX` (hex: a quote is `\22`, a newline `\0A`).
void appendQuoted(std::string& out, std::string_view s);

// True for an MLIR bare identifier: (letter | `_`) (letter | digit | `_` | `$` | `.`)*.
bool isBareIdentifier(std::string_view s);

// Appends `name` bare when it is a bare identifier, else quoted (attribute
// dictionary keys).
void appendName(std::string& out, std::string_view name);

}  // namespace shardscope
