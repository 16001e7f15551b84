// engine/ir/location_aliases and the writer's -mlir-print-debuginfo: the
// `#loc` names numbered and placed as mlir-opt does, so that a module JAX
// exported (printed by MLIR with its locations) reads and prints back the same.
#include "ir/location_aliases.h"

#include <gtest/gtest.h>

#include "ir/printer.h"
#include "passes/pass.h"
#include "parse_test_module.h"

namespace shardscope::ir {
namespace {

using test_support::parseTestModule;

std::string printedWithLocations(const Module& m) {
  PrintOptions options;
  options.debugInfo = true;
  return printModule(m, options);
}

// In MLIR's own print order: argument locations (and what they hold) named
// before the module, the rest after it; leaves numbered before what holds
// them, otherwise in the order first met.
constexpr const char* kExported = R"(#loc1 = loc("x")
#loc2 = loc("train.py":7:1)
#loc5 = loc("y"(#loc2))
#loc9 = loc("jit(f)/while/body/closed_call"(#loc2))
module @jit_f {
  func.func public @main(%arg0: tensor<4xf32> loc("x"), %arg1: tensor<4xf32> loc("y"(#loc2))) -> tensor<4xf32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<4xf32> loc(#loc12)
    %1 = stablehlo.multiply %0, %0 : tensor<4xf32> loc(#loc13)
    %2 = call @g(%1) : (tensor<4xf32>) -> tensor<4xf32> loc(#loc8)
    return %2 : tensor<4xf32> loc(#loc)
  } loc(#loc)
  func.func private @g(%arg0: tensor<4xf32> loc("jit(f)/while/body/closed_call"(#loc2))) -> tensor<4xf32> {
    %0 = stablehlo.abs %arg0 : tensor<4xf32> loc(#loc9)
    return %0 : tensor<4xf32> loc(#loc9)
  } loc(#loc9)
} loc(#loc)
#loc = loc(unknown)
#loc3 = loc("model.py":41:12 to :30)
#loc4 = loc("model.py":42:3)
#loc6 = loc("Layer.__call__"(#loc3))
#loc7 = loc("Layer.__call__"(#loc4))
#loc8 = loc("jit(f)/call"(#loc2))
#loc10 = loc(callsite(#loc6 at #loc2))
#loc11 = loc("jit(f)/layer_0/mul"(#loc7))
#loc12 = loc("jit(f)/layer_0/add"(#loc10))
#loc13 = loc(fused[#loc11, #loc2])
)";

TEST(LocationAliasesTest, PrintsAnExportedModuleBackAsWritten) {
  auto m = parseTestModule(kExported);
  ASSERT_TRUE(m);
  EXPECT_EQ(printedWithLocations(*m), kExported);
}

TEST(LocationAliasesTest, WithoutTheOptionNoLocations) {
  auto m = parseTestModule(kExported);
  ASSERT_TRUE(m);
  EXPECT_EQ(printModule(*m).find("loc("), std::string::npos);
}

TEST(LocationAliasesTest, WindowsLineEndsAndByteOrderMark) {
  // Saved on Windows: CRLF line ends and a byte order mark change nothing.
  std::string windows = "\xEF\xBB\xBF";
  for (const char* c = kExported; *c; ++c) {
    if (*c == '\n') windows += '\r';
    windows += *c;
  }
  auto m = parseTestModule(windows);
  ASSERT_TRUE(m);
  EXPECT_EQ(printedWithLocations(*m), kExported);
}

TEST(LocationAliasesTest, UnknownDialectOpsKeepTheirLocations) {
  auto m = parseTestModule(
      "func.func @main() {\n"
      "  %0 = \"mydialect.thing\"() {a = 1 : i32} : () -> tensor<2xf32> loc(\"m.py\":3:1)\n"
      "  \"mydialect.sink\"(%0) : (tensor<2xf32>) -> () loc(#loc1)\n"
      "  return loc(#loc)\n"
      "} loc(#loc)\n"
      "#loc = loc(unknown)\n"
      "#loc1 = loc(callsite(\"f\"(\"m.py\":4:2) at \"main.py\":1:1))\n");
  ASSERT_TRUE(m);
  const std::string printed = printedWithLocations(*m);
  EXPECT_NE(printed.find("\"mydialect.sink\"(%0) : (tensor<2xf32>) -> () loc(#loc6)\n"), std::string::npos)
      << printed;
  EXPECT_NE(printed.find("#loc6 = loc(callsite(#loc5 at #loc4))\n"), std::string::npos) << printed;
}

// Passes keep where ops came from: a call imported as a named computation
// and exported back keeps its location and its callee's argument locations
// (MLIR moves the callee's block), so the round trip prints the same.
TEST(LocationAliasesTest, ImportedAndExportedCallsKeepTheirLocations) {
  auto m = parseTestModule(kExported);
  ASSERT_TRUE(m);
  DiagnosticSink diags;
  passes::PassContext context{diags};
  const passes::PassInfo* import = passes::lookupPass("sdy-import-func-calls");
  ASSERT_TRUE(import && import->run(*m, {}, context)) << diags.formatAll("<test>");
  const std::string imported = printedWithLocations(*m);
  EXPECT_NE(imported.find("(%arg2: tensor<4xf32> loc(\"jit(f)/while/body/closed_call\"(#loc2))) {"),
            std::string::npos)
      << imported;
  EXPECT_NE(imported.find("} : (tensor<4xf32>) -> tensor<4xf32> loc(#loc8)"), std::string::npos) << imported;
}

TEST(LocationAliasesTest, UnwrittenLocationsAreTheirPlaceInTheFile) {
  ParseOptions options;
  options.fileName = "in.mlir";
  DiagnosticSink diags;
  auto m = parseModule("func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
                       "  %0 = stablehlo.abs %arg0 : tensor<4xf32> loc(\"m.py\":1:2)\n"
                       "  return %0 : tensor<4xf32>\n"
                       "}\n",
                       options, diags);
  ASSERT_TRUE(m) << diags.formatAll("in.mlir");
  EXPECT_EQ(printedWithLocations(*m),
            "#loc2 = loc(\"in.mlir\":1:17)\n"
            "module {\n"
            "  func.func @main(%arg0: tensor<4xf32> loc(\"in.mlir\":1:17)) -> tensor<4xf32> {\n"
            "    %0 = stablehlo.abs %arg0 : tensor<4xf32> loc(#loc3)\n"
            "    return %0 : tensor<4xf32> loc(#loc4)\n"
            "  } loc(#loc1)\n"
            "} loc(#loc)\n"
            "#loc = loc(\"in.mlir\":0:0)\n"
            "#loc1 = loc(\"in.mlir\":1:1)\n"
            "#loc3 = loc(\"m.py\":1:2)\n"
            "#loc4 = loc(\"in.mlir\":3:3)\n");
}

TEST(LocationAliasesTest, DepthThenFirstMet) {
  const Location* file = Location::fileLineCol("a.py", 1, 1);
  const Location* named = Location::name("n", file);
  const Location* other = Location::fileLineCol("b.py", 2, 2);
  LocationAliases aliases;
  aliases.meet(named, true);  // met first, but holds `file`
  aliases.meet(other, true);
  aliases.meet(file, false);  // an argument's: defined before the module
  aliases.name();
  EXPECT_EQ(aliases.aliasOf(file), "loc");
  EXPECT_EQ(aliases.aliasOf(other), "loc1");
  EXPECT_EQ(aliases.aliasOf(named), "loc2");
  EXPECT_EQ(aliases.inlineText(*named), "loc(\"n\"(#loc))");
  EXPECT_EQ(aliases.definitions(true), "#loc = loc(\"a.py\":1:1)\n");
  EXPECT_EQ(aliases.definitions(false), "#loc1 = loc(\"b.py\":2:2)\n#loc2 = loc(\"n\"(#loc))\n");
}

}  // namespace
}  // namespace shardscope::ir
