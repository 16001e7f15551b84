// The call graph of a module (see call_graph.h).
#include "ir/call_graph.h"

#include <algorithm>
#include <limits>
#include <unordered_set>

namespace shardscope::ir {

namespace {

constexpr uint64_t kSaturated = std::numeric_limits<uint64_t>::max();

uint64_t addSaturating(uint64_t a, uint64_t b) {
  uint64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? kSaturated : sum;
}

uint64_t mulSaturating(uint64_t a, uint64_t b) {
  uint64_t product = 0;
  return __builtin_mul_overflow(a, b, &product) ? kSaturated : product;
}

bool isCall(const Op& op) { return op.is("func.call") || op.is("call"); }

std::string symbolName(const Op& op) {
  const Attribute* a = op.attr("sym_name");
  return a && a->string() ? *a->string() : std::string();
}

std::string calleeName(const Op& call) {
  const Attribute* a = call.attr("callee");
  if (!a) return "";
  if (const auto* ref = a->as<SymbolRefAttr>(); ref && !ref->path.empty()) return ref->root();
  if (const std::string* s = a->string()) return *s;
  return "";
}

uint64_t countOps(Op& func) {
  uint64_t n = 0;
  func.walkPreOrder([&](Op&) {
    ++n;
    return true;
  });
  return n - 1;  // not the function itself
}

// A count that may have saturated, in words.
std::string countText(uint64_t n) {
  return n == kSaturated ? "more than " + std::to_string(n) : std::to_string(n);
}

}  // namespace

CallGraph::CallGraph(const Module& module) : funcs_(module.functions()) {
  for (Op* f : funcs_) byName_.emplace(symbolName(*f), f);
  // No call op lives anywhere: no function calls another, nothing to walk.
  if (!Op::anyLive("func.call") && !Op::anyLive("call")) return;
  for (Op* f : funcs_) {
    std::vector<Op*>& calls = calls_[f];
    f->walkPreOrder([&](Op& op) {
      if (&op != f && isCall(op)) calls.push_back(&op);
      return true;
    });
  }
}

Op* CallGraph::callee(const Op& call) const {
  auto it = byName_.find(calleeName(call));
  return it == byName_.end() ? nullptr : it->second;
}

const std::vector<Op*>& CallGraph::callsIn(const Op& func) const {
  static const std::vector<Op*> kNone;
  auto it = calls_.find(&func);
  return it == calls_.end() ? kNone : it->second;
}

std::optional<CallGraph::RecursiveCall> CallGraph::findRecursiveCall() const {
  if (calls_.empty()) return std::nullopt;
  // Iterative depth-first search (a call chain may be deeper than the
  // stack); a call reaching a function still on the path closes a cycle.
  enum class Mark { New, OnPath, Done };
  std::unordered_map<const Op*, Mark> mark;
  struct Frame {
    Op* func;
    size_t next;
  };
  for (Op* root : funcs_) {
    if (mark[root] != Mark::New) continue;
    std::vector<Frame> path{{root, 0}};
    mark[root] = Mark::OnPath;
    while (!path.empty()) {
      Frame& top = path.back();
      const std::vector<Op*>& calls = callsIn(*top.func);
      if (top.next == calls.size()) {
        mark[top.func] = Mark::Done;
        path.pop_back();
        continue;
      }
      Op* call = calls[top.next++];
      Op* target = callee(*call);
      if (!target) continue;
      Mark& m = mark[target];
      if (m == Mark::Done) continue;
      if (m == Mark::OnPath) {
        RecursiveCall found{call, {}};
        auto start = std::find_if(path.begin(), path.end(), [&](const Frame& f) { return f.func == target; });
        for (auto it = start; it != path.end(); ++it) found.cycle.push_back(symbolName(*it->func));
        found.cycle.push_back(symbolName(*target));
        return found;
      }
      m = Mark::OnPath;
      path.push_back({target, 0});
    }
  }
  return std::nullopt;
}

std::vector<Op*> CallGraph::calleesFirst() const {
  std::vector<Op*> order;
  std::unordered_set<const Op*> done;
  for (Op* root : funcs_) {
    if (done.count(root)) continue;
    std::vector<std::pair<Op*, size_t>> stack{{root, 0}};
    done.insert(root);
    while (!stack.empty()) {
      auto& [func, next] = stack.back();
      const std::vector<Op*>& calls = callsIn(*func);
      if (next == calls.size()) {
        order.push_back(func);
        stack.pop_back();
        continue;
      }
      Op* target = callee(*calls[next++]);
      if (target && done.insert(target).second) stack.push_back({target, 0});
    }
  }
  return order;
}

CallGraph::FlattenCost CallGraph::flattenCost() const {
  FlattenCost cost;
  if (calls_.empty()) return cost;
  // How many times each function is reached along distinct call chains
  // from the functions nobody calls: callers before callees, each call
  // passing on its caller's count. Flattening keeps one instance of each
  // function and copies the rest.
  std::vector<Op*> order = calleesFirst();
  std::reverse(order.begin(), order.end());
  std::unordered_map<const Op*, uint64_t> reached;
  std::unordered_set<const Op*> called;
  std::unordered_map<const Op*, Op*> someCall;
  for (Op* f : funcs_)
    for (Op* call : callsIn(*f))
      if (Op* target = callee(*call)) {
        called.insert(target);
        someCall.emplace(target, call);
      }
  for (Op* f : order)
    if (!called.count(f)) reached[f] = 1;
  for (Op* f : order) {
    const uint64_t times = reached[f];
    for (Op* call : callsIn(*f))
      if (Op* target = callee(*call)) reached[target] = addSaturating(reached[target], times);
  }
  for (Op* f : order) {
    const uint64_t times = reached[f];
    if (times <= 1) continue;
    const uint64_t copies = times - 1;
    cost.functionCopies = addSaturating(cost.functionCopies, copies);
    cost.opCopies = addSaturating(cost.opCopies, mulSaturating(copies, countOps(*f)));
    if (copies > cost.mostCopiedCount) {
      cost.mostCopied = f;
      cost.mostCopiedCount = copies;
      cost.callOfMostCopied = someCall[f];
    }
  }
  return cost;
}

uint64_t CallGraph::opsInCallTree(const Op& func) const {
  if (treeOps_.empty())
    for (Op* f : calleesFirst()) {
      uint64_t n = countOps(*f);
      for (Op* call : callsIn(*f))
        if (Op* target = callee(*call)) n = addSaturating(n, treeOps_[target]);
      treeOps_[f] = n;
    }
  auto it = treeOps_.find(&func);
  return it != treeOps_.end() ? it->second : countOps(const_cast<Op&>(func));  // not top-level
}

bool checkNoRecursiveCalls(const CallGraph& graph, DiagnosticSink& diags) {
  std::optional<CallGraph::RecursiveCall> found = graph.findRecursiveCall();
  if (!found) return true;
  std::string chain;
  for (const std::string& name : found->cycle) chain += (chain.empty() ? "@" : " -> @") + name;
  const std::string& target = found->cycle.back();
  diags.error(found->call->loc(),
              "'func.call' op is a recursive call: @" + target + " reaches itself through " + chain +
                  "; sharding propagation needs a call graph without cycles");
  return false;
}

bool checkFlattenable(const CallGraph& graph, DiagnosticSink& diags) {
  if (!checkNoRecursiveCalls(graph, diags)) return false;
  CallGraph::FlattenCost cost = graph.flattenCost();
  if (cost.opCopies <= kMaxCopiedOps) return true;
  diags.error(cost.callOfMostCopied->loc(),
              "'func.call' op makes the call graph too large to expand: every call needs its own copy "
              "of the function it calls, and the call chains reaching @" +
                  symbolName(*cost.mostCopied) + " ask for " + countText(cost.mostCopiedCount) +
                  " copies of it (" + countText(cost.functionCopies) + " function copies and " +
                  countText(cost.opCopies) + " ops in all, more than the limit of " +
                  std::to_string(kMaxCopiedOps) + " ops)");
  return false;
}

}  // namespace shardscope::ir
