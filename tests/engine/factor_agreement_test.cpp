// Tests for engine/propagation/factor_agreement.cpp: whenever it decides, its
// answer is the one the factor table (sharding_projection.h) gives, and it
// declines the cases where the table's axes could differ from the
// dimensions' own lists.
#include "propagation/factor_agreement.h"

#include <gtest/gtest.h>

#include "propagation/sharding_projection.h"

namespace shardscope::propagation {
namespace {

using D = PropagationDirection;

AxisRef ax(const std::string& name) { return AxisRef{.name = name, .subAxis = std::nullopt}; }
AxisRef sub(const std::string& name, int64_t pre, int64_t size) {
  return AxisRef{.name = name, .subAxis = SubAxisInfo{.preSize = pre, .size = size}};
}
TensorSharding sharding(std::vector<AxisRefList> dims) {
  TensorSharding s;
  s.mesh.name = "mesh";
  for (AxisRefList& axes : dims)
    s.dims.push_back(DimensionSharding{.axes = std::move(axes), .closed = false, .priority = std::nullopt});
  return s;
}
TensorFactorMapping mapping(std::vector<std::vector<int64_t>> dims) { return TensorFactorMapping{std::move(dims)}; }

// The answer from the factor table, as the driver's factorsMayChange reads it.
FactorAgreement fromProjection(const OpShardingRule& rule, const std::vector<const TensorSharding*>& operands,
                               const std::vector<const TensorSharding*>& results, const std::vector<D>& dirs,
                               const Mesh& mesh) {
  std::vector<TensorFactorShardings> rows;
  for (size_t i = 0; i < rule.operands.size(); ++i)
    rows.push_back(projectTensor(rule.operands[i], i < operands.size() ? operands[i] : nullptr,
                                 rule.factorSizes, mesh));
  for (size_t i = 0; i < rule.results.size(); ++i)
    rows.push_back(projectTensor(rule.results[i], i < results.size() ? results[i] : nullptr,
                                 rule.factorSizes, mesh));
  FactorAgreement out{.decided = true, .mayChange = false, .allAgree = true};
  for (size_t f = 0; f < dirs.size(); ++f) {
    const AxisRefList* first = nullptr;
    bool agree = true;
    for (const TensorFactorShardings& row : rows) {
      const FactorSharding* fs = row.find(static_cast<int64_t>(f));
      if (!fs) continue;
      if (!first)
        first = &fs->axes;
      else if (!(*first == fs->axes))
        agree = false;
    }
    if (agree) continue;
    out.allAgree = false;
    if (dirs[f] != D::None) out.mayChange = true;
  }
  return out;
}

struct Case {
  const char* name;
  OpShardingRule rule;
  std::vector<std::optional<TensorSharding>> operands, results;
  std::vector<D> dirs;
  bool decided;
  bool mayChange;
  bool allAgree;
};

OpShardingRule elementwise2d() {
  OpShardingRule r;
  r.factorSizes = {8, 8};
  r.operands = {mapping({{0}, {1}}), mapping({{0}, {1}})};
  r.results = {mapping({{0}, {1}})};
  return r;
}
// A reshape-like rule: the result's one dimension holds both factors.
OpShardingRule compound() {
  OpShardingRule r;
  r.factorSizes = {2, 4};
  r.operands = {mapping({{0}, {1}})};
  r.results = {mapping({{0, 1}})};
  return r;
}
// A dot_general-like rule: i, j, contracting k (operand dims map one factor each).
OpShardingRule dot() {
  OpShardingRule r;
  r.factorSizes = {8, 8, 8};
  r.operands = {mapping({{0}, {2}}), mapping({{2}, {1}})};
  r.results = {mapping({{0}, {1}})};
  r.reductionFactors = {2};
  return r;
}

std::vector<Case> cases() {
  const auto x = sharding({{ax("x")}, {}});
  const auto none = sharding({{}, {}});
  const auto xy = sharding({{ax("x")}, {ax("y")}});
  return {
      {"all agree", elementwise2d(), {x, x}, {x}, {D::Both, D::Both}, true, false, true},
      {"operand ahead of result", elementwise2d(), {x, x}, {none}, {D::Both, D::Both}, true, true, false},
      {"disagreeing factor closed", elementwise2d(), {x, x}, {none}, {D::None, D::Both}, true, false, false},
      {"missing sharding is empty", elementwise2d(), {x, std::nullopt}, {x}, {D::Both, D::Both}, true, true, false},
      {"unsharded everywhere", elementwise2d(), {std::nullopt, none}, {std::nullopt}, {D::Both, D::Both}, true,
       false, true},
      {"fewer shardings than the rule's tensors", elementwise2d(), {none}, {}, {D::Both, D::Both}, true, false,
       true},
      {"second factor disagrees", elementwise2d(), {xy, x}, {xy}, {D::None, D::Forward}, true, true, false},
      {"dot contracting factor", dot(), {sharding({{}, {ax("y")}}), sharding({{}, {}})}, {none},
       {D::Both, D::Both, D::Both}, true, true, false},
      {"dot agreeing", dot(), {sharding({{ax("x")}, {}}), sharding({{}, {}})}, {sharding({{ax("x")}, {}})},
       {D::Both, D::Both, D::Both}, true, false, true},
      {"sub-axis declined", elementwise2d(), {sharding({{sub("x", 1, 2)}, {}}), none}, {none},
       {D::Both, D::Both}, false, false, false},
      {"compound dimension declined", compound(), {sharding({{ax("x")}, {}})}, {sharding({{}})}, {D::Both, D::Both},
       false, false, false},
  };
}

class FactorAgreementTest : public ::testing::TestWithParam<Case> {};

TEST_P(FactorAgreementTest, MatchesTheFactorTable) {
  const Case& c = GetParam();
  const Mesh mesh{.axes = {{"x", 4}, {"y", 2}}, .deviceIds = {}};
  std::vector<const TensorSharding*> operands, results;
  for (const auto& s : c.operands) operands.push_back(s ? &*s : nullptr);
  for (const auto& s : c.results) results.push_back(s ? &*s : nullptr);
  FactorAgreementScratch scratch;
  const FactorAgreement got = factorAgreement(c.rule, operands, results, c.dirs, scratch);
  ASSERT_EQ(got.decided, c.decided);
  if (!c.decided) return;
  EXPECT_EQ(got.mayChange, c.mayChange);
  EXPECT_EQ(got.allAgree, c.allAgree);
  // The same answer as the table's, and again with the scratch reused.
  const FactorAgreement table = fromProjection(c.rule, operands, results, c.dirs, mesh);
  EXPECT_EQ(got.mayChange, table.mayChange);
  EXPECT_EQ(got.allAgree, table.allAgree);
  const FactorAgreement again = factorAgreement(c.rule, operands, results, c.dirs, scratch);
  EXPECT_EQ(again.mayChange, got.mayChange);
  EXPECT_EQ(again.allAgree, got.allAgree);
}

TEST(FactorAgreementTest, FactorInTwoDimensionsOfOneTensorIsDeclined) {
  OpShardingRule rule;
  rule.factorSizes = {8};
  rule.operands = {mapping({{0}, {0}})};
  rule.results = {mapping({{0}})};
  const auto s = sharding({{ax("x")}, {ax("y")}});
  FactorAgreementScratch scratch;
  EXPECT_FALSE(factorAgreement(rule, {&s}, {nullptr}, {D::Both}, scratch).decided);
}

INSTANTIATE_TEST_SUITE_P(Cases, FactorAgreementTest, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           std::string n = info.param.name;
                           for (char& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

}  // namespace
}  // namespace shardscope::propagation
