// Golden tests for every curated sample in sample_models/: the module after
// `-sdy-propagation-pipeline`, and a one-line-per-step summary of the
// propagation trace (round, stage, strategy, op, axes moved, conflicts).
// Regenerate with SHARDSCOPE_UPDATE_GOLDEN=1 after an intended change.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "golden.h"
#include "ir/parser.h"
#include "ir/printer.h"
#include "passes/pass.h"
#include "propagation/propagation.h"
#include "propagation/propagation_trace.h"
#include "sample_paths.h"
#include "verifier/verifier.h"

using namespace shardscope;
namespace fs = std::filesystem;

namespace {

std::unique_ptr<ir::Module> load(const std::string& path, ir::DiagnosticSink& diags) {
  static std::string text;  // the module keeps views into nothing, but keep it alive anyway
  text = shardscope::testing::readFile(path);
  ir::ParseOptions opts;
  opts.fileName = path;
  auto m = ir::parseModule(text, opts, diags);
  if (m && !verifyModule(*m, diags)) return nullptr;
  return m;
}

bool runPass(const char* name, ir::Module& m, ir::DiagnosticSink& diags) {
  const passes::PassInfo* info = passes::lookupPass(name);
  if (!info) return false;
  passes::PassContext ctx{diags, ""};
  return info->run(m, {}, ctx);
}

std::string summarize(const propagation::PropagationTrace& trace) {
  std::ostringstream out;
  for (const auto& s : trace.steps) {
    out << "step " << s.step << " round=" << s.userPriority << " stage=" << s.opPriority << ' ' << s.strategy << ' '
        << s.op << " (line " << s.line << ")";
    for (const auto& m : s.moves) out << " | " << m.axis.str() << " f" << m.factor << ' ' << m.from << "->" << m.to;
    if (!s.conflicts.empty()) out << " | conflicts: " << s.conflicts.size();
    out << '\n';
  }
  return out.str();
}

class SampleModel : public ::testing::TestWithParam<std::string> {};

TEST_P(SampleModel, PropagatedModuleMatchesGolden) {
  ir::DiagnosticSink diags;
  auto m = load(GetParam(), diags);
  ASSERT_NE(m, nullptr) << diags.formatAll(GetParam());
  ASSERT_TRUE(runPass("sdy-propagation-pipeline", *m, diags)) << diags.formatAll(GetParam());
  EXPECT_FALSE(diags.hasErrors()) << diags.formatAll(GetParam());
  std::string name = fs::path(GetParam()).stem().string();
  shardscope::testing::expectMatchesGolden(SHARDSCOPE_TEST_DATA_DIR "/samples/" + name + ".propagated.mlir",
                                           ir::printModule(*m));
}

// The pipeline run on its own output changes nothing (issue: a second run
// used to swap functions that do not call each other).
TEST_P(SampleModel, PipelineIsIdempotent) {
  ir::DiagnosticSink diags;
  auto m = load(GetParam(), diags);
  ASSERT_NE(m, nullptr) << diags.formatAll(GetParam());
  ASSERT_TRUE(runPass("sdy-propagation-pipeline", *m, diags)) << diags.formatAll(GetParam());
  std::string once = ir::printModule(*m);
  ir::DiagnosticSink again;
  auto reread = ir::parseModule(once, {}, again);
  ASSERT_NE(reread, nullptr) << again.formatAll("first output");
  ASSERT_TRUE(verifyModule(*reread, again)) << again.formatAll("first output");
  ASSERT_TRUE(runPass("sdy-propagation-pipeline", *reread, again)) << again.formatAll("first output");
  EXPECT_FALSE(again.hasErrors()) << again.formatAll("first output");
  EXPECT_EQ(ir::printModule(*reread), once);
}

TEST_P(SampleModel, TraceSummaryMatchesGoldenAndReplays) {
  ir::DiagnosticSink diags;
  auto m = load(GetParam(), diags);
  ASSERT_NE(m, nullptr) << diags.formatAll(GetParam());
  for (const char* pass : {"sdy-lift-inlined-meshes", "sdy-constant-or-scalar-splitter", "sdy-add-data-flow-edges",
                           "sdy-apply-sharding-constraints", "sdy-sharding-group-import"})
    ASSERT_TRUE(runPass(pass, *m, diags)) << pass << ": " << diags.formatAll(GetParam());
  std::string before = ir::printModule(*m);

  propagation::PropagationOptions opts;
  opts.level = propagation::PropagationLevel::UserPriority;
  propagation::PropagationTrace trace;
  ASSERT_TRUE(propagation::propagate(*m, opts, diags, &trace)) << diags.formatAll(GetParam());
  std::string name = fs::path(GetParam()).stem().string();
  shardscope::testing::expectMatchesGolden(SHARDSCOPE_TEST_DATA_DIR "/samples/" + name + ".trace.txt",
                                           summarize(trace));

  // Replaying the recorded updates on the unpropagated module gives the same shardings.
  ir::DiagnosticSink again;
  auto fresh = ir::parseModule(before, {}, again);
  ASSERT_NE(fresh, nullptr);
  std::string error;
  ASSERT_TRUE(propagation::replayTrace(*fresh, trace, &error)) << error;
  EXPECT_EQ(ir::printModule(*fresh), ir::printModule(*m));
}

INSTANTIATE_TEST_SUITE_P(Samples, SampleModel,
                         ::testing::ValuesIn(shardscope::testing::samplePaths()),
                         shardscope::testing::sampleName<::testing::TestParamInfo<std::string>>);

}  // namespace
