#pragma once

// The name scope of an op whose JAX name is written in the nested form.
//
// JAX names an op by its scopes and primitive in one piece,
// `loc("jit(f)/mlp/add"("model.py":3:4))`, except where it inlines a cached
// lowering into a scope: there the primitive wraps the scope,
// `loc("add"("jit(f)/mlp"("model.py":3:4)))`. Both mean scope `jit(f)/mlp`,
// primitive `add`. opSource reads both; the grouping and the search index,
// which read names in place for a million ops, read the one-piece form with
// nameScopeOf (op_source.h) and the nested one with this:
//
//   loc("add"("jit(f)/mlp"("model.py":3:4)))  -> "jit(f)/mlp"
//   loc("cholesky"("jit(cholesky)"(...)))     -> "jit(cholesky)"
//   loc("jit(f)/mlp/add"("model.py":3:4))     -> ""  (one piece)
//   loc("add"("main"("model.py":3:4)))        -> ""  ("main" is a Python frame)

#include <string_view>

namespace shardscope::ir {
class Op;
}

namespace shardscope::api {

// A view into the op's location; empty when the op's name is not nested.
std::string_view nestedNameScopeOf(const ir::Op& op);

}  // namespace shardscope::api
