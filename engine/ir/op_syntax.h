// The custom assembly formats of the StableHLO ops that follow the simple
// pattern `op %a, %b, keyword = value, ... {attrs} : types`, shared by the
// reader and the writer so that both agree on every spelling.
#pragma once
#include <string_view>
#include <vector>

namespace shardscope::ir {

// How the trailing types are written.
enum class TypeStyle {
  SameOrFunctional,  // `: tensor<4xf32>` when all operand/result types agree, else `: (..) -> ..`
  Functional,        // always `: (..) -> ..`
  ResultOnly,        // `: tensor<..>` giving the result type (ops without operands)
  // `stablehlo.complex %re, %im : tensor<4xcomplex<f32>>`: the result type
  // alone when both operands are its real counterpart, else `: (..) -> ..`.
  ComplexOrFunctional,
  Arrow,      // `: T -> R`, the CHLO unary ops (`chlo.acosh %0 : T -> T`)
  ListArrow,  // `: T, U -> R`, CHLO's next_after, polygamma, zeta, mulhi
};

// I64Array `[1, 2]`, I64 `0`, Enum `THREE_FRY`, Bool `true`, String `"ab,bc->ac"`,
// ExponentMantissa `e5m10` (two attributes: `attr` the exponent bits, `attr2`
// the mantissa bits).
enum class KeywordKind { I64Array, I64, Enum, Bool, String, ExponentMantissa };

// One `keyword = value` clause, stored as inherent attribute `attr`.
struct KeywordClause {
  std::string_view keyword;
  std::string_view attr;
  KeywordKind kind;
  std::string_view enumKind = {};   // for Enum: "fft_type"
  bool spaceBeforeEnum = false;     // `algorithm =  DEFAULT` (MLIR enum printers add a space)
  std::string_view attr2 = {};      // for ExponentMantissa: "mantissa_bits"
};

struct SimpleOpSyntax {
  std::string_view op;
  TypeStyle types;
  std::vector<KeywordClause> keywords;
};

// The simple syntax of `op`, or nullptr when it has a bespoke one (or none).
const SimpleOpSyntax* lookupSimpleSyntax(std::string_view op);

// The element type of `complex<f32>` ("f32"), or "" when `elementType` is not complex.
std::string_view complexPartType(std::string_view elementType);

}  // namespace shardscope::ir
