// The writer spells a block of many ops on two threads (printer.cpp,
// Writer::printOpsOnTwoThreads). These tests read a generated function in
// the writer's own spelling and print it again: the text must come back
// byte for byte, at sizes below the two-thread threshold (which shows the
// generator writes what one thread writes) and above it, and the same on
// every run (a race between the threads, a chunk written twice, out of
// order or cut, would show as a difference).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>

#include "ir/parser.h"
#include "ir/printer.h"

using namespace shardscope;

namespace {

// A function of `layers` layers of four ops each: a constant (named by
// hint: `%cst`, `%cst_0`, ...), an add, a multiply with a sharding and an
// optimization barrier of two results; then a while whose regions are
// numbered after every top-level value, as MLIR numbers nested regions,
// and whose iteration arguments take the next conflict counter.
std::string generatedModule(int layers) {
  std::string t =
      "module {\n"
      "  sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n"
      "  func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}, {}]>}) -> "
      "tensor<8x8xf32> {\n";
  int value = 0;
  std::string prev = "%arg0";
  for (int i = 0; i < layers; ++i) {
    const std::string cst = i == 0 ? "%cst" : "%cst_" + std::to_string(i - 1);
    const std::string add = "%" + std::to_string(value++);
    const std::string mul = "%" + std::to_string(value++);
    const std::string barrier = "%" + std::to_string(value++);
    t += "    " + cst + " = stablehlo.constant dense<1.000000e+00> : tensor<8x8xf32>\n";
    t += "    " + add + " = stablehlo.add " + prev + ", " + cst + " : tensor<8x8xf32>\n";
    t += "    " + mul + " = stablehlo.multiply " + add + ", " + add +
         " {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {\"b\"}]>]>} : tensor<8x8xf32>\n";
    t += "    " + barrier + ":2 = stablehlo.optimization_barrier " + mul + ", " + add +
         " : tensor<8x8xf32>, tensor<8x8xf32>\n";
    prev = barrier + "#" + std::to_string(i % 2);
  }
  const std::string loop = "%" + std::to_string(value++);
  const std::string inner = "%" + std::to_string(value);
  const std::string iterArg1 = "%iterArg_" + std::to_string(layers - 1);
  t += "    " + loop + ":2 = stablehlo.while(%iterArg = " + prev + ", " + iterArg1 + " = " + prev +
       ") : tensor<8x8xf32>, tensor<8x8xf32>\n"
       "    cond {\n"
       "      " + inner + " = stablehlo.compare  LT, %iterArg, " + iterArg1 +
       " : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>\n"
       "      stablehlo.return " + inner + " : tensor<8x8xi1>\n"
       "    } do {\n"
       "      " + inner + " = stablehlo.add %iterArg, " + iterArg1 + " : tensor<8x8xf32>\n"
       "      stablehlo.return " + inner + ", " + iterArg1 + " : tensor<8x8xf32>, tensor<8x8xf32>\n"
       "    }\n"
       "    return " + loop + "#0 : tensor<8x8xf32>\n"
       "  }\n"
       "}\n";
  return t;
}

class WriterTwoThreads : public ::testing::TestWithParam<int> {};

TEST_P(WriterTwoThreads, PrintsWhatItReads) {
  const int layers = GetParam();
  const std::string text = generatedModule(layers);
  ir::DiagnosticSink diags;
  auto module = ir::parseModule(text, {}, diags);
  ASSERT_NE(module, nullptr) << diags.formatAll("generated");
  ASSERT_EQ(module->functions().size(), 1u);
  const std::string printed = ir::printModule(*module);
  ASSERT_EQ(printed.size(), text.size());
  EXPECT_TRUE(printed == text) << "first difference at byte "
                               << std::mismatch(printed.begin(), printed.end(), text.begin()).first - printed.begin();
  // The same text every time, also through a stream (which gets the
  // helper's chunks written straight through).
  for (int run = 0; run < 3; ++run) {
    std::ostringstream os;
    ir::printModule(*module, os);
    EXPECT_TRUE(os.str() == text) << "run " << run;
  }
}

// 4 ops per layer (plus the while and the return): 10 layers and 4,000
// layers (16,002 ops) stay on one thread; 4,100 layers are just over the
// threshold of 16,384 ops, with a last chunk of a few ops; 25,000 layers
// are 49 chunks.
INSTANTIATE_TEST_SUITE_P(Writer, WriterTwoThreads, ::testing::Values(10, 4000, 4100, 25000),
                         [](const auto& info) { return "layers" + std::to_string(info.param); });

}  // namespace
