// Tests for engine/verifier/verifier.cpp.
#include "verifier/verifier.h"

#include <gtest/gtest.h>

#include <memory>

namespace shardscope {
namespace {

using ir::Type;

AxisRef full(const std::string& name) { return AxisRef{name, std::nullopt}; }
AxisRef sub(const std::string& name, int64_t pre, int64_t size) {
  return AxisRef{name, SubAxisInfo{pre, size}};
}
DimensionSharding closed(AxisRefList axes, std::optional<int64_t> priority = std::nullopt) {
  return DimensionSharding{std::move(axes), true, priority};
}
DimensionSharding open(AxisRefList axes) { return DimensionSharding{std::move(axes), false, {}}; }
TensorSharding sharding(std::vector<DimensionSharding> dims, AxisRefList replicated = {},
                        AxisRefList unreduced = {}) {
  return TensorSharding{MeshRef{"mesh", std::nullopt}, std::move(dims), std::move(replicated),
                        std::move(unreduced)};
}
std::string messageOf(const VerifyResult& r) { return r ? r->message : ""; }

// --- meshes ------------------------------------------------------------------

TEST(VerifierTest, Meshes) {
  struct Case {
    Mesh mesh;
    std::string expected;  // "" when valid
  };
  const std::vector<Case> cases = {
      {Mesh{}, ""},
      {Mesh{{}, {0}}, ""},
      {Mesh{{{"a", 2}, {"b", 4}}, {}}, ""},
      {Mesh{{{"a", 2}}, {1, 0}}, ""},
      {Mesh{{{"a", 2}, {"b", 2}}, {0, 1, 2, 3}}, ""},  // iota ids are dropped, not rejected
      {Mesh{{{"a", 2}, {"b", 0}}, {}}, "axis size must be at least 1, got: 0"},
      {Mesh{{{"a", 2}, {"b", 2}, {"a", 4}}, {}}, "duplicate axis name: \"a\""},
      {Mesh{{}, {-1}}, "device id must be non-negative, got: -1"},
      {Mesh{{}, {1, 0}}, "axes is empty and device_ids has more than one element"},
      {Mesh{{{"a", 2}, {"b", 2}}, {0, 2, 1, 3, 4, 5}},
       "total product of axis sizes must match total number of device ids, got: 4 != 6"},
      {Mesh{{{"a", 2}}, {0}}, "total product of axis sizes must match total number of device ids, got: 2 != 1"},
      {Mesh{{{"a", 2}}, {1, 1}}, "sorted device ids must be iota(product(axes)), got: 1, 1"},
      // 2^40 x 2^40 devices, and 70 axes of size 2, overflow int64.
      {Mesh{{{"x", int64_t{1} << 40}, {"y", int64_t{1} << 40}}, {}},
       "total product of axis sizes must fit in a 64-bit integer (at most 9223372036854775807), but it "
       "overflows at axis \"y\"=1099511627776"},
      {[] {
         Mesh m;
         for (int i = 0; i < 70; ++i) m.axes.push_back({"a" + std::to_string(i), 2});
         return m;
       }(),
       "total product of axis sizes must fit in a 64-bit integer (at most 9223372036854775807), but it "
       "overflows at axis \"a62\"=2"},
      {Mesh{{{"x", int64_t{1} << 31}, {"y", int64_t{1} << 31}}, {}}, ""},  // 2^62 fits
  };
  for (const auto& c : cases) EXPECT_EQ(messageOf(verifyMesh(c.mesh)), c.expected) << c.mesh.str();
}

// --- tensor shardings ----------------------------------------------------------

TEST(VerifierTest, TensorShardings) {
  const Mesh mesh{{{"a", 8}, {"b", 4}, {"c", 2}}, {}};
  const Type t88 = Type::tensor({8, 8}, "f32");
  const Type tDyn = Type::tensor({Type::kDynamic, Type::kDynamic}, "f32");
  struct Case {
    std::string name;
    TensorSharding sharding;
    Type type;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"valid", sharding({closed({full("a")}), open({full("b")})}, {full("c")}), t88, ""},
      {"valid sub-axes", sharding({closed({sub("a", 1, 2), full("b")}), closed({sub("a", 2, 4)})}), t88, ""},
      {"rank", sharding({closed({})}), t88, "sharding doesn't match tensor rank: 1 != 2"},
      {"unknown axis", sharding({closed({}), closed({full("z")})}), t88, "unknown axis name: \"z\""},
      {"unknown replicated", sharding({closed({}), closed({})}, {full("z")}), t88, "unknown axis name: \"z\""},
      {"dup same dim", sharding({closed({}), closed({full("a"), full("a")})}), t88, "duplicate axis ref: \"a\""},
      {"dup across dims", sharding({closed({full("a")}), closed({full("a")})}), t88, "duplicate axis ref: \"a\""},
      {"dup dim+replicated", sharding({closed({}), closed({full("a")})}, {full("a")}), t88, "duplicate axis ref: \"a\""},
      {"dup replicated+unreduced", sharding({closed({}), closed({})}, {full("a")}, {full("a")}), t88,
       "duplicate axis ref: \"a\""},
      {"unordered replicated", sharding({closed({}), closed({})}, {full("b"), full("a")}), t88,
       "replicated axes are not ordered w.r.t. mesh"},
      {"unordered unreduced sub-axes", sharding({closed({}), closed({})}, {}, {sub("a", 4, 2), sub("a", 1, 2)}),
       t88, "unreduced axes are not ordered w.r.t. mesh"},
      {"mergeable", sharding({closed({}), closed({sub("a", 1, 2), sub("a", 2, 4)})}), t88,
       "two consecutive sub-axes can be merged: \"a\":(1)2, \"a\":(2)4"},
      {"full and sub", sharding({closed({}), closed({full("a")})}, {sub("a", 2, 2)}), t88,
       "both sub-axis and full-axis are used for axis name: \"a\""},
      {"size one", sharding({closed({}), closed({sub("a", 2, 1)})}), t88,
       "sub-axis sizes must be greater than 1: \"a\":(2)1"},
      {"pre-size not dividing", sharding({closed({}), closed({sub("a", 3, 2)})}), t88,
       "sub-axis next pre-size 6 doesn't divide the size of the full axis 8: \"a\":(3)2"},
      {"beyond axis", sharding({closed({}), closed({sub("a", 4, 4)})}), t88,
       "sub-axis next pre-size 16 doesn't divide the size of the full axis 8: \"a\":(4)4"},
      {"overflowing sub-axis", sharding({closed({}), closed({sub("a", 4294967296, 4294967296)})}), t88,
       "sub-axis next pre-size 18446744073709551616 doesn't divide the size of the full axis 8: "
       "\"a\":(4294967296)4294967296"},
      // The exact product, not what int64 wraps it to (1 here, which divides 8).
      {"largest sub-axis", sharding({closed({}), closed({sub("a", INT64_MAX, INT64_MAX)})}), t88,
       "sub-axis next pre-size 85070591730234615847396907784232501249 doesn't divide the size of the full "
       "axis 8: \"a\":(9223372036854775807)9223372036854775807"},
      {"whole axis", sharding({closed({}), closed({sub("a", 1, 8)})}), t88,
       "sub-axis size is equal to the full axis size: \"a\":(1)8"},
      {"overlap", sharding({closed({sub("a", 2, 4)}), closed({})}, {sub("a", 1, 4)}), tDyn,
       "overlapping sub-axes: \"a\":(1)4, \"a\":(2)4"},
      {"priority on empty closed", sharding({closed({}, 1), closed({})}), tDyn,
       "dim 0 is empty and closed but has a priority"},
      {"negative priority", sharding({closed({full("a")}, -1), closed({})}), t88, "dim 0 has a negative priority"},
      {"priority on open empty is fine", sharding({DimensionSharding{{}, false, 1}, closed({})}), t88, ""},
      {"token rank", sharding({closed({})}), Type::token(),
       "non-shaped tensors can only have a sharding with rank 0 and no replicated or unreduced axes. "
       "type: '!stablehlo.token', sharding: #sdy.sharding<@mesh, [{}]>"},
      {"token rank 0", sharding({}), Type::token(), ""},
      {"non-divisible is allowed", sharding({closed({full("a")}), closed({})}), Type::tensor({6, 6}, "f32"), ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(messageOf(verifyTensorSharding(c.sharding, &c.type, &mesh)), c.expected);
  }
}

TEST(VerifierTest, UnrankedAndUnknownMeshAndMaximal) {
  const Mesh mesh{{{"a", 2}}, {}};
  Type unranked = Type::tensor({}, "f32");
  unranked.unranked = true;
  EXPECT_EQ(messageOf(verifyTensorSharding(sharding({}), &unranked, &mesh)),
            "only ranked tensors can have a sharding. type: 'tensor<*xf32>'");
  const Type t = Type::tensor({8}, "f32");
  EXPECT_EQ(messageOf(verifyTensorSharding(sharding({closed({})}), &t, nullptr)),
            "unknown mesh: @mesh");
  const Mesh maximal{{}, {0}};
  EXPECT_EQ(messageOf(verifyTensorSharding(sharding({}), &t, &maximal)), "");
  EXPECT_EQ(messageOf(verifyTensorSharding(sharding({closed({})}), &t, &maximal)),
            "a maximal sharding can only have a sharding with rank 0 and no replicated or "
            "unreduced axes.");
}

// --- op sharding rules ---------------------------------------------------------

TEST(VerifierTest, OpShardingRules) {
  const Type t24 = Type::tensor({2, 4}, "f32");
  auto rule = [](std::vector<int64_t> sizes, std::vector<TensorFactorMapping> operands,
                 std::vector<TensorFactorMapping> results) {
    OpShardingRule r;
    r.factorSizes = std::move(sizes);
    r.operands = std::move(operands);
    r.results = std::move(results);
    return r;
  };
  const TensorFactorMapping ij{{{0}, {1}}};
  struct Case {
    std::string name;
    OpShardingRule rule;
    std::vector<Type> operands;
    std::vector<Type> results;
    std::string expected;
  };
  OpShardingRule reduction = rule({2, 4}, {ij}, {TensorFactorMapping{{{0}}}});
  reduction.reductionFactors = {1};
  OpShardingRule reductionInResult = rule({2, 4}, {ij}, {ij});
  reductionInResult.reductionFactors = {1};
  OpShardingRule unsorted = rule({2, 4}, {ij}, {ij});
  unsorted.needReplicationFactors = {1, 0};
  OpShardingRule repeated = rule({2, 4}, {ij}, {ij});
  repeated.permutationFactors = {1, 1};
  OpShardingRule outOfRange = rule({2, 4}, {ij}, {ij});
  outOfRange.needReplicationFactors = {17};
  OpShardingRule twoSets = rule({2, 4}, {ij}, {ij});
  twoSets.needReplicationFactors = {1};
  twoSets.permutationFactors = {1};
  OpShardingRule blockedUnsorted = rule({2, 4}, {ij}, {ij});
  blockedUnsorted.blockedPropagationFactors = {1, 0};

  const std::vector<Case> cases = {
      {"valid", rule({2, 4}, {ij, ij}, {ij}), {t24, t24}, {t24}, ""},
      {"valid reduction", reduction, {t24}, {Type::tensor({2}, "f32")}, ""},
      {"operand count", rule({2, 4}, {ij}, {ij}), {t24, t24}, {t24},
       "number of operands and mappings must match: 2 != 1"},
      {"result count", rule({2, 4}, {ij}, {ij, ij}), {t24}, {t24},
       "number of results and mappings must match: 1 != 2"},
      {"rank", rule({2, 4}, {ij, TensorFactorMapping{{{0}}}}, {ij}), {t24, t24}, {t24},
       "operand 1 - mapping rank must match: 1 != 2"},
      {"dynamic", rule({2, 4}, {ij}, {ij}), {Type::tensor({Type::kDynamic, 4}, "f32")}, {t24},
       "operand - expected a ranked tensor with a static shape. type: 'tensor<?x4xf32>'"},
      {"empty dim", rule({2, 4}, {TensorFactorMapping{{{0}, {}}}}, {ij}), {t24}, {t24},
       "operand - dim mapping must have at least one factor"},
      {"unknown factor", rule({2, 4}, {TensorFactorMapping{{{0}, {12}}}}, {ij}), {t24}, {t24},
       "operand - expecting factor indices to be within 0<=...<num_factors; received: 12, "
       "num_factors: 2"},
      {"reuse", rule({2, 2}, {TensorFactorMapping{{{0}, {0}}}}, {TensorFactorMapping{{{0, 1}}}}),
       {Type::tensor({2, 2}, "f32")}, {Type::tensor({4}, "f32")},
       "operand - cannot reuse factors for the same tensor value"},
      {"size one in compound", rule({2, 4, 1}, {TensorFactorMapping{{{0}, {1, 2}}}}, {ij}), {t24}, {t24},
       "operand - dim mapping can't have a factor of size 1 if there are multiple factors"},
      {"unused", rule({2, 4, 2}, {ij}, {ij}), {t24}, {t24},
       "has factor k=2 that isn't used in operand and result mappings"},
      {"unsorted", unsorted, {t24}, {t24}, "indices of special factors must be sorted"},
      {"repeated", repeated, {t24}, {t24}, "indices of special factors must be unique"},
      {"out of range", outOfRange, {t24}, {t24}, "index must be less than 2, got: 17"},
      {"two sets", twoSets, {t24}, {t24},
       "a factor can only be in one of the reduction, need replication, or permutation factor sets"},
      {"blocked unsorted", blockedUnsorted, {t24}, {t24}, "indices of special factors must be sorted"},
      {"reduction in result", reductionInResult, {t24}, {t24},
       "reduction factor cannot be in result mappings"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(messageOf(verifyOpShardingRule(c.rule, c.operands, c.results)), c.expected);
  }
}

// --- whole modules -------------------------------------------------------------

class ModuleBuilder {
 public:
  ModuleBuilder() : module_(ir::makeEmptyModule()) {}

  void mesh(const std::string& name, Mesh mesh, uint32_t line) {
    auto op = std::make_unique<ir::Op>("sdy.mesh", ir::SourceLoc{line, 1});
    op->setAttr("sym_name", ir::StringAttr{name}, true);
    op->setAttr("mesh", std::move(mesh), true);
    module_.body().append(std::move(op));
  }
  // `func.func @name(args) -> results` with an entry block; returns its block.
  ir::Block& func(const std::string& name, const std::vector<Type>& args, uint32_t line,
                  std::vector<ir::Attribute> argAttrs = {}) {
    auto op = std::make_unique<ir::Op>("func.func", ir::SourceLoc{line, 1});
    op->setAttr("sym_name", ir::StringAttr{name}, true);
    if (!argAttrs.empty()) op->setAttr("arg_attrs", ir::Attribute::makeArray(argAttrs), true);
    ir::Block& block = op->addRegion().addBlock();
    for (const Type& t : args) block.addArgument(t);
    func_ = module_.body().append(std::move(op));
    return block;
  }
  ir::Op* op(ir::Block& block, const std::string& name, const std::vector<ir::Value*>& operands,
             const std::vector<Type>& results, uint32_t line) {
    auto op = std::make_unique<ir::Op>(name, ir::SourceLoc{line, 3});
    for (ir::Value* v : operands) op->addOperand(v);
    for (const Type& t : results) op->addResult(t);
    return block.append(std::move(op));
  }
  ir::Module& module() { return module_; }

 private:
  ir::Module module_;
  ir::Op* func_ = nullptr;
};

std::vector<std::string> errorsOf(const ir::Module& module, bool* ok = nullptr) {
  ir::DiagnosticSink sink;
  bool result = verifyModule(module, sink);
  if (ok) *ok = result;
  std::vector<std::string> out;
  for (const ir::Diagnostic& d : sink.all())
    out.push_back(std::to_string(d.loc.line) + (d.severity == ir::Severity::Note ? " note: " : ": ") +
                  d.message);
  return out;
}

TEST(VerifierModuleTest, ValidModule) {
  ModuleBuilder b;
  b.mesh("mesh", Mesh{{{"a", 2}}, {}}, 1);
  const Type t = Type::tensor({8, 8}, "f32");
  ir::Block& body = b.func("main", {t, t}, 2,
                           {ir::Attribute::makeDict({{"sdy.sharding", sharding({closed({full("a")}), closed({})})}}),
                            ir::Attribute::makeDict({})});
  ir::Op* add = b.op(body, "stablehlo.add", {body.argument(0), body.argument(1)}, {t}, 3);
  add->setAttr("sdy.sharding", TensorShardingPerValue{{sharding({open({}), closed({full("a")})})}});
  b.op(body, "func.return", {add->result(0)}, {}, 4);
  bool ok = false;
  EXPECT_TRUE(errorsOf(b.module(), &ok).empty());
  EXPECT_TRUE(ok);
}

TEST(VerifierModuleTest, OpResultAndFuncArgPrefixes) {
  const Type t = Type::tensor({8, 8}, "f32");
  {
    ModuleBuilder b;
    b.mesh("mesh", Mesh{{{"a", 2}}, {}}, 1);
    ir::Block& body = b.func("main", {t}, 2);
    ir::Op* add = b.op(body, "stablehlo.add", {body.argument(0), body.argument(0)}, {t}, 3);
    add->setAttr("sdy.sharding", TensorShardingPerValue{{sharding({closed({}), closed({full("c")})})}});
    b.op(body, "func.return", {add->result(0)}, {}, 4);
    bool ok = true;
    EXPECT_EQ(errorsOf(b.module(), &ok),
              std::vector<std::string>{"3: 'stablehlo.add' op result - unknown axis name: \"c\""});
    EXPECT_FALSE(ok);
  }
  {
    ModuleBuilder b;
    b.mesh("mesh", Mesh{{{"a", 2}}, {}}, 1);
    ir::Block& body = b.func("main", {t}, 2,
                             {ir::Attribute::makeDict({{"sdy.sharding", sharding({closed({})})}})});
    b.op(body, "func.return", {body.argument(0)}, {}, 4);
    EXPECT_EQ(errorsOf(b.module()),
              std::vector<std::string>{
                  "2: 'func.func' op arg 0 - sharding doesn't match tensor rank: 1 != 2"});
  }
  {
    ModuleBuilder b;
    b.mesh("mesh", Mesh{{{"a", 2}}, {}}, 1);
    ir::Block& body = b.func("main", {t}, 2);
    ir::Op* reduce = b.op(body, "stablehlo.reduce", {body.argument(0)}, {t, t}, 3);
    reduce->setAttr("sdy.sharding", TensorShardingPerValue{{sharding({closed({}), closed({})}),
                                                            sharding({closed({}), closed({})}),
                                                            sharding({closed({}), closed({})})}});
    b.op(body, "func.return", {reduce->result(0)}, {}, 4);
    EXPECT_EQ(errorsOf(b.module()),
              std::vector<std::string>{"3: 'stablehlo.reduce' op result shardings don't match "
                                       "number of values: 3 shardings vs 2 values"});
  }
}

TEST(VerifierModuleTest, ConstraintInsideManualComputation) {
  ModuleBuilder b;
  b.mesh("mesh", Mesh{{{"a", 2}}, {}}, 1);
  const Type global = Type::tensor({16, 32}, "f32");
  const Type local = Type::tensor({8, 32}, "f32");
  ir::Block& body = b.func("main", {global}, 2);
  ir::Op* mc = b.op(body, "sdy.manual_computation", {body.argument(0)}, {global}, 3);
  mc->setAttr("in_shardings", TensorShardingPerValue{{sharding({open({full("a")}), open({})})}}, true);
  mc->setAttr("out_shardings", TensorShardingPerValue{{sharding({open({full("a")}), open({})})}}, true);
  mc->setAttr("manual_axes", ir::ManualAxesAttr{{"a"}}, true);
  ir::Block& inner = mc->addRegion().addBlock();
  inner.addArgument(local);
  ir::Op* constraint = b.op(inner, "sdy.sharding_constraint", {inner.argument(0)}, {local}, 4);
  constraint->setAttr("sharding", sharding({closed({full("a")}), closed({})}), true);
  b.op(inner, "sdy.return", {constraint->result(0)}, {}, 5);
  b.op(body, "func.return", {mc->result(0)}, {}, 6);
  EXPECT_EQ(errorsOf(b.module()),
            (std::vector<std::string>{
                "4: 'sdy.sharding_constraint' op operates on axis \"a\" which is already bound by a "
                "parent sdy.manual_computation op",
                "3 note: parent bounding this axis as manual"}));
}

TEST(VerifierModuleTest, ManualComputationLocalShape) {
  ModuleBuilder b;
  b.mesh("mesh", Mesh{{{"a", 2}}, {}}, 1);
  const Type global = Type::tensor({16, 32}, "f32");
  ir::Block& body = b.func("main", {global}, 2);
  ir::Op* mc = b.op(body, "sdy.manual_computation", {body.argument(0)}, {global}, 3);
  mc->setAttr("in_shardings", TensorShardingPerValue{{sharding({closed({full("a")}), closed({})})}}, true);
  mc->setAttr("out_shardings", TensorShardingPerValue{{sharding({closed({}), closed({})})}}, true);
  mc->setAttr("manual_axes", ir::ManualAxesAttr{{"a"}}, true);
  ir::Block& inner = mc->addRegion().addBlock();
  inner.addArgument(global);
  b.op(inner, "sdy.return", {inner.argument(0)}, {}, 5);
  b.op(body, "func.return", {mc->result(0)}, {}, 6);
  EXPECT_EQ(errorsOf(b.module()),
            std::vector<std::string>{
                "3: 'sdy.manual_computation' op operand shape, corresponding sharding, and region "
                "operand shape at index 0 must match. Expected local shape 'tensor<8x32xf32>', "
                "actual local shape 'tensor<16x32xf32>'"});
}

TEST(VerifierModuleTest, BadMeshStopsEverything) {
  ModuleBuilder b;
  b.mesh("mesh", Mesh{{{"a", 2}}, {1, 1}}, 1);
  const Type t = Type::tensor({8}, "f32");
  ir::Block& body = b.func("main", {t}, 2);
  ir::Op* add = b.op(body, "stablehlo.add", {body.argument(0), body.argument(0)}, {t}, 3);
  add->setAttr("sdy.sharding", TensorShardingPerValue{{sharding({closed({full("zz")})})}});
  b.op(body, "func.return", {add->result(0)}, {}, 4);
  EXPECT_EQ(errorsOf(b.module()),
            std::vector<std::string>{
                "1: custom op 'sdy.mesh' sorted device ids must be iota(product(axes)), got: 1, 1"});
}

TEST(VerifierModuleTest, OpSpecificChecks) {
  const Type t = Type::tensor({8}, "f32");
  {  // a barrier must block some direction
    ModuleBuilder b;
    ir::Block& body = b.func("main", {t}, 1);
    ir::Op* barrier = b.op(body, "sdy.propagation_barrier", {body.argument(0)}, {t}, 2);
    barrier->setAttr("allowed_direction", ir::EnumAttr{"sdy", "propagation_direction", "BOTH"}, true);
    b.op(body, "func.return", {barrier->result(0)}, {}, 3);
    EXPECT_EQ(errorsOf(b.module()),
              std::vector<std::string>{"2: 'sdy.propagation_barrier' op cannot specify `BOTH` as the "
                                       "direction. Not blocking propagation direction makes the op "
                                       "redundant."});
  }
  {  // a constraint may only introduce `sum` unreduced axes
    ModuleBuilder b;
    b.mesh("mesh", Mesh{{{"x", 2}}, {}}, 1);
    ir::Block& body = b.func("main", {t}, 2,
                             {ir::Attribute::makeDict({{"sdy.sharding", sharding({closed({full("x")})})}})});
    ir::Op* constraint = b.op(body, "sdy.sharding_constraint", {body.argument(0)}, {t}, 3);
    TensorSharding withMax = sharding({closed({})}, {}, {full("x")});
    withMax.unreducedReduction = "max";
    constraint->setAttr("sharding", withMax, true);
    b.op(body, "func.return", {constraint->result(0)}, {}, 4);
    EXPECT_EQ(errorsOf(b.module()),
              std::vector<std::string>{"3: 'sdy.sharding_constraint' op cannot introduce 'max' "
                                       "unreduced axes. Expected 'sum'."});
  }
  {  // a func data-flow edge must sit on a function argument or a call result
    ModuleBuilder b;
    ir::Block& body = b.func("main", {t}, 1);
    ir::Op* add = b.op(body, "stablehlo.add", {body.argument(0), body.argument(0)}, {t}, 2);
    ir::Op* edge = b.op(body, "sdy.func_data_flow_edge", {add->result(0)}, {t}, 3);
    b.op(body, "func.return", {edge->result(0)}, {}, 4);
    EXPECT_EQ(errorsOf(b.module()),
              std::vector<std::string>{"3: 'sdy.func_data_flow_edge' op expected operand of "
                                       "sdy.func_data_flow_edge to be a result of call op."});
  }
}

TEST(VerifierModuleTest, IsolatedRegionsUseOnlyTheirOwnValues) {
  ModuleBuilder b;
  b.mesh("mesh", Mesh{{{"a", 2}}, {}}, 1);
  const Type t = Type::tensor({16, 32}, "f32");
  ir::Block& body = b.func("main", {t}, 2);
  ir::Op* mc = b.op(body, "sdy.manual_computation", {body.argument(0)}, {t}, 3);
  mc->setAttr("in_shardings", TensorShardingPerValue{{sharding({closed({}), closed({})})}}, true);
  mc->setAttr("out_shardings", TensorShardingPerValue{{sharding({closed({}), closed({})})}}, true);
  mc->setAttr("manual_axes", ir::ManualAxesAttr{}, true);
  ir::Block& inner = mc->addRegion().addBlock();
  inner.addArgument(t);
  ir::Op* add = b.op(inner, "stablehlo.add", {body.argument(0), inner.argument(0)}, {t}, 4);
  b.op(inner, "sdy.return", {add->result(0)}, {}, 5);
  b.op(body, "func.return", {mc->result(0)}, {}, 6);
  EXPECT_EQ(errorsOf(b.module()),
            (std::vector<std::string>{"4: 'stablehlo.add' op using value defined outside the region",
                                      "3 note: required by region isolation constraints"}));
}

// A module of 16,384 ops or more is checked on two threads (verifier.cpp,
// runOnTwoThreads); the diagnostics must be the ones, in the order, of one
// thread. Each case builds its module, then the same module with a valid
// function of `padding` ops after everything else: 0 stays on one thread,
// 20,000 crosses over, and both must report the same.
struct TwoThreadCase {
  const char* name;
  // Builds the functions that matter (lines 1-99) into `b`.
  void (*build)(ModuleBuilder& b);
  std::vector<std::string> expected;
};

void PrintTo(const TwoThreadCase& c, std::ostream* os) { *os << c.name; }

void padWithValidFunction(ModuleBuilder& b, int ops) {
  if (ops == 0) return;
  const Type t = Type::tensor({8}, "f32");
  ir::Block& body = b.func("pad", {t}, 100);
  ir::Value* last = body.argument(0);
  for (int i = 0; i < ops; ++i) last = b.op(body, "stablehlo.add", {last, last}, {t}, 101)->result(0);
  b.op(body, "func.return", {last}, {}, 102);
}

// @f: an unknown axis in an op's sharding (an error inside the function).
void insideError(ModuleBuilder& b, const std::string& name, uint32_t line) {
  const Type t = Type::tensor({8}, "f32");
  ir::Block& body = b.func(name, {t}, line);
  ir::Op* add = b.op(body, "stablehlo.add", {body.argument(0), body.argument(0)}, {t}, line + 1);
  add->setAttr("sdy.sharding", TensorShardingPerValue{{sharding({closed({full("zz")})})}});
  b.op(body, "func.return", {add->result(0)}, {}, line + 2);
}

// A function using a value of another function's (its isolation check, the
// last of its checks, fails); returns the function's block.
ir::Block& isolationError(ModuleBuilder& b, const std::string& name, uint32_t line, ir::Value* foreign) {
  const Type t = Type::tensor({8}, "f32");
  ir::Block& body = b.func(name, {t}, line);
  ir::Op* add = b.op(body, "stablehlo.add", {body.argument(0), foreign}, {t}, line + 1);
  b.op(body, "func.return", {add->result(0)}, {}, line + 2);
  return body;
}

const std::vector<TwoThreadCase>& twoThreadCases() {
  static const std::vector<TwoThreadCase> cases = {
      {"valid",
       [](ModuleBuilder& b) {
         b.mesh("mesh", Mesh{{{"a", 2}}, {}}, 1);
         const Type t = Type::tensor({8}, "f32");
         ir::Block& body = b.func("main", {t}, 2);
         b.op(body, "func.return", {body.argument(0)}, {}, 3);
       },
       {}},
      {"insideErrorsInTwoFunctions",
       [](ModuleBuilder& b) {
         b.mesh("mesh", Mesh{{{"a", 2}}, {}}, 1);
         insideError(b, "f", 10);
         insideError(b, "g", 20);
       },
       {"11: 'stablehlo.add' op result - unknown axis name: \"zz\"",
        "21: 'stablehlo.add' op result - unknown axis name: \"zz\""}},
      {"isolationThenInsideThenIsolation",
       [](ModuleBuilder& b) {
         b.mesh("mesh", Mesh{{{"a", 2}}, {}}, 1);
         const Type t = Type::tensor({8}, "f32");
         ir::Block& other = b.func("other", {t}, 2);
         b.op(other, "func.return", {other.argument(0)}, {}, 3);
         isolationError(b, "f", 10, other.argument(0));
         insideError(b, "g", 20);
         isolationError(b, "h", 30, other.argument(0));
       },
       {"11: 'stablehlo.add' op using value defined outside the region",
        "10 note: required by region isolation constraints",
        "21: 'stablehlo.add' op result - unknown axis name: \"zz\"",
        "31: 'stablehlo.add' op using value defined outside the region",
        "30 note: required by region isolation constraints"}},
      {"insideErrorHidesIsolationError",
       [](ModuleBuilder& b) {
         b.mesh("mesh", Mesh{{{"a", 2}}, {}}, 1);
         const Type t = Type::tensor({8}, "f32");
         ir::Block& other = b.func("other", {t}, 2);
         b.op(other, "func.return", {other.argument(0)}, {}, 3);
         ir::Block& f = isolationError(b, "f", 10, other.argument(0));
         f.ops().front()->setAttr("sdy.sharding", TensorShardingPerValue{{sharding({closed({full("zz")})})}});
       },
       {"11: 'stablehlo.add' op result - unknown axis name: \"zz\""}},
      {"badMeshHidesEverythingElse",
       [](ModuleBuilder& b) {
         insideError(b, "f", 10);
         b.mesh("mesh", Mesh{{{"a", 2}}, {1, 1}}, 50);
       },
       {"50: custom op 'sdy.mesh' sorted device ids must be iota(product(axes)), got: 1, 1"}},
  };
  return cases;
}

class VerifierTwoThreadsTest : public ::testing::TestWithParam<TwoThreadCase> {};

TEST_P(VerifierTwoThreadsTest, SameDiagnosticsAsOneThread) {
  for (int padding : {0, 20000}) {
    SCOPED_TRACE("padding " + std::to_string(padding));
    ModuleBuilder b;
    GetParam().build(b);
    padWithValidFunction(b, padding);
    bool ok = false;
    EXPECT_EQ(errorsOf(b.module(), &ok), GetParam().expected);
    EXPECT_EQ(ok, GetParam().expected.empty());
  }
}

INSTANTIATE_TEST_SUITE_P(VerifierModuleTest, VerifierTwoThreadsTest, ::testing::ValuesIn(twoThreadCases()),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace shardscope
