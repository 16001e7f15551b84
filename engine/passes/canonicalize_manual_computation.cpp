// Canonicalization patterns of `sdy.manual_computation` (see canonicalize.h).
//
// - Inputs whose block argument is unused are dropped, with their in
//   shardings.
// - A computation without inputs, outputs or body ops is erased; one whose
//   manual axes all have size 1 (or that has none) is no manual computation
//   at all, and its body is inlined in its place:
//     %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"b"}]>]
//          out_shardings=[<@mesh, [{"b"}]>] manual_axes={"b"} (%arg1: tensor<8xf32>) {
//       %1 = stablehlo.abs %arg1 : tensor<8xf32>
//       sdy.return %1 : tensor<8xf32>
//     } : (tensor<8xf32>) -> tensor<8xf32>
//   with "b"=1 becomes `%0 = stablehlo.abs %arg0 : tensor<8xf32>`.
#include "passes/canonicalize.h"
#include "passes/pass_utils.h"

namespace shardscope::passes::canonical {

namespace {

bool dropUnusedInputs(ir::Op& op, Rewriter& rewriter) {
  if (op.numRegions() != 1 || op.region(0).empty()) return false;
  ir::Block& body = op.region(0).front();
  std::vector<TensorSharding> in = util::inShardingsOf(op);
  bool changed = false;
  for (unsigned i = body.numArguments(); i-- > 0;) {
    if (!body.argument(i)->useEmpty()) continue;
    body.eraseArgument(i);
    if (i < op.numOperands()) op.eraseOperand(i);
    if (i < in.size()) in.erase(in.begin() + i);
    changed = true;
  }
  if (!changed) return false;
  util::setInShardings(op, in);
  rewriter.revisit(&op);
  return true;
}

// The product of the sizes of the manual axes on the computation's mesh.
int64_t manualAxesProduct(const ir::Op& op, const Rewriter& rewriter) {
  std::vector<TensorSharding> shardings = util::inShardingsOf(op);
  for (const TensorSharding& s : util::outShardingsOf(op)) shardings.push_back(s);
  if (shardings.empty()) return 1;
  const Mesh* mesh = nullptr;
  for (const TensorSharding& s : shardings)
    if ((mesh = rewriter.meshOf(s)) && !mesh->empty()) break;
  if (!mesh) return 0;  // unknown mesh: leave the computation alone
  int64_t product = 1;
  for (const std::string& axis : util::manualAxesOf(op)) product *= mesh->axisSize(axis);
  return product;
}

bool eraseOrInlineTrivial(ir::Op& op, Rewriter& rewriter) {
  if (op.numRegions() != 1 || op.region(0).empty()) return false;
  ir::Block& body = op.region(0).front();
  ir::Op* terminator = body.terminator();
  if (!terminator) return false;
  if (util::inShardingsOf(op).empty() && util::outShardingsOf(op).empty() &&
      body.ops().front().get() == terminator && op.numResults() == 0) {
    rewriter.eraseOp(&op);
    return true;
  }
  if (manualAxesProduct(op, rewriter) != 1) return false;
  for (unsigned i = 0; i < body.numArguments() && i < op.numOperands(); ++i)
    body.argument(i)->replaceAllUsesWith(op.operand(i));
  std::vector<ir::Value*> yielded(terminator->operands().begin(), terminator->operands().end());
  while (body.ops().front().get() != terminator) {
    ir::Op* moved = body.ops().front().get();
    op.parentBlock()->insertBefore(&op, body.take(moved));
    rewriter.revisit(moved);
  }
  rewriter.replaceOp(&op, yielded);
  return true;
}

}  // namespace

void addManualComputationPatterns(std::vector<Pattern>& out) {
  out.push_back({"sdy.manual_computation", dropUnusedInputs});
  out.push_back({"sdy.manual_computation", eraseOrInlineTrivial});
}

}  // namespace shardscope::passes::canonical
