// Reader tests: round trips through the writer, SSA naming, forward
// references, and precise diagnostics for bad input.
#include <gtest/gtest.h>

#include <string>

#include "ir/parser.h"
#include "ir/printer.h"

using namespace shardscope;
using namespace shardscope::ir;

namespace {

std::string roundTrip(const std::string& text, std::string* diagsOut = nullptr) {
  DiagnosticSink diags;
  ParseOptions opts;
  opts.fileName = "test.mlir";
  auto m = parseModule(text, opts, diags);
  if (diagsOut) *diagsOut = diags.formatAll("test.mlir");
  if (!m) return "<parse failed>\n" + diags.formatAll("test.mlir");
  return printModule(*m);
}

// The body of the printed module, without the `module {` line and indentation.
std::string body(const std::string& printed) {
  std::string out;
  size_t start = printed.find('\n') + 1;
  size_t end = printed.rfind("}\n");
  std::string inner = printed.substr(start, end - start);
  size_t i = 0;
  while (i < inner.size()) {
    size_t eol = inner.find('\n', i);
    std::string line = inner.substr(i, eol - i);
    out += line.substr(std::min<size_t>(2, line.find_first_not_of(' '))) + "\n";
    i = eol + 1;
  }
  return out;
}

struct RoundTripCase {
  const char* name;
  const char* input;
  const char* expected;  // the module body as printed
};

class RoundTrip : public ::testing::TestWithParam<RoundTripCase> {};

TEST_P(RoundTrip, PrintsLikeSdyOpt) {
  const RoundTripCase& c = GetParam();
  EXPECT_EQ(body(roundTrip(c.input)), c.expected);
}

const RoundTripCase kRoundTrips[] = {
    {"mesh_and_sharded_args",
     "sdy.mesh @mesh = <[\"a\"=2, \"b\"=4]>\n"
     "func.func @f(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\", ?}, {}p1]>}) -> tensor<8x16xf32> {\n"
     "  %y = stablehlo.add %x, %x : tensor<8x16xf32>\n"
     "  return %y : tensor<8x16xf32>\n}\n",
     "sdy.mesh @mesh = <[\"a\"=2, \"b\"=4]>\n"
     "func.func @f(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\", ?}, {}p1]>}) -> tensor<8x16xf32> {\n"
     "  %0 = stablehlo.add %arg0, %arg0 : tensor<8x16xf32>\n"
     "  return %0 : tensor<8x16xf32>\n}\n"},
    {"generic_form_becomes_pretty",
     "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
     "  %0 = \"stablehlo.multiply\"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
     "  \"func.return\"(%0) : (tensor<4xf32>) -> ()\n}\n",
     "func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
     "  %0 = stablehlo.multiply %arg0, %arg0 : tensor<4xf32>\n"
     "  return %0 : tensor<4xf32>\n}\n"},
    {"unknown_op_keeps_everything",
     "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
     "  %0 = \"foo.bar\"(%a) <{p = 1 : i32}> ({\n  ^bb0(%b: tensor<f32>):\n    \"foo.yield\"(%b) : (tensor<f32>) -> ()\n  }) {z = \"s\", a} : (tensor<4xf32>) -> tensor<4xf32>\n"
     "  return %0 : tensor<4xf32>\n}\n",
     "func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
     "  %0 = \"foo.bar\"(%arg0) <{p = 1 : i32}> ({\n  ^bb0(%arg1: tensor<f32>):\n    \"foo.yield\"(%arg1) : (tensor<f32>) -> ()\n  }) {a, z = \"s\"} : (tensor<4xf32>) -> tensor<4xf32>\n"
     "  return %0 : tensor<4xf32>\n}\n"},
    {"constants_named_c_and_cst",
     "func.func @f() -> (tensor<i32>, tensor<f32>, tensor<i32>) {\n"
     "  %0 = stablehlo.constant dense<1> : tensor<i32>\n"
     "  %1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>\n"
     "  %2 = stablehlo.constant dense<2> : tensor<i32>\n"
     "  return %0, %1, %2 : tensor<i32>, tensor<f32>, tensor<i32>\n}\n",
     "func.func @f() -> (tensor<i32>, tensor<f32>, tensor<i32>) {\n"
     "  %c = stablehlo.constant dense<1> : tensor<i32>\n"
     "  %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>\n"
     "  %c_0 = stablehlo.constant dense<2> : tensor<i32>\n"
     "  return %c, %cst, %c_0 : tensor<i32>, tensor<f32>, tensor<i32>\n}\n"},
    {"nested_regions_numbered_after_parent",
     "sdy.mesh @m = <[\"a\"=2]>\n"
     "func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
     "  %0 = sdy.manual_computation(%a) in_shardings=[<@m, [{\"a\"}]>] out_shardings=[<@m, [{\"a\"}]>] manual_axes={\"a\"} (%b: tensor<4xf32>) {\n"
     "    %1 = stablehlo.negate %b : tensor<4xf32>\n    sdy.return %1 : tensor<4xf32>\n  } : (tensor<8xf32>) -> tensor<8xf32>\n"
     "  %2 = stablehlo.abs %0 : tensor<8xf32>\n  return %2 : tensor<8xf32>\n}\n",
     "sdy.mesh @m = <[\"a\"=2]>\n"
     "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
     "  %0 = sdy.manual_computation(%arg0) in_shardings=[<@m, [{\"a\"}]>] out_shardings=[<@m, [{\"a\"}]>] manual_axes={\"a\"} (%arg1: tensor<4xf32>) {\n"
     "    %2 = stablehlo.negate %arg1 : tensor<4xf32>\n    sdy.return %2 : tensor<4xf32>\n  } : (tensor<8xf32>) -> tensor<8xf32>\n"
     "  %1 = stablehlo.abs %0 : tensor<8xf32>\n  return %1 : tensor<8xf32>\n}\n"},
    {"keyword_clauses_and_functional_types",
     "func.func @f(%a: tensor<2x13xf32>, %b: tensor<13x4xf32>) -> tensor<2x4x7xf32> {\n"
     "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x13xf32>, tensor<13x4xf32>) -> tensor<2x4xf32>\n"
     "  %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<2x4xf32>) -> tensor<2x4x7xf32>\n"
     "  return %1 : tensor<2x4x7xf32>\n}\n",
     "func.func @f(%arg0: tensor<2x13xf32>, %arg1: tensor<13x4xf32>) -> tensor<2x4x7xf32> {\n"
     "  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<2x13xf32>, tensor<13x4xf32>) -> tensor<2x4xf32>\n"
     "  %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<2x4xf32>) -> tensor<2x4x7xf32>\n"
     "  return %1 : tensor<2x4x7xf32>\n}\n"},
    {"forward_reference_across_blocks",
     "func.func @f(%a: tensor<i1>) -> tensor<i1> {\n"
     "  %0 = \"foo.loop\"() ({\n  ^bb0:\n    \"foo.use\"(%1) : (tensor<i1>) -> ()\n  ^bb1(%1: tensor<i1>):\n    \"foo.end\"() : () -> ()\n  }) : () -> tensor<i1>\n"
     "  return %0 : tensor<i1>\n}\n",
     "func.func @f(%arg0: tensor<i1>) -> tensor<i1> {\n"
     "  %0 = \"foo.loop\"() ({\n    \"foo.use\"(%1) : (tensor<i1>) -> ()\n  ^bb1(%1: tensor<i1>):\n    \"foo.end\"() : () -> ()\n  }) : () -> tensor<i1>\n"
     "  return %0 : tensor<i1>\n}\n"},
    // A function nested in another numbers its arguments on from the outer
    // one's, as MLIR does.
    {"nested_function_numbering",
     "func.func @f(%x: tensor<f32>) -> tensor<f32> {\n"
     "  func.func @g(%y: tensor<f32>) -> tensor<f32> {\n    return %y : tensor<f32>\n  }\n"
     "  return %x : tensor<f32>\n}\n",
     "func.func @f(%arg0: tensor<f32>) -> tensor<f32> {\n"
     "  func.func @g(%arg1: tensor<f32>) -> tensor<f32> {\n    return %arg1 : tensor<f32>\n  }\n"
     "  return %arg0 : tensor<f32>\n}\n"},
    // A generic op name without a dialect stays as written (MLIR reads it
    // as an unregistered op of that name).
    {"generic_name_without_dialect",
     "func.func @f() {\n  \"NO2E\"() : () -> ()\n  \"return\"() : () -> ()\n}\n",
     "func.func @f() {\n  \"NO2E\"() : () -> ()\n  \"return\"() : () -> ()\n}\n"},
    // arith.constant's custom form: the value carries the result type, and
    // the result is named after it.
    {"arith_constant",
     "func.func @f() {\n  %a = arith.constant dense<0.0> : tensor<8xf32>\n"
     "  %b = arith.constant 5 : i32\n  %c = arith.constant true\n"
     "  %d = arith.constant 7 : index\n  %e = \"arith.constant\"() <{value = 1.5 : f32}> : () -> f32\n"
     "  return\n}\n",
     "func.func @f() {\n  %cst = arith.constant dense<0.000000e+00> : tensor<8xf32>\n"
     "  %c5_i32 = arith.constant 5 : i32\n  %true = arith.constant true\n"
     "  %c7 = arith.constant 7 : index\n  %cst_0 = arith.constant 1.500000e+00 : f32\n"
     "  return\n}\n"},
};

INSTANTIATE_TEST_SUITE_P(Reader, RoundTrip, ::testing::ValuesIn(kRoundTrips),
                         [](const auto& info) { return std::string(info.param.name); });

struct BadInputCase {
  const char* name;
  const char* input;
  const char* expected;  // a substring of the formatted diagnostics
};

class BadInput : public ::testing::TestWithParam<BadInputCase> {};

TEST_P(BadInput, ReportsFileLineColumnAndCause) {
  const BadInputCase& c = GetParam();
  DiagnosticSink diags;
  ParseOptions opts;
  opts.fileName = "bad.mlir";
  auto m = parseModule(c.input, opts, diags);
  EXPECT_EQ(m, nullptr);
  ASSERT_TRUE(diags.hasErrors());
  EXPECT_NE(diags.formatAll("bad.mlir").find(c.expected), std::string::npos) << diags.formatAll("bad.mlir");
}

const BadInputCase kBadInputs[] = {
    {"unterminated_string", "sdy.mesh @m = <[\"a=2]>\n", "bad.mlir:1:17: error: unterminated string literal"},
    {"truncated_region", "func.func @f() {\n  return\n", "bad.mlir:3:1: error: expected '}' at the end of the region"},
    {"undeclared_value", "func.func @f() {\n  return %7 : tensor<f32>\n}\n",
     "bad.mlir:2:10: error: use of undeclared SSA value name '%7'"},
    {"bad_priority", "sdy.mesh @m = <[\"a\"=2]>\nfunc.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{\"a\"}px]>}) {\n  return\n}\n",
     "2:72: error: expecting priority in format 'p<number>', got: px"},
    {"bad_sub_axis", "sdy.mesh @m = <[\"a\"=4]>\nfunc.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{\"a\":(1}]>}) {\n  return\n}\n",
     "failed to parse Sdy_AxisRef parameter 'sub_axis_info'"},
    {"result_count_mismatch", "func.func @f(%a: tensor<f32>) {\n  %0, %1 = stablehlo.abs %a : tensor<f32>\n  return\n}\n",
     "2:3: error: operation defines 1 results but was provided 2 to bind"},
    {"type_mismatch", "func.func @f(%a: tensor<f32>) {\n  %0 = \"foo.x\"(%a) : (tensor<i32>) -> tensor<f32>\n  return\n}\n",
     "2:16: error: use of value '%a' expects different type than prior uses"},
    {"garbage", "\x01\x02\x03", "bad.mlir:1:1: error: expected operation name"},
    {"dense_number_runs_on",
     "func.func @f() -> tensor<f32> {\n  %c = stablehlo.constant dense<0.000000e+000.000000e+00> : tensor<f32>\n"
     "  return %c : tensor<f32>\n}\n",
     "bad.mlir:2:46: error: expected ',' or '>' after a number in the dense literal"},
    {"dense_number_runs_on_generic",
     "func.func @f() -> tensor<f32> {\n  %c = \"stablehlo.constant\"() {value = dense<1.5.5> : tensor<f32>} : () -> tensor<f32>\n"
     "  return %c : tensor<f32>\n}\n",
     "bad.mlir:2:49: error: expected ',' or '>' after a number in the dense literal"},
    {"dense_numbers_run_together",
     "func.func @f() -> tensor<f32> {\n  %c = stablehlo.constant dense<0.000e000+00> : tensor<f32>\n"
     "  return %c : tensor<f32>\n}\n",
     "bad.mlir:2:42: error: expected ',' or '>' after a number in the dense literal"},
    // Literals that do not fit their type (these used to read, and verify).
    {"dense_more_elements_than_the_type",
     "func.func @main() -> tensor<10xf32> {\n  %0 = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, "
     "8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0]> : tensor<10xf32>\n"
     "  return %0 : tensor<10xf32>\n}\n",
     "bad.mlir:2:27: error: inferred shape of elements literal ([20]) does not match type ([10])"},
    {"dense_floats_for_integers",
     "func.func @main() -> tensor<2xi8> {\n  %0 = stablehlo.constant dense<[1e26, -1e400]> : tensor<2xi8>\n"
     "  return %0 : tensor<2xi8>\n}\n",
     "bad.mlir:2:27: error: expected integer elements, but parsed floating-point"},
    {"dense_nested_shape_generic",
     "func.func @f() -> tensor<2x2xf32> {\n  %c = \"stablehlo.constant\"() {value = dense<[[1.0, 2.0]]> : "
     "tensor<2x2xf32>} : () -> tensor<2x2xf32>\n  return %c : tensor<2x2xf32>\n}\n",
     "bad.mlir:2:40: error: inferred shape of elements literal ([1, 2]) does not match type ([2, 2])"},
    {"dense_ragged",
     "func.func @f() -> tensor<2x2xf32> {\n  %c = stablehlo.constant dense<[[1.0, 2.0], [3.0]]> : tensor<2x2xf32>\n"
     "  return %c : tensor<2x2xf32>\n}\n",
     "bad.mlir:2:27: error: tensor literal is invalid; ranks are not consistent between elements"},
    {"custom_op_without_dialect", "func.func @f(%a: tensor<f32>) {\n  %0 = BOTH %a : tensor<f32>\n  return\n}\n",
     "bad.mlir:2:8: error: custom op 'BOTH' is unknown"},
    {"nested_function_reuses_an_argument_name",
     "func.func @f(%arg0: tensor<f32>) {\n  func.func @g(%arg0: tensor<f32>) {\n    return\n  }\n  return\n}\n",
     "bad.mlir:2:16: error: region entry argument '%arg0' is already in use"},
    {"deep_nesting", "func.func @f() { %0 = \"x.y\"() {a = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
     "error:"},
};

INSTANTIATE_TEST_SUITE_P(Reader, BadInput, ::testing::ValuesIn(kBadInputs),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(Reader, HugeNestingDoesNotOverflowTheStack) {
  std::string text = "func.func @f() { %0 = \"x.y\"() {a = " + std::string(200000, '[') + "} : () -> ()\n}\n";
  DiagnosticSink diags;
  EXPECT_EQ(parseModule(text, {}, diags), nullptr);
  EXPECT_NE(diags.formatAll("x").find("nesting too deep"), std::string::npos);
}

// Source positions are found from the last line asked about; these ask far
// ahead (past many blank lines) and far back (an undeclared value reported
// once the whole region has been read).
TEST(Reader, LocationsStayRightWhenAskedOutOfOrder) {
  std::string text = "func.func @f(%a: tensor<f32>) {\n";
  for (int i = 0; i < 5; ++i) text += "  %" + std::to_string(i) + " = stablehlo.abs %a : tensor<f32>\n";
  text += std::string(40, '\n');
  text += "    %z = stablehlo.negate %a : tensor<f32>\n";  // line 47, column 5
  text += "  return %a : tensor<f32>\n}\n";
  DiagnosticSink diags;
  auto m = parseModule(text, {}, diags);
  ASSERT_NE(m, nullptr) << diags.formatAll("t.mlir");
  std::vector<SourceLoc> locs;
  for (auto& op : m->functions().front()->region(0).front().ops()) locs.push_back(op->loc());
  ASSERT_EQ(locs.size(), 7u);
  for (uint32_t i = 0; i < 5; ++i) {
    EXPECT_EQ(locs[i].line, i + 2);
    EXPECT_EQ(locs[i].col, 3u);
  }
  EXPECT_EQ(locs[5].line, 47u);
  EXPECT_EQ(locs[5].col, 5u);
  EXPECT_EQ(locs[6].line, 48u);

  std::string bad = "func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.abs %nope : tensor<f32>\n";
  for (int i = 0; i < 30; ++i) bad += "  %v" + std::to_string(i) + " = stablehlo.abs %a : tensor<f32>\n";
  bad += "  return %a : tensor<f32>\n}\n";
  DiagnosticSink badDiags;
  EXPECT_EQ(parseModule(bad, {}, badDiags), nullptr);
  EXPECT_NE(badDiags.formatAll("bad.mlir").find("bad.mlir:2:22: error: use of undeclared SSA value name '%nope'"),
            std::string::npos)
      << badDiags.formatAll("bad.mlir");
}

TEST(Reader, SplitInputFileKeepsLineNumbers) {
  std::string text = "a\n// -----\nb\nc\n// -----\nd\n";
  auto chunks = splitInputFile(text);
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(chunks[0].firstLine, 1u);
  EXPECT_EQ(chunks[1].firstLine, 3u);
  EXPECT_EQ(chunks[1].text, "b\nc\n");
  EXPECT_EQ(chunks[2].firstLine, 6u);
}

TEST(Reader, ChunkDiagnosticsUseFileLines) {
  DiagnosticSink diags;
  ParseOptions opts;
  opts.firstLine = 10;
  EXPECT_EQ(parseModule("\n  %0 = ", opts, diags), nullptr);
  ASSERT_TRUE(diags.hasErrors());
  EXPECT_EQ(diags.all().front().loc.line, 11u);
}

TEST(Reader, StandaloneAttributeAndType) {
  DiagnosticSink diags;
  auto a = parseAttribute("#sdy.sharding<@mesh, [{\"x\":(2)2, ?}, {}]>", diags);
  ASSERT_TRUE(a.has_value());
  const TensorSharding* s = a->as<TensorSharding>();
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->dims.size(), 2u);
  EXPECT_FALSE(s->dims[0].closed);
  ASSERT_TRUE(s->dims[0].axes[0].subAxis.has_value());
  EXPECT_EQ(s->dims[0].axes[0].subAxis->preSize, 2);
  auto t = parseType("tensor<4x?xbf16>", diags);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->shape, (std::vector<int64_t>{4, Type::kDynamic}));
  EXPECT_EQ(t->elementType, "bf16");
  EXPECT_FALSE(diags.hasErrors());
}

}  // namespace

// printOp numbers names as the full print does, also inside a function
// nested in another (which goes on from the outer one's counters).
TEST(Writer, SingleOpNamesMatchTheFullPrint) {
  DiagnosticSink diags;
  auto m = parseModule(
      "func.func @f(%x: tensor<f32>) -> tensor<f32> {\n"
      "  func.func @g(%y: tensor<f32>) -> tensor<f32> {\n"
      "    %0 = stablehlo.negate %y : tensor<f32>\n    return %0 : tensor<f32>\n  }\n"
      "  %1 = stablehlo.abs %x : tensor<f32>\n  return %1 : tensor<f32>\n}\n",
      {}, diags);
  ASSERT_TRUE(m) << diags.formatAll("x");
  Op* outer = m->functions().front();
  Op* inner = outer->region(0).front().ops().front().get();
  Op* negate = inner->region(0).front().ops().front().get();
  Op* abs = std::next(outer->region(0).front().ops().begin())->get();
  const std::string full = printModule(*m);
  for (Op* op : {negate, abs}) {
    const std::string one = printOp(*op);
    EXPECT_NE(full.find(one), std::string::npos) << one << "\nnot in\n" << full;
  }
  EXPECT_EQ(printOp(*negate), "%1 = stablehlo.negate %arg1 : tensor<f32>");
}
