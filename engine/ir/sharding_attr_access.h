// Shardings as ops hold them in attributes, read and written in one place.
//
// A multi-result op holds one sharding per result in a per-value list, a
// single-result collective or a function side holds one sharding:
//
//   %0:2 = stablehlo.optimization_barrier %a, %b
//       {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}]>, <@m, [{}]>]>}
//   valueShardingIn(op.attr("sdy.sharding"), 1)   // <@m, [{}]>
//   valueShardingIn(op.attr("sharding"), 0)       // a lone #sdy.sharding answers index 0 only
//
// A function keeps its arguments' and results' attributes as a list of
// dictionaries (`arg_attrs`, `res_attrs`), one per position:
//
//   setEntryInDictList(func, "arg_attrs", 2, 3, "sdy.sharding", s)
//   // arg_attrs = [{}, {}, {sdy.sharding = s}]  (other keys of entry 2 kept)
#pragma once
#include <optional>
#include <string_view>

#include "ir/attribute.h"
#include "ir/operation.h"
#include "sharding/tensor_sharding.h"

namespace shardscope::ir {

// The sharding of value `index` in a sharding attribute, or nothing when
// the attribute is missing, of another kind or too short.
std::optional<TensorSharding> valueShardingIn(const Attribute* attr, unsigned index);

// Set `key` to `value` in the dictionary at `index` of the array attribute
// `listName` of `op`, growing the list with empty dictionaries to at least
// `count` entries; the dictionary's other keys are kept.
void setEntryInDictList(Op& op, std::string_view listName, unsigned index, unsigned count,
                        std::string_view key, Attribute value);

}  // namespace shardscope::ir
