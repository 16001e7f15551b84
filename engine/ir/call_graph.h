// The call graph of a module: which top-level `func.func` each `func.call`
// reaches, and the two things about it that passes copying or inlining
// functions must check before they start (they would otherwise recurse
// forever or run out of memory):
//
//   - a recursive call (a function reaching itself through its calls);
//     `@main -> @f -> @g -> @f` is reported at the call of @f inside @g;
//   - how much copying "every function is called once" costs: a chain of
//     40 functions each calling the next twice needs 2^40 copies of the
//     last one.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/diagnostics.h"
#include "ir/operation.h"

namespace shardscope::ir {

class CallGraph {
 public:
  explicit CallGraph(const Module& module);

  // Top-level functions in module order.
  const std::vector<Op*>& functions() const { return funcs_; }
  // The function `call` (a func.call) refers to, or nullptr.
  Op* callee(const Op& call) const;
  // The calls inside `func` (nested regions included) in program order.
  const std::vector<Op*>& callsIn(const Op& func) const;

  // A call closing a cycle, with the cycle it closes as function names from
  // the first function of the cycle back to it (`{"f", "g", "f"}`). The
  // search starts from the functions in module order, so the call reported
  // is the first one met on a depth-first walk.
  struct RecursiveCall {
    Op* call = nullptr;
    std::vector<std::string> cycle;
  };
  std::optional<RecursiveCall> findRecursiveCall() const;

  // What flattening the call graph (each function called at most once)
  // copies: function copies and the ops in them. Counts saturate at
  // UINT64_MAX. Only meaningful without recursive calls.
  struct FlattenCost {
    uint64_t functionCopies = 0;
    uint64_t opCopies = 0;
    // The function copied most often, how often, and a call of it.
    Op* mostCopied = nullptr;
    uint64_t mostCopiedCount = 0;
    Op* callOfMostCopied = nullptr;
  };
  FlattenCost flattenCost() const;

  // Ops in `func` plus, for every call in it, in a fresh copy of the callee
  // and of what it calls (what copying `func` with its callees makes).
  // Saturates at UINT64_MAX. Only meaningful without recursive calls. The
  // first call computes it for every function; later ones look it up.
  uint64_t opsInCallTree(const Op& func) const;

 private:
  std::vector<Op*> funcs_;
  std::unordered_map<std::string, Op*> byName_;
  std::unordered_map<const Op*, std::vector<Op*>> calls_;
  mutable std::unordered_map<const Op*, uint64_t> treeOps_;  // see opsInCallTree
  // Functions with every callee before its callers (valid without cycles).
  std::vector<Op*> calleesFirst() const;
};

// The largest number of ops flattening or copying call trees may create
// before a pass refuses the module: a million ops take a few hundred MB and
// seconds to copy, far more than real call graphs ask for (a layer of a few
// thousand ops called a hundred times).
inline constexpr uint64_t kMaxCopiedOps = uint64_t{1} << 20;

// Reports a recursive call as an error at the call; false when there is one.
bool checkNoRecursiveCalls(const CallGraph& graph, DiagnosticSink& diags);
// The same plus the flattening budget: false (with an error at a call of
// the function copied most often) when giving every call its own copy of
// the callee (flattening the call graph, or importing each call as a named
// computation) would copy more than kMaxCopiedOps ops.
bool checkFlattenable(const CallGraph& graph, DiagnosticSink& diags);

}  // namespace shardscope::ir
