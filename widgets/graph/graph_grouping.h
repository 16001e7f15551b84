// Large functions drawn collapsed: the top-level ops of a function split into
// groups (a region op with a large body on its own, repeated layer
// structure found as a period in the op-name sequence, else fixed-size
// chunks), each drawn as one box with its op count and a summary of its
// shardings; edges between groups carry the values that cross them.
//
// Example: a 100,000-op transformer (61 top-level op names repeating) gives
// 1,369 groups "layer 0", "layer 1", ... of 73 ops each, in a chain.
//
// Everything here is plain data and runs on any thread (no text measuring:
// box sizes are estimated from character counts). Expanding a group builds
// its ops with `buildGroupGraph` (graph_builder.h) on the UI thread.
#pragma once
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "api/document.h"
#include "graph/graph_builder.h"

namespace shardscope::widgets {

struct GroupingOptions {
  int threshold = 400;   // functions with more ops than this are grouped
  int targetSize = 120;  // ops per group aimed at (chunks, periods merged up to it)
  int maxSize = 400;     // a period longer than this is split into chunks
  int regionMin = 40;    // a region op with at least this many nested ops is its own group
};

struct OpGroup {
  int id = 0;
  QString label;                       // "layer 3", "layers 4–7", "while", "ops 201–320"
  std::vector<const ir::Op*> ops;      // top-level ops of the function body, in order
  int opCount = 0;                     // ops including nested ones
  int firstOp = 0;                     // index of ops.front() among the top-level ops
  std::vector<const ir::Value*> args;  // function arguments used only here (folded in)
  QStringList lines;                   // summary lines under the label
  QStringList axes;                    // mesh axes the group's values are sharded on
  QString searchText;                  // op names and value names, for Ctrl+F
};

struct Grouping {
  QString title;  // "@main"
  std::vector<OpGroup> groups;
  std::vector<const ir::Value*> freeArgs;  // arguments used by several groups
  // Group of every op of the function (nested ones included).
  std::unordered_map<const ir::Op*, int> groupOf;
  int totalOps = 0;
  int period = 0;  // detected period of the op-name sequence (0: none)
  // The collapsed graph: groups as nodes 0..groups-1, then free arguments.
  GraphModel level;

  int groupOfOp(const ir::Op* op) const {
    auto it = groupOf.find(op);
    return it == groupOf.end() ? -1 : it->second;
  }
};

// Ops nested in `func` (not counting `func`).
int countOps(const ir::Op& func);
// Whether `func` holds more than `limit` ops; stops counting there (cheap on
// the UI thread for any size).
bool hasMoreOpsThan(const ir::Op& func, int limit);

// Smallest p in [minPeriod, maxPeriod] with seq[i] == seq[i+p] for at least
// `ratio` of the positions checked (up to 4,000), or 0.
// Example: {a,b,c,a,b,c,a,b,c} gives 3.
int findPeriod(const std::vector<int>& seq, int minPeriod, int maxPeriod, double ratio = 0.9);

// Group `func`. `canceled` is polled; returns nullptr when it says so.
std::shared_ptr<const Grouping> groupFunction(const ir::Module& module, const ir::Op& func,
                                              const GroupingOptions& options = {},
                                              const std::function<bool()>& canceled = {});

// The collapsed graph's layout input with the given groups expanded to
// `expanded` sizes (a group's inner layout plus its frame).
GraphInput levelInput(const Grouping& g, const std::map<int, QSizeF>& expanded);

// Frame around an expanded group's inner layout: header height and margin.
constexpr double kGroupHeader = 26;
constexpr double kGroupMargin = 10;

}  // namespace shardscope::widgets
