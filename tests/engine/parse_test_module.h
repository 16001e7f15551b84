// Shared by the engine tests: a module parsed from test text, with any
// diagnostic reported as a test failure.
#pragma once
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "ir/parser.h"

namespace shardscope::test_support {

inline std::unique_ptr<ir::Module> parseTestModule(const std::string& text) {
  ir::DiagnosticSink diags;
  auto m = ir::parseModule(text, ir::ParseOptions{}, diags);
  EXPECT_TRUE(m) << diags.formatAll("<test>");
  return m;
}

}  // namespace shardscope::test_support
