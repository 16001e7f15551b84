// Tests for engine/ir/call_graph.cpp and the passes that rely on it:
// recursive calls are errors at the call, and call graphs whose expansion
// would not fit in memory are refused before anything is copied.
#include "ir/call_graph.h"

#include <gtest/gtest.h>

#include <string>

#include "ir/parser.h"
#include "passes/import_passes.h"
#include "passes/pass.h"
#include "propagation/propagation.h"

namespace shardscope::ir {
namespace {

std::unique_ptr<Module> parse(const std::string& text, DiagnosticSink& diags) {
  auto m = parseModule(text, ParseOptions{}, diags);
  EXPECT_TRUE(m) << diags.formatAll("<test>");
  return m;
}

// main -> f -> g -> f: the call of @f inside @g (line 9) closes the cycle.
const char* kCycle = R"mlir(func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @g(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @g(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @f(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
)mlir";

const char* kCycleError =
    "<test>:10:3: error: 'func.call' op is a recursive call: @f reaches itself through @f -> @g -> @f; "
    "sharding propagation needs a call graph without cycles\n";

const char* kSelfCall = R"mlir(func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @main(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
)mlir";

const char* kSelfCallError =
    "<test>:2:3: error: 'func.call' op is a recursive call: @main reaches itself through @main -> @main; "
    "sharding propagation needs a call graph without cycles\n";

// @main calls @f<levels-1> twice, each @f<k> calls @f<k-1> twice, and @f0
// holds one op: @f0 is reached along 2^levels call chains.
std::string doublingCalls(int levels, bool constant = false) {
  const std::string t = "tensor<8xf32>";
  const std::string sig = constant ? "() -> " + t : "(" + t + ") -> " + t;
  const std::string params = constant ? "()" : "(%arg0: " + t + ")";
  const std::string args = constant ? "()" : "(%arg0)";
  auto callTwice = [&](const std::string& callee) {
    return "  %0 = func.call @" + callee + args + " : " + sig + "\n  %1 = func.call @" + callee +
           (constant ? "()" : "(%0)") + " : " + sig + "\n";
  };
  std::string out = "func.func @main(%arg0: " + t + ") -> (" + t + ", " + t + ") {\n";
  if (constant) {
    out += "  %0 = func.call @f" + std::to_string(levels - 1) + "() : " + sig + "\n";
    out += "  %1 = stablehlo.add %0, %arg0 : " + t + "\n  %2 = stablehlo.multiply %0, %arg0 : " + t + "\n";
    out += "  return %1, %2 : " + t + ", " + t + "\n}\n";
  } else {
    out += callTwice("f" + std::to_string(levels - 1)) + "  return %0, %1 : " + t + ", " + t + "\n}\n";
  }
  for (int k = levels - 1; k >= 1; --k) {
    out += "func.func private @f" + std::to_string(k) + params + " -> " + t + " {\n";
    out += callTwice("f" + std::to_string(k - 1));
    out += constant ? "  %2 = stablehlo.add %0, %1 : " + t + "\n  return %2 : " + t + "\n}\n"
                    : "  return %1 : " + t + "\n}\n";
  }
  out += "func.func private @f0" + params + " -> " + t + " {\n";
  out += constant ? "  %0 = stablehlo.constant dense<1.0> : " + t + "\n"
                  : "  %0 = stablehlo.abs %arg0 : " + t + "\n";
  out += "  return %0 : " + t + "\n}\n";
  return out;
}

bool runPass(const std::string& name, Module& m, DiagnosticSink& diags) {
  const passes::PassInfo* info = passes::lookupPass(name);
  EXPECT_TRUE(info) << name;
  if (!info) return false;
  passes::PassContext ctx{diags, "", nullptr};
  return info->run(m, passes::PassOptions{}, ctx) && !diags.hasErrors();
}

TEST(CallGraphTest, FindsTheCallClosingACycle) {
  DiagnosticSink diags;
  auto m = parse(kCycle, diags);
  ASSERT_TRUE(m);
  CallGraph graph(*m);
  auto found = graph.findRecursiveCall();
  ASSERT_TRUE(found);
  EXPECT_EQ(found->cycle, (std::vector<std::string>{"f", "g", "f"}));
  EXPECT_EQ(found->call->loc(), (SourceLoc{10, 3}));
}

TEST(CallGraphTest, AcyclicGraphHasNoRecursiveCallAndCountsCopies) {
  DiagnosticSink diags;
  auto m = parse(doublingCalls(3), diags);
  ASSERT_TRUE(m);
  CallGraph graph(*m);
  EXPECT_FALSE(graph.findRecursiveCall());
  // @f2 is reached twice, @f1 4 times, @f0 8 times: 1 + 3 + 7 copies.
  CallGraph::FlattenCost cost = graph.flattenCost();
  EXPECT_EQ(cost.functionCopies, 11u);
  EXPECT_EQ(cost.mostCopiedCount, 7u);
  ASSERT_TRUE(cost.mostCopied);
  // Ops: @f2 and @f1 hold 3 (two calls, a return), @f0 holds 2.
  EXPECT_EQ(cost.opCopies, 1u * 3 + 3u * 3 + 7u * 2);
  EXPECT_EQ(graph.opsInCallTree(*graph.functions()[1]), 3u + 2 * (3 + 2 * 2));
}

TEST(CallGraphTest, FlattenReportsACycleAtTheCall) {
  DiagnosticSink diags;
  auto m = parse(kCycle, diags);
  ASSERT_TRUE(m);
  EXPECT_FALSE(passes::flattenCallGraph(*m, diags));
  EXPECT_EQ(diags.formatAll("<test>"), kCycleError);
}

TEST(CallGraphTest, EveryCallPassAndThePipelineReportTheCycle) {
  struct Case {
    const char* module;
    const char* error;
    std::vector<const char*> passes;
  };
  const std::vector<Case> cases = {
      {kCycle,
       kCycleError,
       {"sdy-flatten-call-graph", "sdy-import-func-calls", "sdy-constant-or-scalar-splitter", "sdy-basic-propagate",
        "sdy-user-priority-propagate", "sdy-propagation-pipeline"}},
      // This used to say "Failed to lookup function: main".
      {kSelfCall, kSelfCallError, {"sdy-import-func-calls", "sdy-propagation-pipeline"}},
  };
  for (const Case& c : cases)
    for (const char* pass : c.passes) {
      DiagnosticSink diags;
      auto m = parse(c.module, diags);
      ASSERT_TRUE(m);
      EXPECT_FALSE(runPass(pass, *m, diags)) << pass;
      EXPECT_EQ(diags.formatAll("<test>"), c.error) << pass;
    }
}

TEST(CallGraphTest, FlatteningTwoToTheFortyCopiesIsRefused) {
  DiagnosticSink diags;
  auto m = parse(doublingCalls(40), diags);
  ASSERT_TRUE(m);
  EXPECT_FALSE(runPass("sdy-propagation-pipeline", *m, diags));
  ASSERT_EQ(diags.all().size(), 1u) << diags.formatAll("<test>");
  // At the call of @f0 in @f1 (main takes 5 lines, each @fk 5 more). @fk is
  // reached 2^(40-k) times, so sum(2^k - 1, k = 1..40) copies; @f1..@f39
  // hold 3 ops each, @f0 2.
  EXPECT_EQ(diags.formatAll("<test>"),
            "<test>:197:3: error: 'func.call' op makes the call graph too large to expand: every call needs "
            "its own copy of the function it calls, and the call chains reaching @f0 ask for 1099511627775 "
            "copies of it (2199023255510 function copies and 5497558138755 ops in all, more than the limit "
            "of 1048576 ops)\n");
}

TEST(CallGraphTest, SmallDoublingGraphsStillFlatten) {
  DiagnosticSink diags;
  auto m = parse(doublingCalls(8), diags);
  ASSERT_TRUE(m);
  EXPECT_TRUE(passes::flattenCallGraph(*m, diags)) << diags.formatAll("<test>");
  EXPECT_EQ(m->functions().size(), 1u + 2 + 4 + 8 + 16 + 32 + 64 + 128 + 256);
}

TEST(CallGraphTest, SplittingAConstantCallTreeBeyondTheBudgetIsRefused) {
  // The constant @f39() has two users, so the splitter copies the call and
  // its callees: 2^40 copies of @f0.
  DiagnosticSink diags;
  auto m = parse(doublingCalls(40, /*constant=*/true), diags);
  ASSERT_TRUE(m);
  EXPECT_FALSE(passes::constantOrScalarSplitter(*m, diags));
  ASSERT_EQ(diags.all().size(), 1u) << diags.formatAll("<test>");
  EXPECT_NE(diags.all()[0].message.find("'func.call' op is part of a constant expression with several users"),
            std::string::npos)
      << diags.all()[0].message;
}

}  // namespace
}  // namespace shardscope::ir
