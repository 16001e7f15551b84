// Input files as users have them: Windows line ends, a byte order mark,
// broken locations, dialects we do not know. Each gives a module or a clear
// `FILE:LINE:COL: error:`, never a crash.
#include <gtest/gtest.h>

#include "language_test_util.h"

namespace shardscope {
namespace {

using test_support::printedAgain;

const char* const kPrinted = R"(module {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.abs %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
)";

TEST(InputRobustnessTest, CrlfLineEnds) {
  EXPECT_EQ(printedAgain("func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\r\n"
                         "  %0 = stablehlo.abs %arg0 : tensor<4xf32>\r\n"
                         "  return %0 : tensor<4xf32>\r\n"
                         "}\r\n"),
            kPrinted);
}

TEST(InputRobustnessTest, ByteOrderMarkIsSkipped) {
  EXPECT_EQ(printedAgain("\xEF\xBB\xBF"
                         "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
                         "  %0 = stablehlo.abs %arg0 : tensor<4xf32>\n"
                         "  return %0 : tensor<4xf32>\n"
                         "}\n"),
            kPrinted);
  // Columns on the first line count from after the mark.
  EXPECT_EQ(printedAgain("\xEF\xBB\xBF"
                         "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> { %0 = foo }"),
            "<test>:1:63: error: custom op 'foo' is unknown\n");
}

TEST(InputRobustnessTest, MalformedLocations) {
  // An unterminated `loc(` is reported where it starts, not at the end of the file.
  EXPECT_EQ(printedAgain(R"(func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %arg0 : tensor<4xf32> loc("model.py":3:
  return %0 : tensor<4xf32>
})"),
            "<test>:2:44: error: malformed location: expected 'loc(...)' with matching brackets and quotes\n");
  EXPECT_EQ(printedAgain(R"(func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %arg0 : tensor<4xf32> loc("model.py
  return %0 : tensor<4xf32>
})"),
            "<test>:2:44: error: malformed location: expected 'loc(...)' with matching brackets and quotes\n");
  // An alias used but never defined (MLIR's message).
  EXPECT_EQ(printedAgain(R"(func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %arg0 : tensor<4xf32> loc(#loc9)
  return %0 : tensor<4xf32>
})"),
            "<test>:2:48: error: operation location alias was never defined\n");
  // Aliases defined after their use are fine.
  EXPECT_EQ(printedAgain(R"(func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %arg0 : tensor<4xf32> loc(#loc1)
  return %0 : tensor<4xf32> loc(#loc)
}
#loc = loc(unknown)
#loc1 = loc("model.py":3:8))"),
            kPrinted);
}

TEST(InputRobustnessTest, UnknownDialectInCustomFormWithoutTypes) {
  // `foo.bar` with neither operands nor types is an op of its own.
  EXPECT_EQ(printedAgain(R"(func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  foo.barrier
  return %arg0 : tensor<4xf32>
})"),
            R"(module {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    "foo.barrier"() : () -> ()
    return %arg0 : tensor<4xf32>
  }
}
)");
}

}  // namespace
}  // namespace shardscope
