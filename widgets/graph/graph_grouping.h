// Large functions drawn collapsed, as a tree of groups that no level of
// which shows more than a few hundred boxes:
//
// - ops carrying JAX name scopes (`loc("jit(f)/transformer/layer_3/
//   attention/dot_general"(...))`, api/op_source.h) are grouped by the
//   name-scope tree, as TensorBoard and Model Explorer users know it:
//   jit(f) › transformer › layer_3 › attention;
// - otherwise the top-level ops split into groups: a region op with a large
//   body on its own, repeated layer structure found as a period in the
//   op-name sequence ("layer 3"), else fixed-size chunks ("ops 201–320");
// - a level with more than `maxBoxes` groups nests them in ranges
//   ("layers 0–99", "layers 100–199", ...; again inside when a range is
//   still too large), so the levels stay small at any size.
//
// A leaf group holds top-level ops of the function body and is expanded in
// place into its ops (`buildGroupGraph`, graph_builder.h, on the UI thread);
// a group with children is opened as a level of its own (`levelModel`).
// Each group is drawn as one box with its op count, top op kinds and
// sharding axes; edges between the boxes of a level carry the values
// crossing them, and at a nested level two extra nodes stand for the
// values coming from and going to the rest of the function.
//
// Example: a 1,000,000-op generated transformer (13,698 layers of 73 ops)
// without locations gives 137 top-level groups "layers 0–99", ...,
// "layers 13600–13697", each holding 100 leaves "layer N"; with
// `--locations` its top level is `jit(model)` › `transformer` (137 ranges
// "layer_0–99", ...), and layer_3 holds ln_1, attention, ln_2, mlp.
//
// Everything here is plain data and runs on any thread (no text measuring:
// box sizes are estimated from character counts).
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
#include "graph/op_group_table.h"
#include "graph/op_search_index.h"

namespace shardscope::widgets {

struct GroupingOptions {
  int threshold = 400;   // functions with more ops than this are grouped
  int targetSize = 120;  // ops per group aimed at (chunks, periods merged up to it)
  int maxSize = 400;     // a period longer than this is split into chunks
  int regionMin = 40;    // a region op with at least this many nested ops is its own group
  int maxBoxes = 200;    // groups per level at most; more are nested in ranges
  bool byNameScope = true;  // group by JAX name scopes when the ops have them
  // Group a function of any size whose ops carry name scopes (View > Group
  // by Name Scope): a small JAX export then shows its `jit(f)` › `mlp` ›
  // `dense_2` tree as a large one does. Off, only functions over `threshold`
  // ops are grouped.
  bool scopesAtAnySize = false;

  bool operator==(const GroupingOptions&) const = default;
};

struct OpGroup {
  int id = 0;
  QString label;                 // "layer 3", "layers 0–99", "attention", "while", "ops 201–320"
  int parent = -1;               // the group holding this one (-1: the top level)
  std::vector<int> children;     // sub-groups in program order (empty: a leaf)
  std::vector<const ir::Op*> ops;  // leaves: top-level ops of the function body, in order
  int opCount = 0;               // ops including nested ones and those of sub-groups
  int firstOp = 0;               // index of its first op among the top-level ops
  // Function arguments used only in this group among its level's groups
  // (folded in, not drawn at that level).
  std::vector<const ir::Value*> args;
  QStringList lines;             // summary lines under the label
  QStringList axes;              // mesh axes the group's values are sharded on
  QString searchText;            // what the scene's own search matches (the label)

  bool isLeaf() const { return children.empty(); }
};

// An edge of one level: the values going from one of its boxes to another.
// Ends are group ids, or kFromOutside / kToOutside (the rest of the
// function, at a nested level), or kFreeArgument - i (free argument i, at
// the top level).
struct LevelEdge {
  static constexpr int kFromOutside = -2;
  static constexpr int kToOutside = -3;
  static constexpr int kFreeArgument = -10;
  int from = 0;
  int to = 0;
  std::vector<const ir::Value*> values;
};

struct Grouping {
  QString title;  // "@main"
  std::vector<OpGroup> groups;  // all groups of the tree, by id
  std::vector<int> topLevel;    // the groups of the top level, in program order
  std::vector<const ir::Value*> freeArgs;  // arguments used by several top-level groups
  // Leaf group of every op of the function (nested ones included).
  OpGroupTable groupOf;
  int totalOps = 0;
  int period = 0;           // detected period of the op-name sequence (0: none)
  bool byNameScope = false;  // grouped by the ops' name scopes
  Legend legend;             // the mesh axes every level is coloured with
  // The edges of each level: index 0 the top level, group g + 1 the level
  // inside group g.
  std::vector<std::vector<LevelEdge>> levelEdges;
  // The top level's graph (levelModel(*this, -1)).
  GraphModel level;
  // Every op of the function, for Ctrl+F.
  OpSearchIndex search;
  // What each stage of groupFunction took, in order ("name-scope tree",
  // "edges", ...): wall and thread CPU milliseconds, for the benchmark (the
  // search index is built on a thread of its own meanwhile: "search index").
  struct Stage {
    const char* name;
    double wallMs;
    double cpuMs;
  };
  std::vector<Stage> stages;

  // The leaf group holding `op`, or -1.
  int groupOfOp(const ir::Op* op) const { return groupOf.find(op); }
  // The groups shown at the level inside `parent` (-1: the top level).
  const std::vector<int>& childrenOf(int parent) const {
    return parent < 0 ? topLevel : groups[static_cast<size_t>(parent)].children;
  }
  // `group` and the groups holding it, outermost first.
  std::vector<int> pathTo(int group) const;
  // The largest number of groups any level shows.
  int maxBoxesPerLevel() const;
  // The level a view opens at: the top level, or below it while one group
  // holds (nearly) all ops (`jit(f)` › `transformer`: the level of the
  // transformer's layers).
  int openingLevel() const;
  // Levels below the top one (0: flat).
  int depth() const;
};

// Ops nested in `func` (not counting `func`).
int countOps(const ir::Op& func);
// Whether `func` holds more than `limit` ops; stops counting there (cheap on
// the UI thread for any size).
bool hasMoreOpsThan(const ir::Op& func, int limit);
// Whether `func` is drawn grouped under `opt`: its ops and arguments
// together are more than `opt.threshold`, or `opt.scopesAtAnySize` asks for name scopes at any
// size and its top-level ops sit in at least two different ones. The graph
// view and picture export both ask it.
bool drawsGrouped(const ir::Op& func, const GroupingOptions& opt);

// Smallest p in [minPeriod, maxPeriod] with seq[i] == seq[i+p] for at least
// `ratio` of the positions checked (up to 4,000), or 0.
// Example: {a,b,c,a,b,c,a,b,c} gives 3.
int findPeriod(const std::vector<int>& seq, int minPeriod, int maxPeriod, double ratio = 0.9);

// The label of a range of groups from its first and last one:
// ("layer 0", "layer 99") -> "layers 0–99", ("layer_100", "layer_199") ->
// "layer_100–199", ("ops 1–120", "ops 1081–1200") -> "ops 1–1200",
// ("while", "layer 7") -> "while … layer 7".
QString rangeLabel(const QString& first, const QString& last);

// Group `func`. `canceled` is polled; returns nullptr when it says so.
// `progress` hears the share done, 0-100, after each stage (a million ops
// take seconds).
std::shared_ptr<const Grouping> groupFunction(const ir::Module& module, const ir::Op& func,
                                              const GroupingOptions& options = {},
                                              const std::function<bool()>& canceled = {},
                                              const std::function<void(int)>& progress = {});

// The graph of the level inside `parent` (-1: the top level): its groups as
// nodes in program order, then the free arguments (top level) or the
// "from outside" / "to outside" nodes (nested levels, when values cross).
GraphModel levelModel(const Grouping& g, int parent);

// A level's layout input with the given groups expanded to `expanded` sizes
// (a group's inner layout plus its frame).
GraphInput levelInput(const GraphModel& level, const std::map<int, QSizeF>& expanded);

// Frame around an expanded group's inner layout: header height and margin.
constexpr double kGroupHeader = 26;
constexpr double kGroupMargin = 10;

}  // namespace shardscope::widgets
