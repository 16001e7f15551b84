// StableHLO op constraints (see stablehlo_ops.h).
#include "verifier/stablehlo_ops.h"

#include <algorithm>
#include <numeric>
#include <optional>

#include "rules/stablehlo_attrs.h"
#include "sharding/checked_size.h"

namespace shardscope::verifier {

namespace {

const ir::Type* operandType(const ir::Op& op, unsigned i) {
  return i < op.numOperands() && op.operand(i) ? &*op.operand(i)->type : nullptr;
}

int64_t elementCount(const ir::Type& type) {
  int64_t n = 1;
  for (int64_t d : type.shape) n = saturatingMul(n, d);
  return n;
}

std::string joined(const std::vector<int64_t>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + std::to_string(values[i]);
  return out;
}

std::vector<std::string> reshapeErrors(const ir::Op& op) {
  const ir::Type* in = operandType(op, 0);
  if (!in || op.numResults() != 1) return {};
  const ir::Type& out = op.result(0)->type;
  if (!in->isRankedTensor() || !out.isRankedTensor() || !in->hasStaticShape() || !out.hasStaticShape())
    return {};
  const int64_t produced = elementCount(out), expected = elementCount(*in);
  if (produced == expected) return {};
  return {"number of output elements (" + std::to_string(produced) +
          ") doesn't match expected number of elements (" + std::to_string(expected) + ")"};
}

std::vector<std::string> transposeErrors(const ir::Op& op) {
  const ir::Type* in = operandType(op, 0);
  std::optional<std::vector<int64_t>> perm = rules::intListAttrOf(op, "permutation");
  if (!in || !in->isRankedTensor() || !perm) return {};
  // (Spelled only on failure: this runs for every transpose of a module.)
  auto failed = [&] { return "'" + op.name() + "' op failed to infer returned types"; };
  if (static_cast<int64_t>(perm->size()) != in->rank())
    return {"TransposeOp operand rank " + std::to_string(in->rank()) + " does not match permutation size " +
                std::to_string(perm->size()),
            failed()};
  std::vector<int64_t> range(perm->size());
  std::iota(range.begin(), range.end(), 0);
  if (std::is_permutation(range.begin(), range.end(), perm->begin())) return {};
  return {"attribute permutation must be a permutation of [" + joined(range) + "] but got " + joined(*perm),
          failed()};
}

// What a `dot_dimension_numbers` attribute says on its own: its four
// dimension lists, and the first error they make whatever the operands
// ("" when none).
struct DotDimensionLists {
  std::vector<int64_t> lhsBatch, rhsBatch, lhsContract, rhsContract;
  std::string error;
};

DotDimensionLists readDotDimensionLists(const rules::StructParams& dn) {
  DotDimensionLists l{dn.list("lhs_batching_dimensions"), dn.list("rhs_batching_dimensions"),
                      dn.list("lhs_contracting_dimensions"), dn.list("rhs_contracting_dimensions"), {}};
  // A dimension used twice, for batching or contracting, on one side.
  auto distinct = [](const std::vector<int64_t>& batch, const std::vector<int64_t>& contract,
                     const char* batchName, const char* contractName) -> std::optional<std::string> {
    // The batching then contracting dimensions as one sequence, without
    // copying them into one list: the first one that occurred before.
    const size_t total = batch.size() + contract.size();
    auto at = [&](size_t j) { return j < batch.size() ? batch[j] : contract[j - batch.size()]; };
    for (size_t j = 0; j < total; ++j)
      for (size_t k = 0; k < j; ++k)
        if (at(k) == at(j))
          return "has duplicated dimension from " + std::string(batchName) + " and " + contractName + ": " +
                 std::to_string(at(j));
    return std::nullopt;
  };
  if (l.lhsBatch.size() != l.rhsBatch.size())
    l.error = "lhs and rhs should have the same number of batching dimensions";
  else if (l.lhsContract.size() != l.rhsContract.size())
    l.error = "lhs and rhs should have the same number of contracting dimensions";
  else if (auto e = distinct(l.lhsBatch, l.lhsContract, "lhs_batching_dimensions", "lhs_contracting_dimensions"))
    l.error = *e;
  else if (auto e2 = distinct(l.rhsBatch, l.rhsContract, "rhs_batching_dimensions", "rhs_contracting_dimensions"))
    l.error = *e2;
  return l;
}

// The lists of `attr`, or nullptr when it is no dot_dimension_numbers. The
// reader shares one attribute value among the ops that spell it alike (a
// transformer's 110,000 dot_generals at 1M ops spell a handful), so the
// last few read on this thread are kept and each spelling is read once,
// not once per op. A kept copy holds its value, so no other value can take
// its address while it is remembered.
const DotDimensionLists* dotDimensionLists(const ir::Attribute& attr) {
  struct Entry {
    ir::Attribute attr;
    std::optional<DotDimensionLists> lists;
  };
  constexpr size_t kKept = 8;
  thread_local std::vector<Entry> kept;
  thread_local size_t next = 0;  // the entry replaced next once all are used
  for (const Entry& e : kept)
    if (&e.attr.value() == &attr.value()) return e.lists ? &*e.lists : nullptr;
  Entry entry{attr, std::nullopt};
  if (std::optional<rules::StructParams> dn = rules::StructParams::from(attr)) entry.lists = readDotDimensionLists(*dn);
  Entry* slot;
  if (kept.size() < kKept) {
    slot = &kept.emplace_back(std::move(entry));
  } else {
    slot = &kept[next];
    *slot = std::move(entry);
    next = (next + 1) % kKept;
  }
  return slot->lists ? &*slot->lists : nullptr;
}

std::vector<std::string> dotGeneralErrors(const ir::Op& op) {
  const ir::Type* lhs = operandType(op, 0);
  const ir::Type* rhs = operandType(op, 1);
  const ir::Attribute* attr = op.attr("dot_dimension_numbers");
  const DotDimensionLists* dn = attr ? dotDimensionLists(*attr) : nullptr;
  if (!lhs || !rhs || !dn || !lhs->isRankedTensor() || !rhs->isRankedTensor()) return {};
  if (!dn->error.empty()) return {dn->error};
  const std::vector<int64_t>& lhsBatch = dn->lhsBatch;
  const std::vector<int64_t>& rhsBatch = dn->rhsBatch;
  const std::vector<int64_t>& lhsContract = dn->lhsContract;
  const std::vector<int64_t>& rhsContract = dn->rhsContract;
  auto inRange = [](int64_t rank, const std::vector<int64_t>& dims,
                    const char* name) -> std::optional<std::string> {
    for (int64_t d : dims)
      if (d < 0 || d >= rank)
        return std::string(name) + " value: " + std::to_string(d) + " is out of range: [0, " +
               std::to_string(rank) + ")";
    return std::nullopt;
  };
  for (auto e : {inRange(lhs->rank(), lhsBatch, "lhs_batching_dimensions"),
                 inRange(lhs->rank(), lhsContract, "lhs_contracting_dimensions"),
                 inRange(rhs->rank(), rhsBatch, "rhs_batching_dimensions"),
                 inRange(rhs->rank(), rhsContract, "rhs_contracting_dimensions")})
    if (e) return {*e};
  auto sizeAt = [](const ir::Type& t, int64_t d) { return t.shape[static_cast<size_t>(d)]; };
  auto compatible = [](int64_t a, int64_t b) { return a == b || a == ir::Type::kDynamic || b == ir::Type::kDynamic; };
  for (size_t i = 0; i < lhsBatch.size(); ++i)
    if (!compatible(sizeAt(*lhs, lhsBatch[i]), sizeAt(*rhs, rhsBatch[i])))
      return {"batching dimension sizes must match for lhs/rhs"};
  for (size_t i = 0; i < lhsContract.size(); ++i)
    if (!compatible(sizeAt(*lhs, lhsContract[i]), sizeAt(*rhs, rhsContract[i])))
      return {"contracting dimension sizes must match for lhs/rhs"};
  return {};
}

}  // namespace

std::vector<std::string> stablehloOpErrors(const ir::Op& op) {
  if (op.is("stablehlo.reshape")) return reshapeErrors(op);
  if (op.is("stablehlo.transpose")) return transposeErrors(op);
  if (op.is("stablehlo.dot_general")) return dotGeneralErrors(op);
  return {};
}

}  // namespace shardscope::verifier
