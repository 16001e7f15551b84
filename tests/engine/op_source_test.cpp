// engine/api/op_source: the Python line, call stack and name scope of an
// op, and the search for the ops of one Python line.
#include "api/nested_name_scope.h"
#include "api/op_source.h"

#include <gtest/gtest.h>

#include "parse_test_module.h"

namespace shardscope::api {
namespace {

using test_support::parseTestModule;

// As JAX exports: names on the outside, frames in callsites, aliases last.
constexpr const char* kExported = R"(#loc1 = loc("x")
module @jit_f {
  func.func public @main(%arg0: tensor<8xf32> loc("x")) -> tensor<8xf32> {
    %0 = stablehlo.dot_general %arg0, %arg0, contracting_dims = [0] x [0] : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32> loc(#loc9)
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8xf32> loc(#loc10)
    %2 = stablehlo.add %1, %arg0 : tensor<8xf32> loc(#loc11)
    %3 = stablehlo.abs %2 : tensor<8xf32> loc(#loc12)
    return %3 : tensor<8xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("src/model.py":41:12)
#loc3 = loc("train.py":88:4)
#loc4 = loc("src/model.py":42:3)
#loc5 = loc("Attention.__call__"(#loc2))
#loc6 = loc("main"(#loc3))
#loc7 = loc(callsite(#loc5 at #loc6))
#loc9 = loc("jit(f)/transformer/layer_3/attention/dot_general"(#loc7))
#loc10 = loc("jit(f)/transformer/layer_3/broadcast_in_dim[shape=(8,) broadcast_dimensions=()]"(#loc4))
#loc11 = loc("add:"("jit(f)/scatter[dims=(0/1)]/add"(#loc4)))
#loc12 = loc(fused["jit(f)/abs"("mymodel.py":41:1), "other.py":7:2])
)";

const ir::Op* opAt(const ir::Module& m, int index) {
  auto it = m.functions().front()->region(0).front().ops().begin();
  std::advance(it, index);
  return it->get();
}

TEST(OpSourceTest, StackNameScopeAndPrimitive) {
  auto m = parseTestModule(kExported);
  ASSERT_TRUE(m);
  OpSource dot = opSource(*opAt(*m, 0));
  EXPECT_EQ(dot.stack, (std::vector<SourceFrame>{{"src/model.py", 41, 12, "Attention.__call__"},
                                                 {"train.py", 88, 4, "main"}}));
  ASSERT_NE(dot.frame(), nullptr);
  EXPECT_EQ(frameText(*dot.frame()), "src/model.py:41:12");
  EXPECT_EQ(dot.nameScope, "jit(f)/transformer/layer_3/attention/dot_general");
  EXPECT_EQ(dot.scopePath, (std::vector<std::string>{"jit(f)", "transformer", "layer_3", "attention"}));
  EXPECT_EQ(dot.primitive, "dot_general");

  // The parameters of a primitive are not a scope; a name ending in ':'
  // is the op's kind, and a '/' inside brackets does not split.
  OpSource bcast = opSource(*opAt(*m, 1));
  EXPECT_EQ(bcast.scopePath, (std::vector<std::string>{"jit(f)", "transformer", "layer_3"}));
  EXPECT_EQ(bcast.primitive, "broadcast_in_dim");
  EXPECT_EQ(bcast.stack, (std::vector<SourceFrame>{{"src/model.py", 42, 3, ""}}));
  OpSource add = opSource(*opAt(*m, 2));
  EXPECT_EQ(add.scopePath, (std::vector<std::string>{"jit(f)", "scatter[dims=(0/1)]"}));
  EXPECT_EQ(add.primitive, "add");

  // Fused: the name of the first part, the frames of all.
  OpSource abs = opSource(*opAt(*m, 3));
  EXPECT_EQ(abs.nameScope, "jit(f)/abs");
  EXPECT_EQ(abs.stack, (std::vector<SourceFrame>{{"mymodel.py", 41, 1, ""}, {"other.py", 7, 2, ""}}));

  // Unknown or no location: nothing.
  EXPECT_TRUE(opSource(*opAt(*m, 4)).empty());
  auto plain = parseTestModule("func.func @main() {\n  return\n}\n");
  EXPECT_TRUE(opSource(*plain->functions().front()).empty());

  // Function arguments are named.
  EXPECT_EQ(argumentSource(m->functions().front()->region(0).front(), 0).nameScope, "x");
}

// The name as JAX writes it when it inlines a lowering into a scope whose
// location is a bare file line: the primitive wraps the scope. Read as the
// one-piece form; a Python function under the name stays a frame.
TEST(OpSourceTest, NestedNameReadsAsOneName) {
  struct Case {
    const char* loc;
    const char* nameScope;
    std::vector<std::string> scopePath;
    const char* primitive;
    SourceFrame frame;
    const char* nested;  // nestedNameScopeOf: the scope the primitive wraps
  };
  for (const Case& c : std::vector<Case>{
           {R"L(loc("cholesky"("jit(chol)"("t/solve_test.py":182:4))))L", "jit(chol)/cholesky",
            {"jit(chol)"}, "cholesky", {"t/solve_test.py", 182, 4, ""}, "jit(chol)"},
           {R"L(loc("dot_general:"("dot_general"("jit(f)/mlp/dense_1"("m.py":3:9)))))L",
            "jit(f)/mlp/dense_1/dot_general", {"jit(f)", "mlp", "dense_1"}, "dot_general",
            {"m.py", 3, 9, ""}, "jit(f)/mlp/dense_1"},
           {R"L(loc("reduce_sum"("transpose(jvp(f))"("m.py":5:1))))L", "transpose(jvp(f))/reduce_sum",
            {"transpose(jvp(f))"}, "reduce_sum", {"m.py", 5, 1, ""}, "transpose(jvp(f))"},
           // A Python function, not a scope: the frame's function.
           {R"L(loc("add"("Model.__call__"("m.py":7:2))))L", "add", {}, "add", {"m.py", 7, 2, "Model.__call__"}, ""},
           {R"L(loc("add"("<module>"("m.py":8:2))))L", "add", {}, "add", {"m.py", 8, 2, "<module>"}, ""},
           // The one-piece name already holds its scope: what is under it is the stack.
           {R"L(loc("jit(f)/add"("<module>"("m.py":9:2))))L", "jit(f)/add", {"jit(f)"}, "add",
            {"m.py", 9, 2, "<module>"}, ""},
           {R"L(loc("jit(f)/add"("jit(g)"("m.py":9:2))))L", "jit(f)/add", {"jit(f)"}, "add",
            {"m.py", 9, 2, "jit(g)"}, ""},
       }) {
    SCOPED_TRACE(c.loc);
    const std::string text = std::string("func.func @main(%arg0: tensor<f32>) -> tensor<f32> {\n") +
                             "  %0 = stablehlo.abs %arg0 : tensor<f32> " + c.loc + "\n  return %0 : tensor<f32>\n}\n";
    auto m = parseTestModule(text);
    ASSERT_TRUE(m);
    const OpSource s = opSource(*opAt(*m, 0));
    EXPECT_EQ(s.nameScope, c.nameScope);
    EXPECT_EQ(s.scopePath, c.scopePath);
    EXPECT_EQ(s.primitive, c.primitive);
    EXPECT_EQ(s.stack, std::vector<SourceFrame>{c.frame});
    // Read in place, as the grouping and the search index read it: the
    // nested form's scope is the name it wraps, and the scope path is the
    // same either way.
    const std::string nested(nestedNameScopeOf(*opAt(*m, 0)));
    EXPECT_EQ(nested, c.nested);
    if (!nested.empty()) {
      EXPECT_EQ(nested + '/' + c.primitive, s.nameScope);
    }
    NameScopeCache cache;
    EXPECT_EQ(cache.scopePath(*opAt(*m, 0)), c.scopePath);
  }
  // Found by the Python line like any other op.
  auto m = parseTestModule(
      "func.func @main(%arg0: tensor<f32>) -> tensor<f32> {\n"
      "  %0 = stablehlo.abs %arg0 : tensor<f32> loc(\"abs\"(\"jit(f)\"(\"t/solve_test.py\":182:4)))\n"
      "  return %0 : tensor<f32>\n}\n");
  ASSERT_TRUE(m);
  EXPECT_EQ(opsAtSourceLine(*m->op, {"solve_test.py", 182}), (std::vector<const ir::Op*>{opAt(*m, 0)}));
}

TEST(OpSourceTest, SplitNameScope) {
  EXPECT_EQ(splitNameScope("a"), (std::vector<std::string>{"a"}));
  EXPECT_EQ(splitNameScope("jit(f)/a/scatter[x=(1/2)]"),
            (std::vector<std::string>{"jit(f)", "a", "scatter[x=(1/2)]"}));
  EXPECT_EQ(splitNameScope("transpose(jvp(f/g))/mul"), (std::vector<std::string>{"transpose(jvp(f/g))", "mul"}));
}

TEST(OpSourceTest, NameScopeCacheAndPresence) {
  auto m = parseTestModule(kExported);
  ASSERT_TRUE(m);
  NameScopeCache cache;
  EXPECT_EQ(cache.scopePath(*opAt(*m, 0)), nameScopePath(*opAt(*m, 0)));
  EXPECT_TRUE(cache.scopePath(*opAt(*m, 4)).empty());
  EXPECT_TRUE(hasNameScopes(*m->op));
  auto plain = parseTestModule("func.func @main() {\n  return loc(\"jit(f)\"(\"a.py\":1:1))\n}\n");
  EXPECT_FALSE(hasNameScopes(*plain->op));
  // A '/' inside brackets is no scope; one outside is.
  auto bracketed =
      parseTestModule("func.func @main() {\n  return loc(\"scatter[x=(1/2)]\"(\"a.py\":1:1))\n}\n");
  ASSERT_TRUE(bracketed);
  EXPECT_FALSE(hasNameScopes(*bracketed->op));
  auto scoped = parseTestModule("func.func @main() {\n  return loc(\"f/scatter[x=(1/2)]\")\n}\n");
  ASSERT_TRUE(scoped);
  EXPECT_TRUE(hasNameScopes(*scoped->op));
}

TEST(OpSourceTest, ParseSourceLineQuery) {
  struct Case {
    const char* text;
    std::optional<std::pair<std::string, uint32_t>> query;
  };
  for (const Case& c : std::vector<Case>{
           {"model.py:41", std::pair<std::string, uint32_t>{"model.py", 41}},
           {" src/model.py:41:12 ", std::pair<std::string, uint32_t>{"src/model.py", 41}},
           {"<string>:16", std::pair<std::string, uint32_t>{"<string>", 16}},
           {"model.py", std::nullopt},
           {"model.py:", std::nullopt},
           {"model.py:0", std::nullopt},
           {"a:1", std::nullopt},
           {"%3", std::nullopt},
           {"my model.py:3", std::nullopt},
           {"model.py:99999999999", std::nullopt},
       }) {
    SCOPED_TRACE(c.text);
    auto q = parseSourceLineQuery(c.text);
    ASSERT_EQ(q.has_value(), c.query.has_value());
    if (q) {
      EXPECT_EQ(q->file, c.query->first);
      EXPECT_EQ(q->line, c.query->second);
    }
  }
}

TEST(OpSourceTest, OpsAtSourceLine) {
  auto m = parseTestModule(kExported);
  ASSERT_TRUE(m);
  // "model.py" matches "src/model.py" but not "mymodel.py".
  EXPECT_EQ(opsAtSourceLine(*m->op, {"model.py", 41}), (std::vector<const ir::Op*>{opAt(*m, 0)}));
  EXPECT_EQ(opsAtSourceLine(*m->op, {"src/model.py", 42}),
            (std::vector<const ir::Op*>{opAt(*m, 1), opAt(*m, 2)}));
  // A caller's line finds the ops made through it.
  EXPECT_EQ(opsAtSourceLine(*m->op, {"train.py", 88}), (std::vector<const ir::Op*>{opAt(*m, 0)}));
  EXPECT_EQ(opsAtSourceLine(*m->op, {"mymodel.py", 41}), (std::vector<const ir::Op*>{opAt(*m, 3)}));
  EXPECT_TRUE(opsAtSourceLine(*m->op, {"model.py", 40}).empty());
}

}  // namespace
}  // namespace shardscope::api
