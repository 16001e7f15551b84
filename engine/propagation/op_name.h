// Fast op-name tests for the propagation hot paths.
//
// Op names are interned (ir::Op::internOpName keeps one string per name for
// the process), so `SS_OP_IS(op, "stablehlo.while")` compares the op's name
// pointer against the interned string of the literal, looked up once per
// call site, instead of comparing characters as `op.is(...)` does.
#pragma once
#include <string>

#include "ir/operation.h"

#define SS_OP_IS(opref, literal)                                                           \
  ([](const ::shardscope::ir::Op& ssOpIsOp_) {                                             \
    static const std::string* const ssOpIsName_ = &::shardscope::ir::Op::internOpName(literal); \
    return &ssOpIsOp_.name() == ssOpIsName_;                                               \
  }(opref))
