// Reader and verifier behaviour of the sdy attribute syntax corners:
// dimension priorities, the order of `replicated`/`unreduced`, the reduction
// kind of unreduced axes and the fixed order of op sharding rule factor groups.
#include <gtest/gtest.h>

#include <string>

#include "ir/parser.h"
#include "ir/printer.h"
#include "verifier/verifier.h"

using namespace shardscope;
using namespace shardscope::ir;

namespace {

struct Outcome {
  bool parsed = false;
  bool verified = false;
  std::string printed;
  std::string diagnostics;
};

Outcome run(const std::string& text) {
  Outcome out;
  DiagnosticSink diags;
  ParseOptions opts;
  opts.fileName = "t.mlir";
  auto module = parseModule(text, opts, diags);
  out.parsed = module != nullptr && !diags.hasErrors();
  if (out.parsed) {
    out.verified = verifyModule(*module, diags);
    out.printed = printModule(*module);
  }
  out.diagnostics = diags.formatAll("t.mlir");
  return out;
}

std::string argSharding(const std::string& sharding) {
  return "sdy.mesh @m = <[\"p\"=2, \"q\"=4]>\n"
         "func.func @f(%x: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@m, " +
         sharding +
         ">}) -> tensor<4x4xf32> {\n"
         "  return %x : tensor<4x4xf32>\n"
         "}\n";
}

TEST(ShardingSyntax, PriorityWithLeadingZeroIsRejected) {
  for (const char* dims : {"[{\"p\"}p00, {}]", "[{}, {\"q\"}p07]"}) {
    Outcome o = run(argSharding(dims));
    EXPECT_FALSE(o.parsed) << dims;
    EXPECT_NE(o.diagnostics.find("priorities with leading zeros are not allowed, got: p0"),
              std::string::npos)
        << o.diagnostics;
    // Named by file, line (the signature's) and column, as an error.
    EXPECT_EQ(o.diagnostics.rfind("t.mlir:2:", 0), 0u) << o.diagnostics;
    EXPECT_NE(o.diagnostics.find(": error: priorities"), std::string::npos) << o.diagnostics;
  }
  // A single zero and ordinary numbers stay valid.
  Outcome ok = run(argSharding("[{\"p\"}p0, {\"q\"}p10]"));
  EXPECT_TRUE(ok.parsed) << ok.diagnostics;
  EXPECT_NE(ok.printed.find("[{\"p\"}p0, {\"q\"}p10]"), std::string::npos) << ok.printed;
}

TEST(ShardingSyntax, UnreducedMayComeBeforeReplicated) {
  Outcome o = run(argSharding("[{}, {}], unreduced={\"q\"}, replicated={\"p\"}"));
  ASSERT_TRUE(o.parsed) << o.diagnostics;
  EXPECT_TRUE(o.verified) << o.diagnostics;
  // Printed in the canonical order.
  EXPECT_NE(o.printed.find("[{}, {}], replicated={\"p\"}, unreduced={\"q\"}>"), std::string::npos)
      << o.printed;
}

TEST(ShardingSyntax, RepeatedNonEmptyListIsRejected) {
  for (const char* tail :
       {"replicated={\"p\"}, replicated={\"q\"}", "unreduced={\"p\"}, unreduced={\"q\"}",
        "unreduced={\"q\"}, replicated={\"p\"}, unreduced={}"}) {
    Outcome o = run(argSharding(std::string("[{}, {}], ") + tail));
    EXPECT_FALSE(o.parsed) << tail;
    EXPECT_NE(o.diagnostics.find("expected valid named axis list after comma"), std::string::npos)
        << o.diagnostics;
  }
}

TEST(ShardingSyntax, UnreducedReductionKinds) {
  struct Case {
    const char* in;
    const char* printed;
  };
  for (const Case& c : {Case{"unreduced=max{\"q\"}", "unreduced=max{\"q\"}"},
                        Case{"unreduced=min{\"q\"}", "unreduced=min{\"q\"}"},
                        Case{"unreduced=sum{\"q\"}", "unreduced={\"q\"}"},
                        Case{"unreduced{\"q\"}", "unreduced={\"q\"}"}}) {
    Outcome o = run(argSharding(std::string("[{}, {}], ") + c.in));
    ASSERT_TRUE(o.parsed) << c.in << "\n" << o.diagnostics;
    EXPECT_NE(o.printed.find(c.printed), std::string::npos) << o.printed;
  }
  // Only sum, max and min name a reduction.
  Outcome bad = run(argSharding("[{}, {}], unreduced=prod{\"q\"}"));
  EXPECT_FALSE(bad.parsed);
  EXPECT_NE(bad.diagnostics.find("failed to parse Sdy_TensorSharding parameter 'unreduced_axes'"),
            std::string::npos)
      << bad.diagnostics;
}

std::string constraintOn(const std::string& argExtra, const std::string& constraintExtra,
                         const std::string& op = "sdy.sharding_constraint") {
  return "sdy.mesh @m = <[\"p\"=2, \"q\"=2, \"r\"=2]>\n"
         "func.func @f(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}]" +
         argExtra +
         ">}) -> tensor<8xf32> {\n"
         "  %0 = " +
         op + " %x <@m, [{}]" + constraintExtra +
         "> : tensor<8xf32>\n"
         "  return %0 : tensor<8xf32>\n"
         "}\n";
}

TEST(ShardingSyntax, KeptUnreducedAxesKeepTheirReduction) {
  for (const char* op : {"sdy.sharding_constraint", "sdy.reshard"}) {
    Outcome o = run(constraintOn(", unreduced=max{\"p\"}", ", unreduced={\"p\"}", op));
    ASSERT_TRUE(o.parsed) << o.diagnostics;
    EXPECT_FALSE(o.verified);
    EXPECT_NE(o.diagnostics.find("t.mlir:3:3: error: '" + std::string(op) +
                                 "' op cannot change the reduction operator of kept unreduced axes "
                                 "from max to sum."),
              std::string::npos)
        << o.diagnostics;
  }
  // Keeping one axis and adding another (with sum) still changes the kept one.
  Outcome both = run(constraintOn(", unreduced=min{\"p\"}", ", unreduced={\"p\", \"q\"}"));
  EXPECT_NE(both.diagnostics.find("from min to sum."), std::string::npos) << both.diagnostics;
  // Same kind, dropped axes, or disjoint axes are fine.
  for (const auto& [arg, res] :
       {std::pair<std::string, std::string>{", unreduced=max{\"p\"}", ", unreduced=max{\"p\"}"},
        {", unreduced=max{\"p\"}", ""},
        {", unreduced={\"p\"}", ", unreduced={\"p\", \"q\"}"}}) {
    Outcome o = run(constraintOn(arg, res));
    EXPECT_TRUE(o.verified) << arg << " -> " << res << "\n" << o.diagnostics;
  }
  // Introducing axes with a non-sum kind is reported first.
  Outcome intro = run(constraintOn(", unreduced={\"p\"}", ", unreduced=max{\"p\", \"q\"}"));
  EXPECT_NE(intro.diagnostics.find("cannot introduce 'max' unreduced axes. Expected 'sum'."),
            std::string::npos)
      << intro.diagnostics;
}

std::string ruleWith(const std::string& groups) {
  return "func.func @f(%x: tensor<2x3xf32>) -> tensor<2xf32> {\n"
         "  %0 = stablehlo.custom_call @g(%x) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, "
         "j])->([i]) "
         "{i=2, j=3}" +
         groups +
         ">} : (tensor<2x3xf32>) -> tensor<2xf32>\n"
         "  return %0 : tensor<2xf32>\n"
         "}\n";
}

TEST(ShardingSyntax, RuleFactorGroupsComeInFixedOrder) {
  Outcome inOrder = run(ruleWith(" reduction={j} need_replication={i}"));
  EXPECT_TRUE(inOrder.parsed) << inOrder.diagnostics;
  Outcome all = run(ruleWith(
      " reduction={j} need_replication={} permutation={} blocked_propagation={i}, custom"));
  EXPECT_TRUE(all.parsed) << all.diagnostics;
  for (const char* groups :
       {" need_replication={i} reduction={j}", " permutation={i} reduction={j}",
        " blocked_propagation={i} permutation={j}", " reduction={j} reduction={i}"}) {
    Outcome o = run(ruleWith(groups));
    EXPECT_FALSE(o.parsed) << groups;
    EXPECT_NE(o.diagnostics.find("t.mlir:2:"), std::string::npos) << o.diagnostics;
    EXPECT_NE(o.diagnostics.find("error: expected '>'"), std::string::npos) << groups << "\n"
                                                                            << o.diagnostics;
  }
}

}  // namespace
