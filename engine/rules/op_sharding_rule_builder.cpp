// Building op sharding rules factor by factor.
#include "rules/op_sharding_rule_builder.h"

#include <type_traits>
#include <utility>

namespace shardscope::rules {

int64_t ruleRank(const ir::Type& type) {
  return type.isRankedTensor() ? type.rank() : 0;
}

OpShardingRuleBuilder::OpShardingRuleBuilder(const std::vector<int64_t>& operandRanks,
                                             const std::vector<int64_t>& resultRanks) {
  for (int64_t rank : operandRanks) operands_.emplace_back(static_cast<size_t>(rank));
  for (int64_t rank : resultRanks) results_.emplace_back(static_cast<size_t>(rank));
}

namespace {
std::vector<int64_t> operandRanksOf(const ir::Op& op) {
  std::vector<int64_t> ranks;
  for (const ir::Value* v : op.operands()) ranks.push_back(v ? ruleRank(v->type) : 0);
  return ranks;
}
std::vector<int64_t> resultRanksOf(const ir::Op& op) {
  std::vector<int64_t> ranks;
  for (unsigned i = 0; i < op.numResults(); ++i) ranks.push_back(ruleRank(op.result(i)->type));
  return ranks;
}
}  // namespace

OpShardingRuleBuilder::OpShardingRuleBuilder(const ir::Op& op)
    : OpShardingRuleBuilder(operandRanksOf(op), resultRanksOf(op)) {}

namespace {

// The rule of a builder's parts; `Parts` is the builder (copied from) or an
// rvalue reference to it (moved from).
template <typename Mappings, typename Factors>
OpShardingRule buildRule(Mappings&& operands, Mappings&& results, Factors&& factorSizes, Factors&& reduction,
                         Factors&& needReplication, Factors&& permutation, Factors&& blocked) {
  OpShardingRule rule;
  rule.factorSizes = std::forward<Factors>(factorSizes);
  // Every dimension needs at least one factor; give the bare ones size 1.
  auto convert = [&rule](auto&& tensors, std::vector<TensorFactorMapping>& out) {
    out.reserve(tensors.size());
    for (auto& tensor : tensors) {
      TensorFactorMapping mapping;
      mapping.dims.reserve(tensor.size());
      for (auto& factors : tensor) {
        if (factors.empty()) {
          mapping.dims.push_back({rule.numFactors()});
          rule.factorSizes.push_back(1);
        } else if constexpr (std::is_rvalue_reference_v<Mappings&&>) {
          mapping.dims.push_back(std::move(factors));
        } else {
          mapping.dims.push_back(factors);
        }
      }
      out.push_back(std::move(mapping));
    }
  };
  convert(operands, rule.operands);
  convert(results, rule.results);
  rule.reductionFactors = std::forward<Factors>(reduction);
  rule.needReplicationFactors = std::forward<Factors>(needReplication);
  rule.permutationFactors = std::forward<Factors>(permutation);
  rule.blockedPropagationFactors = std::forward<Factors>(blocked);
  return rule;
}

}  // namespace

OpShardingRule OpShardingRuleBuilder::build() const& {
  return buildRule<const std::vector<Mapping>&, const std::vector<int64_t>&>(
      operands_, results_, factorSizes_, reduction_, needReplication_, permutation_, blocked_);
}

OpShardingRule OpShardingRuleBuilder::build() && {
  return buildRule<std::vector<Mapping>, std::vector<int64_t>>(
      std::move(operands_), std::move(results_), std::move(factorSizes_), std::move(reduction_),
      std::move(needReplication_), std::move(permutation_), std::move(blocked_));
}

std::optional<OpShardingRule> OpShardingRuleBuilder::buildPointwise(const ir::Op& op) {
  if (op.numResults() == 0 || !op.result(0)->type->isRankedTensor()) return std::nullopt;
  const std::vector<int64_t>& shape = op.result(0)->type->shape;
  OpShardingRuleBuilder builder(op);
  builder.factorSizes_ = shape;
  // Factor d is dimension d everywhere; a tensor of another rank (not valid
  // for a pointwise op) only maps the dimensions it has.
  auto mapAll = [&shape](std::vector<Mapping>& tensors) {
    for (Mapping& tensor : tensors)
      for (size_t d = 0; d < tensor.size() && d < shape.size(); ++d)
        tensor[d].push_back(static_cast<int64_t>(d));
  };
  mapAll(builder.operands_);
  mapAll(builder.results_);
  return std::move(builder).build();
}

int64_t OpShardingRuleBuilder::newFactor(int64_t size, FactorType type, bool blocked) {
  int64_t factor = numFactors();
  factorSizes_.push_back(size);
  if (blocked) blocked_.push_back(factor);
  switch (type) {
    case FactorType::Reduction: reduction_.push_back(factor); break;
    case FactorType::NeedReplication: needReplication_.push_back(factor); break;
    case FactorType::Permutation: permutation_.push_back(factor); break;
    case FactorType::Passthrough: break;
  }
  return factor;
}

void OpShardingRuleBuilder::mapDims(std::vector<Mapping>& tensors,
                                    const std::vector<int64_t>& dims, int64_t factor,
                                    int64_t size) {
  for (size_t t = 0; t < tensors.size() && t < dims.size(); ++t) {
    int64_t dim = dims[t];
    if (dim < 0 || dim >= static_cast<int64_t>(tensors[t].size())) continue;
    std::vector<int64_t>& factors = tensors[t][static_cast<size_t>(dim)];
    // A size-1 factor next to a real one carries no information.
    if (size == 1 && !factors.empty()) continue;
    factors.push_back(factor);
  }
}

void OpShardingRuleBuilder::mapDimOfAll(std::vector<Mapping>& tensors, int64_t dim,
                                        int64_t factor) {
  for (Mapping& tensor : tensors) {
    // Scalars take no part; so does a tensor too small for `dim`.
    if (dim < 0 || dim >= static_cast<int64_t>(tensor.size())) continue;
    tensor[static_cast<size_t>(dim)].push_back(factor);
  }
}

OpShardingRuleBuilder& OpShardingRuleBuilder::addFactor(const std::vector<int64_t>& operandDims,
                                                        const std::vector<int64_t>& resultDims,
                                                        int64_t size, FactorType type,
                                                        bool blocked) {
  int64_t factor = newFactor(size, type, blocked);
  mapDims(operands_, operandDims, factor, size);
  mapDims(results_, resultDims, factor, size);
  return *this;
}

OpShardingRuleBuilder& OpShardingRuleBuilder::addFactorToAll(int64_t dim, int64_t size,
                                                             FactorType type, bool blocked) {
  int64_t factor = newFactor(size, type, blocked);
  mapDimOfAll(operands_, dim, factor);
  mapDimOfAll(results_, dim, factor);
  return *this;
}

OpShardingRuleBuilder& OpShardingRuleBuilder::addFactorToAllOperands(int64_t dim, int64_t size,
                                                                     FactorType type,
                                                                     bool blocked) {
  mapDimOfAll(operands_, dim, newFactor(size, type, blocked));
  return *this;
}

OpShardingRuleBuilder& OpShardingRuleBuilder::addFactorToAllResults(int64_t dim, int64_t size,
                                                                    FactorType type,
                                                                    bool blocked) {
  mapDimOfAll(results_, dim, newFactor(size, type, blocked));
  return *this;
}

OpShardingRuleBuilder& OpShardingRuleBuilder::addPointwise(
    const std::vector<int64_t>& shape, const FactorTypeFn& typeOf,
    const std::function<bool(FactorType)>& blockedIf) {
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t dim = static_cast<int64_t>(d);
    FactorType type = typeOf ? typeOf(dim) : FactorType::Passthrough;
    addFactorToAll(dim, shape[d], type, blockedIf ? blockedIf(type) : false);
  }
  return *this;
}

OpShardingRuleBuilder& OpShardingRuleBuilder::addPointwiseIf(
    const std::vector<int64_t>& shape, const std::function<bool(int64_t)>& keep,
    const FactorTypeFn& typeOf) {
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t dim = static_cast<int64_t>(d);
    if (!keep(dim)) continue;
    addFactorToAll(dim, shape[d], typeOf ? typeOf(dim) : FactorType::Passthrough);
  }
  return *this;
}

OpShardingRuleBuilder& OpShardingRuleBuilder::addPointwiseWithDiffTypeForMismatch(
    const std::vector<int64_t>& inShape, const std::vector<int64_t>& outShape,
    FactorType mismatchType, bool mismatchBlocked) {
  for (size_t d = 0; d < inShape.size(); ++d) {
    int64_t dim = static_cast<int64_t>(d);
    bool same = d < outShape.size() && inShape[d] == outShape[d];
    if (same)
      addFactorToAll(dim, inShape[d]);
    else
      addFactorToAll(dim, inShape[d], mismatchType, mismatchBlocked);
  }
  return *this;
}

OpShardingRule createIdentityShardingRule(const std::vector<int64_t>& shape, size_t numOperands,
                                          size_t numResults) {
  int64_t rank = static_cast<int64_t>(shape.size());
  return OpShardingRuleBuilder(std::vector<int64_t>(numOperands, rank),
                               std::vector<int64_t>(numResults, rank))
      .addPointwise(shape)
      .build();
}

}  // namespace shardscope::rules
