// Shared by the language_*_test.cpp files: a module written as MLIR prints
// it must read, verify and print back unchanged, and each op gets the
// sharding rule Shardy's registry gives it (or none).
//
//   EXPECT_EQ(printedAgain(kModule), kModule);
//   EXPECT_EQ(ruleOfFirst(kModule, "stablehlo.complex"), "([i], [i])->([i]) {i=4}");
#pragma once
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "ir/parser.h"
#include "ir/printer.h"
#include "rules/op_sharding_rule_registry.h"
#include "verifier/verifier.h"

namespace shardscope::test_support {

// The module read, verified and printed; the diagnostics instead when
// reading or verifying failed. The print is also read back and must print
// the same (a fixed point), or the second print is returned.
inline std::string printedAgain(const std::string& text) {
  ir::DiagnosticSink diags;
  std::unique_ptr<ir::Module> m = ir::parseModule(text, ir::ParseOptions{}, diags);
  if (!m || !verifyModule(*m, diags) || diags.hasErrors()) return diags.formatAll("<test>");
  std::string printed = ir::printModule(*m);
  ir::DiagnosticSink again;
  std::unique_ptr<ir::Module> reread = ir::parseModule(printed, ir::ParseOptions{}, again);
  if (!reread) return "reading the print failed: " + again.formatAll("<print>") + printed;
  std::string second = ir::printModule(*reread);
  return second == printed ? printed : "the print printed differently:\n" + second;
}

// The sharding rule of the first op named `opName` (its `strBody()`), or
// "<none>" when the registry gives it none, or "<no op>".
inline std::string ruleOfFirst(const std::string& text, const std::string& opName) {
  ir::DiagnosticSink diags;
  std::unique_ptr<ir::Module> m = ir::parseModule(text, ir::ParseOptions{}, diags);
  if (!m) return diags.formatAll("<test>");
  const ir::Op* found = nullptr;
  std::function<void(const ir::Op&)> walk = [&](const ir::Op& op) {
    if (found) return;
    if (op.name() == opName) {
      found = &op;
      return;
    }
    for (const auto& region : op.regions())
      for (const auto& block : region->blocks())
        for (const auto& inner : block->ops()) walk(*inner);
  };
  for (const auto& op : m->body().ops()) walk(*op);
  if (!found) return "<no op>";
  ir::DiagnosticSink ruleDiags;
  auto rule = rules::createOpShardingRule(*found, /*conservativePropagation=*/false, &ruleDiags);
  return rule ? rule->strBody() : "<none>";
}

}  // namespace shardscope::test_support
