// What the reader and writer know about op syntax: which attributes are an
// op's own (inherent), which names the writer gives results and arguments.
#pragma once
#include <string>
#include <string_view>

namespace shardscope::ir {

// Is `attr` an inherent attribute (MLIR property) of op `opName`? Used to
// split `<{...}>` from `{...}` in the generic form and to keep a custom
// format's own attributes out of its trailing attribute dictionary.
bool isInherentAttr(std::string_view opName, std::string_view attr);

// Ops whose region bodies are not isolated from the enclosing function's
// value names (everything except func.func and module).
bool isIsolatedFromAbove(std::string_view opName);

}  // namespace shardscope::ir
