// The reshape rule: compound factors, so that a dimension split or merged by
// the reshape is still sharded consistently on both sides.
//
// Worked examples:
//   8    -> 2x4    ([ij])->([i, j])         {i=2, j=4}
//   2x4  -> 8      ([i, j])->([ij])         {i=2, j=4}
//   6x4  -> 4x6    ([ij, mn])->([ik, ln])   {i=2, j=3, k=2, l=3, m=2, n=2}
//   3x2  -> 2x3    ([i, l])->([j, k])       {i=3, j=2, k=3, l=2}  (nothing shared)
//   32x1 -> 8x4    ([ij, k])->([i, j])      {i=8, j=4, k=1}
#include <numeric>

#include "rules/rule_families.h"

namespace shardscope::rules::detail {

namespace {

// Walks the input and output shapes side by side, major to minor. Each side
// keeps the product of the dimensions it has entered (`dimProd`) and of the
// factors it has been given so far (`factorProd`); a dimension is done once
// the two are equal. While both sides have been given the same factors, the
// gcd of what is left of their current dimensions becomes a shared factor;
// once they diverge, the side that is behind gets factors until they meet
// again.
class ReshapeWalk {
 public:
  ReshapeWalk(const std::vector<int64_t>& in, const std::vector<int64_t>& out,
              OpShardingRuleBuilder& builder)
      : in_(in), out_(out), b_(builder) {}

  bool run() {
    const auto inRank = static_cast<int64_t>(in_.size());
    const auto outRank = static_cast<int64_t>(out_.size());
    // Every step adds a factor greater than 1 or consumes a size-1 dim, so
    // this bounds a well-formed walk; it only stops malformed input.
    int64_t budget = 4 * (inRank + outRank) + 64;
    while (inDim_ < inRank || outDim_ < outRank) {
      if (--budget < 0) return false;
      // Size-1 dims have nothing to share: a factor of their own.
      if (inDim_ < inRank && in_[static_cast<size_t>(inDim_)] == 1) {
        b_.addFactor({inDim_++}, {kNullDim}, 1);
        continue;
      }
      if (outDim_ < outRank && out_[static_cast<size_t>(outDim_)] == 1) {
        b_.addFactor({kNullDim}, {outDim_++}, 1);
        continue;
      }
      // Enter the next dimension on a side whose current one is complete.
      if (inDim_ < inRank && inDimProd_ == inFactorProd_) inDimProd_ *= in_[static_cast<size_t>(inDim_)];
      if (outDim_ < outRank && outDimProd_ == outFactorProd_)
        outDimProd_ *= out_[static_cast<size_t>(outDim_)];

      int64_t inLeft = inDimProd_ / inFactorProd_;
      int64_t outLeft = outDimProd_ / outFactorProd_;
      int64_t common = std::gcd(inLeft, outLeft);

      if (inFactorProd_ == outFactorProd_) {
        if (common > 1) {
          addShared(common);
        } else {
          if (inLeft <= 1 && outLeft <= 1) return false;
          addIn(inLeft);
          addOut(outLeft);
        }
      } else if (inFactorProd_ < outFactorProd_) {
        addIn(catchUp(inLeft, inFactorProd_, outFactorProd_, common));
      } else {
        addOut(catchUp(outLeft, outFactorProd_, inFactorProd_, common));
      }

      if (inDim_ < inRank && inDimProd_ == inFactorProd_) ++inDim_;
      if (outDim_ < outRank && outDimProd_ == outFactorProd_) ++outDim_;
    }
    return true;
  }

 private:
  // The next factor for the side that is behind (its factors multiply to
  // `behind`, the other side's to `ahead`): exactly the gap when the gap
  // divides what is left, else what is left over the gcd (keeping that gcd
  // shareable), else all that is left.
  static int64_t catchUp(int64_t left, int64_t behind, int64_t ahead, int64_t common) {
    if (ahead % behind == 0 && left % (ahead / behind) == 0) return ahead / behind;
    if (left > common) return left / common;
    return left;
  }
  void addShared(int64_t size) {
    b_.addFactor({inDim_}, {outDim_}, size);
    inFactorProd_ *= size;
    outFactorProd_ *= size;
  }
  void addIn(int64_t size) {
    b_.addFactor({inDim_}, {kNullDim}, size);
    inFactorProd_ *= size;
  }
  void addOut(int64_t size) {
    b_.addFactor({kNullDim}, {outDim_}, size);
    outFactorProd_ *= size;
  }

  const std::vector<int64_t>& in_;
  const std::vector<int64_t>& out_;
  OpShardingRuleBuilder& b_;
  int64_t inDim_ = 0, outDim_ = 0;
  int64_t inDimProd_ = 1, outDimProd_ = 1;
  int64_t inFactorProd_ = 1, outFactorProd_ = 1;
};

int64_t product(const std::vector<int64_t>& shape) {
  int64_t p = 1;
  for (int64_t d : shape) p *= d;
  return p;
}

}  // namespace

// A reshape with no elements (or unknown sizes) has no rule: there is
// nothing to propagate and the walk cannot divide by zero.
RuleResult reshapeRule(const ir::Op& op, const RuleContext&) {
  const auto& in = operandShape(op, 0);
  const auto& out = resultShape(op, 0);
  for (int64_t d : in)
    if (d < 0) return std::nullopt;
  for (int64_t d : out)
    if (d < 0) return std::nullopt;
  if (product(in) == 0 || product(in) != product(out)) return std::nullopt;
  OpShardingRuleBuilder builder(op);
  if (!ReshapeWalk(in, out, builder).run()) return std::nullopt;
  return std::move(builder).build();
}

}  // namespace shardscope::rules::detail
