// The canonicalizer's driver (see canonicalize.h).
#include "passes/canonicalize.h"

#include <algorithm>
#include <optional>
#include <unordered_set>

#include "passes/constant_uniquing.h"
#include "passes/dead_ops.h"
#include "passes/pass.h"

namespace shardscope::passes::canonical {

namespace {

const std::vector<Pattern>& allPatterns() {
  static const std::vector<Pattern> patterns = [] {
    std::vector<Pattern> out;
    addCollectivePatterns(out);
    addReshardPatterns(out);
    addManualComputationPatterns(out);
    return out;
  }();
  return patterns;
}

void collectPostOrder(ir::Op& op, std::vector<ir::Op*>& out) {
  for (const auto& region : op.regions())
    for (const auto& block : region->blocks())
      for (const auto& nested : block->ops()) collectPostOrder(*nested, out);
  out.push_back(&op);
}

}  // namespace

class Driver {
 public:
  Driver(ir::Module& module, std::vector<const Pattern*> patterns, const GreedyConfig& config)
      : module_(module),
        rewriter_(*this),
        patterns_(std::move(patterns)),
        config_(config) {}

  // One sweep over the module; true when something changed.
  bool sweep() {
    worklist_.clear();
    // Nested ops first, then in program order: the list is popped from the back.
    std::vector<ir::Op*> order;
    collectPostOrder(*module_.op, order);
    bool changed = false;
    if (config_.cseConstants) {
      // Constants are gathered as the ops are listed, by a uniquer that
      // lives for one sweep (as MLIR's folder); a merged one is erased
      // right away and not visited. Like MLIR, moving or merging constants
      // alone does not call for another sweep.
      constants_.emplace([this](ir::Op* op) { rewriter_.eraseOp(op); });
      std::vector<ir::Op*> kept;
      for (ir::Op* op : order) {
        constants_->insertKnownConstant(*op);
        if (!erased_.count(op)) kept.push_back(op);
      }
      order = std::move(kept);
    }
    worklist_.assign(order.rbegin(), order.rend());
    while (!worklist_.empty()) {
      ir::Op* op = worklist_.back();
      worklist_.pop_back();
      if (op == module_.op.get() || erased_.count(op) || !op->parentBlock()) continue;
      if (isTriviallyDead(*op)) {
        rewriter_.eraseOp(op);
        changed = true;
        continue;
      }
      for (const Pattern* p : patterns_) {
        if (op->is(p->opName) && p->apply(*op, rewriter_)) {
          changed = true;
          break;
        }
      }
    }
    return changed;
  }

  void push(ir::Op* op) { worklist_.push_back(op); }
  const ir::Module& module() const { return module_; }

  // Erased ops are unlinked and kept until the driver ends: an op created
  // later could otherwise take an erased op's address and be mistaken for it.
  void bury(ir::Op* op) {
    // Its erasure may leave the producers of its operands dead.
    op->walk([&](ir::Op& nested) {
      for (ir::Value* v : nested.operands())
        if (v && v->definingOp && !op->isAncestorOf(v->definingOp)) push(v->definingOp);
    });
    op->walk([&](ir::Op& nested) {
      nested.dropAllReferences();
      erased_.insert(&nested);
      if (constants_) constants_->forget(&nested);
    });
    graveyard_.push_back(op->parentBlock()->take(op));
  }

 private:
  ir::Module& module_;
  Rewriter rewriter_;
  std::vector<const Pattern*> patterns_;
  GreedyConfig config_;
  std::optional<ConstantUniquer> constants_;  // while a sweep gathers constants
  std::vector<ir::Op*> worklist_;
  std::unordered_set<const ir::Op*> erased_;
  std::vector<std::unique_ptr<ir::Op>> graveyard_;
};

void Rewriter::replaceOp(ir::Op* op, const std::vector<ir::Value*>& replacements) {
  for (unsigned i = 0; i < op->numResults() && i < replacements.size(); ++i) {
    ir::Value* result = op->result(i);
    for (const ir::Use& use : result->uses()) driver_.push(use.user);
    result->replaceAllUsesWith(replacements[i]);
  }
  eraseOp(op);
}

void Rewriter::eraseOp(ir::Op* op) { driver_.bury(op); }

ir::Op* Rewriter::insertBefore(ir::Op* before, std::unique_ptr<ir::Op> op) {
  ir::Op* inserted = before->parentBlock()->insertBefore(before, std::move(op));
  driver_.push(inserted);
  return inserted;
}

ir::Op* Rewriter::insertAfter(ir::Op* after, std::unique_ptr<ir::Op> op) {
  ir::Op* inserted = after->parentBlock()->insertAfter(after, std::move(op));
  driver_.push(inserted);
  return inserted;
}

void Rewriter::revisit(ir::Op* op) { driver_.push(op); }

void Rewriter::setOperand(ir::Op* op, unsigned index, ir::Value* value) {
  ir::Value* old = op->operand(index);
  op->setOperand(index, value);
  if (old && old->definingOp) driver_.push(old->definingOp);
  driver_.push(op);
}

const Mesh* Rewriter::meshOf(const TensorSharding& sharding) const {
  return driver_.module().meshOf(sharding);
}

namespace {

void runToFixedPoint(Driver& driver) {
  // As MLIR's default: at most ten sweeps, each run because the last changed something.
  for (int i = 0; i < 10 && driver.sweep(); ++i) {
  }
}

}  // namespace

bool applyPatternsGreedily(ir::Module& module, const std::vector<Pattern>& patterns,
                           const GreedyConfig& config) {
  std::vector<const Pattern*> selected;
  for (const Pattern& p : patterns) selected.push_back(&p);
  Driver driver(module, std::move(selected), config);
  runToFixedPoint(driver);
  return true;
}

bool canonicalize(ir::Module& module, ir::DiagnosticSink& diags,
                  const std::vector<std::string>& enabledLabels) {
  (void)diags;
  std::vector<const Pattern*> selected;
  for (const Pattern& p : allPatterns()) {
    bool enabled = enabledLabels.empty() ||
                   std::find(enabledLabels.begin(), enabledLabels.end(), p.label) !=
                       enabledLabels.end();
    if (enabled) selected.push_back(&p);
  }
  Driver driver(module, std::move(selected), GreedyConfig{});
  runToFixedPoint(driver);
  return true;
}

}  // namespace shardscope::passes::canonical

namespace shardscope::passes {

void registerCanonicalizePass(std::vector<PassInfo>& out) {
  out.push_back(PassInfo{
      "canonicalize",
      "Erase dead side-effect-free ops and apply the sdy ops' canonicalization patterns",
      {"enable-patterns"},
      [](ir::Module& m, const PassOptions& o, PassContext& ctx) {
        // A comma-separated list of pattern labels.
        std::vector<std::string> labels;
        std::string list = o.get("enable-patterns");
        for (size_t start = 0; start < list.size();) {
          size_t comma = std::min(list.find(',', start), list.size());
          if (comma > start) labels.push_back(list.substr(start, comma - start));
          start = comma + 1;
        }
        return canonical::canonicalize(m, ctx.diags, labels);
      }});
}

}  // namespace shardscope::passes
