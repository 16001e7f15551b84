// What-if edits of one value's sharding: check the text the user typed
// (ir::parseAttribute) against the value, and rewrite the module's source
// text so the value carries it. The rewritten text is then re-parsed and
// propagated like any source edit; nothing here touches a module.
#pragma once
#include <QString>
#include <optional>

#include "api/document.h"

namespace shardscope::widgets {

// Parse `text` as the new sharding of `value` in `module`:
// `#sdy.sharding<@mesh, [{"x"}, {}]>`, `<@mesh, [{"x"}, {}]>` or just the
// dimensions `[{"x"}, {}]` (then the mesh of the value's current sharding,
// else the module's first mesh). Checks the rank and the mesh's axes.
// Returns nullopt with a one-line `error` ("expected 2 dimensions, got 1").
std::optional<TensorSharding> parseShardingForValue(const QString& text, const ir::Module& module,
                                                    const ir::Value& value, QString* error);
// The same for result `index` of function `func` (its type from function_type).
std::optional<TensorSharding> parseShardingForFunctionResult(const QString& text,
                                                             const ir::Module& module,
                                                             const ir::Op& func, unsigned index,
                                                             QString* error);

// `source` with `value`'s sharding set to `sharding`:
// - a function argument: its `{sdy.sharding = ...}` (added or replaced);
// - an op result: its entry in `sdy.sharding = #sdy.sharding_per_value<[...]>`
//   (added or replaced; the other results keep theirs or are replicated),
//   also for ops with regions: `stablehlo.while(...) : ... attributes {...}`,
//   `"stablehlo.case"(...) ({...}) {...} : ...`;
// - a manual / named computation result: its `out_shardings=[...]` entry;
// - sdy.sharding_constraint / sdy.reshard: their sharding.
// The value is found at its op's source line (which must still hold it).
// nullopt + `error` for values that cannot be edited this way (region
// arguments, text no longer matching the module).
std::optional<QString> rewriteValueSharding(const QString& source, const ir::Value& value,
                                            const TensorSharding& sharding, QString* error);

// `source` with result `index` of function `func` sharded by `sharding`:
// `-> (tensor<8xf32> {sdy.sharding = ...})` (a single result written without
// parentheses gets them).
std::optional<QString> rewriteFunctionResultSharding(const QString& source, const ir::Op& func,
                                                     unsigned index, const TensorSharding& sharding,
                                                     QString* error);

}  // namespace shardscope::widgets
