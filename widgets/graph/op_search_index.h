// Ctrl+F over every op of a large function, also those inside collapsed
// groups the scene has no item for: one lower-case line of text per op
// (its name, its result names and its name scope), searched as a whole.
//
// Example, for the ops of a JAX export:
//
//   %7 = stablehlo.dot_general ... loc("jit(f)/transformer/layer_3/attention/dot_general"(...))
//
//   OpSearchIndex index(func);           // off the UI thread: ~0.3 s per 10^6 ops
//   index.find("layer_3/attention")     -> {ordinals of the ops in that scope, in order}
//   index.find("%7")                    -> {the dot_general, then %70, %71, ...}
//   index.find("model.py:41")           -> the ops that Python line made (api/op_source.h)
//   index.op(ordinal)                   -> the op
//
// Plain data, any thread; const after construction (searches may run
// concurrently).
#pragma once
#include <QString>
#include <functional>
#include <string>
#include <vector>

#include "ir/operation.h"

namespace shardscope::widgets {

class OpSearchIndex {
 public:
  OpSearchIndex() = default;
  // Every op nested in `func` (not `func` itself), in pre-order.
  // `canceled` is polled; when it says so the index stops where it is.
  explicit OpSearchIndex(const ir::Op& func, const std::function<bool()>& canceled = {});

  // Ordinals of the ops matching `query` (case-insensitive substring of an
  // op's line, or FILE:LINE for a Python line), in program order. An empty
  // query matches nothing.
  std::vector<int> find(const QString& query) const;
  const ir::Op* op(int ordinal) const { return ops_[static_cast<size_t>(ordinal)]; }
  int size() const { return static_cast<int>(ops_.size()); }
  // Bytes held (the benchmark reports it).
  size_t memoryBytes() const;

 private:
  std::vector<const ir::Op*> ops_;
  std::string text_;              // the ops' lines, each ended by '\n'
  std::vector<uint32_t> starts_;  // where each op's line starts in text_
};

}  // namespace shardscope::widgets
