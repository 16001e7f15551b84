// `#sdy.propagation_edges<...>` (engine/ir/propagation_edges.h): read and
// printed as sdy_opt prints it, and the checks made while reading it.
#include "ir/propagation_edges.h"

#include <gtest/gtest.h>

#include <string>

#include "ir/parser.h"
#include "ir/printer.h"

namespace shardscope::ir {
namespace {

// The errors of reading `attrText` as the edges of an add on line 3.
std::string readErrors(const std::string& attrText) {
  const std::string text =
      "sdy.mesh @mesh = <[\"x\"=4]>\n"
      "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  %0 = stablehlo.add %arg0, %arg0 {sdy.propagation_edges = " +
      attrText +
      "} : tensor<8xf32>\n"
      "  return %0 : tensor<8xf32>\n"
      "}\n";
  DiagnosticSink diags;
  ParseOptions options;
  options.fileName = "t.mlir";
  std::unique_ptr<Module> module = parseModule(text, options, diags);
  return module ? "" : diags.formatAll("t.mlir");
}

TEST(PropagationEdgesTest, PrintsInSdysSpacing) {
  DiagnosticSink diags;
  std::optional<Attribute> attr = parseAttribute(
      "#sdy.propagation_edges<[{step-2 = [{\"y\" = operand-1-> [operand-0,result-0]}]}, "
      "{ step-12345=[{\"x\":(1)2 = result-0 -> []}]}]>",
      diags);
  ASSERT_TRUE(attr) << diags.formatAll("<attr>");
  ASSERT_TRUE(attr->is<PropagationEdgesAttr>());
  const PropagationEdgesAttr& edges = *attr->as<PropagationEdgesAttr>();
  ASSERT_EQ(edges.steps.size(), 2u);
  EXPECT_EQ(edges.steps[0].axisEntries[0].targets.size(), 2u);
  EXPECT_EQ(edges.steps[1].axisEntries[0].axis.str(), "\"x\":(1)2");
  EXPECT_EQ(attr->str(),
            "#sdy.propagation_edges<[{step-2 = [{\"y\" = operand-1 -> [operand-0, result-0]}]}, "
            "{step-12345 = [{\"x\":(1)2 = result-0 -> []}]}]>");
}

// MLIR checks the attribute when it builds it: the error is at its `<`.
TEST(PropagationEdgesTest, StepAndTargetProblemsStopTheReader) {
  EXPECT_EQ(readErrors("#sdy.propagation_edges<[{step--3 = []}]>"),
            "t.mlir:3:82: error: propagation edges have negative step index: -3\n");
  EXPECT_EQ(readErrors("#sdy.propagation_edges<[{step-1 = []}, {step-1 = []}]>"),
            "t.mlir:3:82: error: propagation edges have duplicate step index: 1\n");
  EXPECT_EQ(readErrors("#sdy.propagation_edges<[{step-1 = [{\"x\" = operand-0 -> [operand-0]}]}]>"),
            "t.mlir:3:82: error: propagation edges have a source that is the same as a target\n");
  EXPECT_EQ(readErrors("#sdy.propagation_edges<[{step-123 = [{\"x\" = result-0 -> [operand-0, "
                       "operand-0]}]}]>"),
            "t.mlir:3:82: error: propagation edges have duplicate targets for step index: 123 "
            "and axis: x\n");
  EXPECT_EQ(readErrors("#sdy.propagation_edges<[{step-1 = [{\"x\" = operand-0 -> [operand-1]}]}]>"),
            "");
}

TEST(PropagationEdgesTest, MalformedEdgesAreParseErrors) {
  EXPECT_NE(readErrors("#sdy.propagation_edges<[{step-1 = [{\"x\" = input-0 -> []}]}]>")
                .find("expected one of [operand, result] for edge node type enum"),
            std::string::npos);
  EXPECT_NE(readErrors("#sdy.propagation_edges<[{stage-1 = []}]>").find("expected 'step'"),
            std::string::npos);
  EXPECT_NE(readErrors("#sdy.propagation_edges<[{step-1 = [{\"x\" = result-0 [operand-0]}]}]>")
                .find("expected '->'"),
            std::string::npos);
}

}  // namespace
}  // namespace shardscope::ir
