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
};

enum class KeywordKind { I64Array, I64, Enum, Bool };

// One `keyword = value` clause, stored as inherent attribute `attr`.
struct KeywordClause {
  std::string_view keyword;
  std::string_view attr;
  KeywordKind kind;
  std::string_view enumKind = {};   // for Enum: "fft_type"
  bool spaceBeforeEnum = false;     // `algorithm =  DEFAULT` (MLIR enum printers add a space)
};

struct SimpleOpSyntax {
  std::string_view op;
  TypeStyle types;
  std::vector<KeywordClause> keywords;
};

// The simple syntax of `op`, or nullptr when it has a bespoke one (or none).
const SimpleOpSyntax* lookupSimpleSyntax(std::string_view op);

}  // namespace shardscope::ir
