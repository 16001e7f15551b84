// Reading the StableHLO attributes the rule registry needs, whichever way the
// parser kept them (structured attribute, dense array, or opaque text).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/operation.h"

namespace shardscope::rules {

// `5 : i64` or `true`: the integer / 0-1 value of attribute `name`.
std::optional<int64_t> intAttrOf(const ir::Op& op, const std::string& name);

// The integers of `[1, 2]`, `array<i64: 1, 2>` or `dense<[[0, 1], [2, 3]]>`
// (flattened, row-major). A splat `dense<1> : tensor<2x2xi64>` expands to
// one value per element when the type's shape is readable.
std::optional<std::vector<int64_t>> intsOf(const ir::Attribute& attr);
std::optional<std::vector<int64_t>> intListAttrOf(const ir::Op& op, const std::string& name);

// `"Foo"` or `@Foo`: the text.
std::optional<std::string> stringOrSymbolOf(const ir::Op& op, const std::string& name);

// The value word of an enum: `TRANSPOSE` for `#stablehlo<transpose TRANSPOSE>`.
std::optional<std::string> enumValueOf(const ir::Op& op, const std::string& name);

// A `#stablehlo.gather<offset_dims = [2], index_vector_dim = 1>`-style
// attribute seen as keyed integer lists; absent keys read as empty lists.
class StructParams {
 public:
  // nullopt when `attr` is neither a StructAttr nor `#name<key = value, ...>` text.
  static std::optional<StructParams> from(const ir::Attribute& attr);
  std::vector<int64_t> list(const std::string& key) const;
  std::optional<int64_t> integer(const std::string& key) const;

 private:
  std::vector<std::pair<std::string, std::vector<int64_t>>> params_;
};

// `#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>` (or the `raw`
// keyed form): which tensor dimension plays which role.
struct ConvDimensionNumbers {
  int64_t inputBatch = 0;
  int64_t inputFeature = 0;
  std::vector<int64_t> inputSpatial;
  int64_t kernelInputFeature = 0;
  int64_t kernelOutputFeature = 0;
  std::vector<int64_t> kernelSpatial;
  int64_t outputBatch = 0;
  int64_t outputFeature = 0;
  std::vector<int64_t> outputSpatial;
};
std::optional<ConvDimensionNumbers> parseConvDimensionNumbers(const ir::Attribute& attr);

}  // namespace shardscope::rules
