// The factor table of one op as a view-friendly grid: one row per tensor
// (T0.. operands, then results), one column per factor (F0.. with name,
// kind and size), a cell per (tensor, factor) with its axes, a marker where
// the tensor does not map the factor, the tensor's explicitly replicated
// axes, and flags for factors in conflict and for the compatible major-most
// axes (what basic propagation would agree on). Each row also carries the
// dimension view (per tensor dimension: its sharding and the factors it is
// made of).
//
// Built from a trace step (rule text + recorded table) or directly from an
// op of a module and its current shardings (for the inspector when no step
// is selected).
//
// Example: dot_general `([i, k], [k, j])->([i, j]) {i=8, j=16, k=8}
// reduction={k}` with %arg0 `[{"a"}, {?}]`:
//          i=8 (lhs non-contr.)  j=16 (rhs non-contr.)  k=8 (contracting, reduction)
//   T0 %arg0  {"a"}                  —                      {?}
//   T1 %arg1  —                      {?}                    {?}
//   T2 %0     {?}                    {?}                    —
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/operation.h"
#include "propagation/propagation_trace.h"
#include "sharding/mesh.h"
#include "sharding/op_sharding_rule.h"

namespace shardscope::explain {

struct FactorTableColumn {
  int64_t factor = 0;
  std::string name;  // "k"
  int64_t size = 1;
  FactorType type = FactorType::Passthrough;
  std::string kind;  // "reduction"
  std::string role;  // "contracting" ("" when none)
  bool blocked = false;
  std::string direction;  // "BOTH" ... ("" when unknown)
  bool conflict = false;
  std::string conflictReason;
  // The axes the tensors mapping the factor agree on, major-most first
  // (basic propagation's step (a), direction BOTH).
  AxisRefList compatibleAxes;
  // `k=8` / `contracting, reduction`.
  std::string title() const;
  std::string kindsText() const;
};

struct FactorTableCell {
  bool mapped = false;  // false: the tensor does not have this factor
  int64_t dim = -1;     // the tensor dimension holding the factor
  AxisRefList axes;
  AxisRefList overflowAxes;
  bool closed = false;
  bool minorMost = false;
  // The factor is in conflict and this tensor holds something another
  // tensor mapping it does not agree with.
  bool conflict = false;
  // How many leading axes equal the column's compatible major-most axes.
  size_t compatiblePrefix = 0;
  // Differs from the compared table (e.g. before the step).
  bool changed = false;
  // `{"a", "b"}`, `{"a", ?}` when open, `{"a"} +{"c"}` with overflow axes, `—` when unmapped.
  std::string text() const;
};

struct FactorTableDimCell {
  std::vector<int64_t> factors;  // factors of the dimension, major to minor
  int64_t size = -1;             // dimension size when known
  DimensionSharding sharding;
  bool changed = false;
  std::string text() const;  // `{"a", ?}`
};

struct FactorTableRow {
  std::string tensor;  // "operand-0" / "result-0"
  std::string value;   // "%arg0" ("" when unknown)
  bool isResult = false;
  size_t index = 0;  // operand or result index
  std::vector<FactorTableCell> cells;     // one per column
  std::vector<FactorTableDimCell> dims;   // dimension view
  AxisRefList replicated;                 // explicitly replicated axes
  AxisRefList unreduced;
  // `T0`, `T1`, ...
  std::string shortLabel(size_t row) const { return "T" + std::to_string(row); }
};

struct FactorTable {
  std::string op;    // "stablehlo.dot_general"
  std::string rule;  // rule body text
  std::string meshName;
  std::optional<Mesh> mesh;
  uint32_t line = 0;
  std::vector<FactorTableColumn> columns;
  std::vector<FactorTableRow> rows;
  size_t maxRank() const;
  // A plain-text grid (factor view or dimension view), for tests and logs.
  std::string text(bool dimensionView = false) const;
};

// Build from a rule and a recorded table. `mesh` (optional) merges sub-axes
// in the dimension view and computes the compatible axes exactly;
// `directions` / `conflicts` come from the step; cells that differ from
// `compareWith` are flagged as changed.
FactorTable buildFactorTable(const OpShardingRule& rule, const propagation::TraceFactorTable& table,
                             std::string_view opName, const Mesh* mesh = nullptr,
                             const std::vector<std::string>& directions = {},
                             const std::vector<propagation::TraceConflict>& conflicts = {},
                             const propagation::TraceFactorTable* compareWith = nullptr);

// The table of a trace step, after (default) or before it. Returns an empty
// table (no columns) when the step's rule text does not parse.
FactorTable factorTableForStep(const propagation::TraceStep& step, bool after = true, const Mesh* mesh = nullptr);

// The table of `op` with the shardings it has now in `module` (the rule on
// the op or the registry's). Empty with `error` for ops without a rule.
FactorTable factorTableForOp(ir::Module& module, ir::Op& op, std::string* error = nullptr,
                             bool conservativePropagation = false);

}  // namespace shardscope::explain
