// api::propagateDocument / documentAtStep (engine/api/propagate.h): every
// level gives what its shardscope-opt pass gives, the pipeline's trace is of
// the module after its import passes and replays onto it step by step, and
// values behind data-flow edges (a while's loop-carried values) show the
// sharding propagation gave them.
#include <gtest/gtest.h>

#include "api/propagate.h"
#include "golden.h"
#include "ir/printer.h"
#include "passes/pass.h"
#include "sample_paths.h"

using namespace shardscope;

namespace {

// `doc` with the registered pass `name` run on a fresh parse, printed.
std::string printedAfterPass(const api::Document& doc, const std::string& name) {
  auto copy = api::parseDocument(doc.text, doc.name);
  ir::DiagnosticSink diags;
  passes::PassContext ctx{diags};
  const passes::PassInfo* pass = passes::lookupPass(name);
  if (!copy->module || !pass || !pass->run(*copy->module, {}, ctx)) return "failed: " + name;
  return ir::printModule(*copy->module);
}

propagation::PropagationOptions at(propagation::PropagationLevel level) {
  propagation::PropagationOptions o;
  o.level = level;
  return o;
}

std::shared_ptr<api::Document> sample(const char* name) {
  return api::loadDocument(SHARDSCOPE_SOURCE_DIR "/sample_models/" + std::string(name));
}

const ir::Value* findValue(const ir::Module& m, const std::string& name) {
  const ir::Value* found = nullptr;
  for (ir::Op* op : propagation::preOrderOps(const_cast<ir::Module&>(m))) {
    for (ir::Value* r : op->results())
      if (!found && api::valueName(*r) == name) found = r;
    for (const auto& region : op->regions())
      for (const auto& block : region->blocks())
        for (ir::Value* a : block->arguments())
          if (!found && api::valueName(*a) == name) found = a;
  }
  return found;
}

class EveryLevel : public ::testing::TestWithParam<std::string> {};

// The module a run holds is what the command line's pass prints.
TEST_P(EveryLevel, ResultIsWhatTheCommandLinePrints) {
  const auto doc = api::loadDocument(GetParam());
  ASSERT_TRUE(doc->module && !doc->hasErrors());
  for (propagation::PropagationLevel level : api::propagationLevels()) {
    const std::string name = api::levelName(level);
    const auto run = api::propagateDocument(*doc, at(level));
    ASSERT_TRUE(run->ok && run->result) << name;
    const std::string pass = level == propagation::PropagationLevel::Pipeline
                                 ? "sdy-propagation-pipeline"
                                 : "sdy-" + name + "-propagate";
    EXPECT_EQ(ir::printModule(*run->result->module), printedAfterPass(*doc, pass)) << name;
    EXPECT_EQ(run->result->text, doc->text);  // the source view keeps the file's text
  }
}

// Step 0 is `start`; every step's updates show in documentAtStep; replaying
// all of them gives the propagated module before the export passes.
TEST_P(EveryLevel, StepsReplayOntoTheStart) {
  const auto doc = api::loadDocument(GetParam());
  const auto run = api::propagateDocument(*doc, at(propagation::PropagationLevel::Pipeline));
  ASSERT_TRUE(run->ok && run->start);
  EXPECT_FALSE(run->importPasses.empty());
  EXPECT_FALSE(run->exportPasses.empty());
  std::string error;
  const auto zero = api::documentAtStep(*doc, *run, 0, &error);
  ASSERT_TRUE(zero) << error;
  EXPECT_EQ(ir::printModule(*zero->module), ir::printModule(*run->start->module));
  const size_t n = run->trace.steps.size();
  for (size_t k = 1; k <= n; ++k) {
    const auto after = api::documentAtStep(*doc, *run, k, &error);
    ASSERT_TRUE(after) << error;
    const auto& step = run->trace.steps[k - 1];
    for (const auto& u : step.updates) {
      ir::Op* func = nullptr;
      ir::Value* v = propagation::resolveValueRef(*after->module, u.value, &func);
      if (!v) continue;  // a function result
      const auto s = api::valueSharding(*v);
      ASSERT_TRUE(s) << "step " << k - 1;
      EXPECT_EQ(*s, u.sharding) << "step " << k - 1;
    }
    if (step.opIndex >= 0) {
      const ir::Op* op = api::stepOp(*after->module, step);
      ASSERT_NE(op, nullptr) << "step " << k - 1;
      EXPECT_EQ(op->name(), step.op);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Samples, EveryLevel,
                         ::testing::ValuesIn(shardscope::testing::samplePaths()),
                         shardscope::testing::sampleName<::testing::TestParamInfo<std::string>>);

// The case: the GUI gave 2 steps and left the loop unsharded.
TEST(PropagateDocument, WhileLoopPropagatesThroughItsDataFlowEdges) {
  const auto doc = sample("while_loop.mlir");
  const auto run = api::propagateDocument(*doc, at(propagation::PropagationLevel::Pipeline));
  ASSERT_TRUE(run->ok);
  bool throughEdge = false;
  for (const auto& s : run->trace.steps) throughEdge = throughEdge || s.op == "sdy.data_flow_edge";
  EXPECT_TRUE(throughEdge);
  EXPECT_GT(run->trace.steps.size(), 2u);
  const auto expected = api::valueSharding(*findValue(*run->result->module, "%0#0"));
  ASSERT_TRUE(expected);
  EXPECT_EQ(expected->str(), "#sdy.sharding<@mesh, [{\"x\"}, {\"y\"}]>");
  for (const char* name : {"%iterArg", "%0#0"}) {
    const ir::Value* v = findValue(*run->result->module, name);
    ASSERT_NE(v, nullptr) << name;
    EXPECT_EQ(api::valueSharding(*v), expected) << name;
    // After the last step as well (on the data-flow edge then, still open).
    std::string error;
    const auto last = api::documentAtStep(*doc, *run, run->trace.steps.size(), &error);
    ASSERT_TRUE(last) << error;
    const ir::Value* w = findValue(*last->module, name);
    ASSERT_NE(w, nullptr) << name;
    const auto open = api::valueSharding(*w);
    ASSERT_TRUE(open) << name;
    ASSERT_EQ(open->rank(), expected->rank());
    for (size_t d = 0; d < open->dims.size(); ++d)
      EXPECT_EQ(open->dims[d].axes, expected->dims[d].axes) << name << " dim " << d;
  }
  // Step 0 is after the import passes: the data-flow edges are there.
  const auto ops = propagation::preOrderOps(*run->start->module);
  EXPECT_TRUE(std::any_of(ops.begin(), ops.end(),
                          [](const ir::Op* o) { return o->is("sdy.data_flow_edge"); }));
}

// Calls: the pipeline imports each call as a named computation, so the
// second call's weight gets a sharding; one strategy alone does not cross them.
TEST(PropagateDocument, PipelinePropagatesThroughCalls) {
  const auto doc = sample("func_calls.mlir");
  const auto pipeline = api::propagateDocument(*doc, at(propagation::PropagationLevel::Pipeline));
  ASSERT_TRUE(pipeline->ok);
  const ir::Value* arg2 = findValue(*pipeline->result->module, "%arg2");
  ASSERT_NE(arg2, nullptr);
  EXPECT_TRUE(api::valueSharding(*arg2));
  const auto alone = api::propagateDocument(*doc, at(propagation::PropagationLevel::UserPriority));
  ASSERT_TRUE(alone->ok);
  EXPECT_FALSE(api::valueSharding(*findValue(*alone->result->module, "%arg2")));
  const auto ops = propagation::preOrderOps(*pipeline->start->module);
  EXPECT_TRUE(std::any_of(ops.begin(), ops.end(),
                          [](const ir::Op* o) { return o->is("sdy.named_computation"); }));
}

TEST(PropagateDocument, LevelNamesRoundTrip) {
  for (propagation::PropagationLevel l : api::propagationLevels())
    EXPECT_EQ(api::levelFromName(api::levelName(l)), l);
  EXPECT_FALSE(api::levelFromName("user priority"));
  EXPECT_EQ(api::propagationLevels().front(), propagation::PropagationLevel::Pipeline);
  EXPECT_EQ(api::levelNames(), "pipeline, basic, aggressive, op-priority or user-priority");
}

TEST(PropagateDocument, ModuleWithErrorsIsRefused) {
  const auto doc = api::parseDocument("func.func @f(%a: tensor<2xf32>) {\n  return %b\n}\n", "bad");
  ASSERT_TRUE(doc->hasErrors());
  const auto run = api::propagateDocument(*doc, at(propagation::PropagationLevel::Pipeline));
  EXPECT_FALSE(run->ok);
  EXPECT_FALSE(run->diagnostics.empty());
  EXPECT_EQ(run->result, nullptr);
}

}  // namespace
