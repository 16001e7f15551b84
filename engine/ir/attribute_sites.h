// Where the reader found each attribute of an op, so that a problem in an
// attribute can be shown at the attribute (and at the axis inside it)
// rather than at the start of its op.
//
// sdy_opt reports every verifier error at the op, and `-verify-diagnostics`
// cases check exactly that location, so the verifier only uses these sites
// when asked (the CLI without `-verify-diagnostics`, the GUI). Example:
//
//   func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}]>})
//
// records the site `arg_attrs/0/sdy.sharding` of the op at 1:1, and
// `locate(1:1, "arg_attrs/0/sdy.sharding", {.token = "\"c\""})` is the
// column of `"c"` on that line.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "ir/diagnostics.h"

namespace shardscope::ir {

// What to point at inside an attribute's text.
struct SiteTarget {
  // Narrow to the N-th (0-based) element of the attribute's outermost `[...]`
  // list first (one sharding of a `sdy.sharding_per_value` or `in_shardings`).
  std::optional<size_t> element;
  // Then the text to find (an axis as written, `"c"`); empty: the element or
  // attribute itself. `occurrence` counts from 1 (2: a duplicate's second spelling).
  std::string token;
  int occurrence = 1;
};

class AttributeSites {
 public:
  // Sites index into `text`, the text being read (it must outlive lookups).
  explicit AttributeSites(std::string_view text = {}) : text_(text) {}
  void setText(std::string_view text) { text_ = text; }

  // The attribute `key` of the op starting at `op`: its value spans
  // [begin, end) of the text and starts at `at`. Keys are attribute names;
  // a function's argument and result attributes are `arg_attrs/I/NAME` and
  // `res_attrs/I/NAME` (see argAttrKey).
  void add(SourceLoc op, std::string key, size_t begin, size_t end, SourceLoc at);

  // Where `target` is in the attribute `key` of the op at `op`; unknown when
  // the reader recorded no such attribute. Falls back from the token to the
  // element to the whole attribute when a narrower part cannot be found.
  SourceLoc locate(SourceLoc op, std::string_view key, const SiteTarget& target = {}) const;

  size_t size() const { return sites_.size(); }

 private:
  struct Span {
    size_t begin = 0, end = 0;
    SourceLoc at;
  };
  // The location of `offset`, inside `span` (counts lines from its start).
  SourceLoc locOf(const Span& span, size_t offset) const;

  std::string_view text_;
  // By (op line << 32 | op column, key).
  std::map<std::pair<uint64_t, std::string>, Span> sites_;
};

// `arg_attrs/2/sdy.sharding`: the key of a function argument's attribute
// (`kind` is "arg_attrs" or "res_attrs").
std::string argAttrKey(std::string_view kind, size_t index, std::string_view name);

}  // namespace shardscope::ir
