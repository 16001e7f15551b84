#include "graph/graph_grouping.h"

#include <QObject>
#include <QRegularExpression>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <future>
#include <optional>
#include <string_view>
#include <set>
#include <unordered_set>

#include "api/nested_name_scope.h"
#include "api/op_source.h"
#include "core/axis_style.h"
#include "core/thread_cpu_time.h"

namespace shardscope::widgets {

namespace {

// `op` and the ops nested in it, in program order (as ir::Op::walk visits
// them), without a std::function call per op: the grouping visits each of a
// million ops four times, and most have no regions.
template <class Visit>
void forEachOp(const ir::Op& op, Visit&& visit) {
  visit(const_cast<ir::Op&>(op));
  if (op.numRegions() == 0) return;
  for (const auto& region : op.regions())
    for (const auto& block : region->blocks())
      for (const auto& inner : block->ops()) forEachOp(*inner, visit);
}

}  // namespace

int countOps(const ir::Op& func) {
  int n = 0;
  forEachOp(func, [&](ir::Op&) { ++n; });
  return n - 1;
}

bool hasMoreOpsThan(const ir::Op& func, int limit) {
  int n = 0;
  for (const auto& region : func.regions())
    for (const auto& block : region->blocks())
      for (const auto& op : block->ops()) {
        ++n;
        if (op->numRegions() > 0) n += countOps(*op);
        if (n > limit) return true;
      }
  return false;
}

namespace {

// Whether a name of one part is a transformed function, `jit(top)` or
// `transpose(jvp(f))`: a scope, not a primitive (a primitive's parameters
// are in brackets, `iota[dtype=int32]`). JAX names so what an op made
// outside any primitive carries, e.g. a hoisted constant or the
// function's return: `loc("jit(top)"(...))`.
bool isTransformedFunction(std::string_view name) {
  const size_t open = name.find('(');
  return open != std::string_view::npos && open > 0 && name.back() == ')' &&
         name.substr(0, open).find('[') == std::string_view::npos;
}

// The scope part of a JAX name: everything before its last '/' outside
// brackets (`scatter[dims=(0/1)]` is one part), as
// api::splitNameScope splits it; for a name of one part nullopt (no scope)
// unless it is a transformed function (`jit(top)`: that scope itself), ""
// for "/x" (a scope whose one part is empty).
//
// Every top-level op's name is scanned (a million of them, ~50 characters
// each): a table tells the characters that matter from the rest in one
// lookup, where six comparisons per character were 900 instructions an op.
enum CharClass : uint8_t { kPlain = 0, kOpen, kClose, kSlash };
constexpr std::array<uint8_t, 256> kCharClass = [] {
  std::array<uint8_t, 256> t{};
  for (const unsigned char c : {'(', '[', '{'}) t[c] = kOpen;
  for (const unsigned char c : {')', ']', '}'}) t[c] = kClose;
  t[static_cast<unsigned char>('/')] = kSlash;
  return t;
}();

std::optional<std::string_view> scopeOf(std::string_view name) {
  int depth = 0;
  size_t last = std::string_view::npos;
  for (size_t i = 0; i < name.size(); ++i) {
    const uint8_t k = kCharClass[static_cast<unsigned char>(name[i])];
    if (k == kPlain) continue;
    if (k == kOpen)
      ++depth;
    else if (k == kClose)
      depth -= depth > 0;
    else if (depth == 0)
      last = i;
  }
  if (last == std::string_view::npos) {
    if (isTransformedFunction(name)) return name;
    return std::nullopt;
  }
  return name.substr(0, last);
}

// The scope an op is grouped in: of JAX's nested name form the scope it
// wraps, else scopeOf its one-piece name.
std::optional<std::string_view> scopeOfOp(const ir::Op& op) {
  if (const std::string_view nested = api::nestedNameScopeOf(op); !nested.empty()) return nested;
  return scopeOf(api::nameScopeOf(op));
}

}  // namespace

bool drawsGrouped(const ir::Op& func, const GroupingOptions& opt) {
  // Arguments are boxes too: a 300-op function of 5,000 arguments drawn
  // whole was 10,000 nodes for Graphviz (minutes of layout); grouped, each
  // argument is folded into the one group that uses it.
  const int args = func.numRegions() > 0 && !func.region(0).empty()
                       ? static_cast<int>(func.region(0).front().numArguments())
                       : 0;
  if (args > opt.threshold || hasMoreOpsThan(func, opt.threshold - args)) return true;
  if (!opt.byNameScope || !opt.scopesAtAnySize || func.numRegions() == 0 || func.region(0).empty())
    return false;
  // Small by now, so looking at every scope is cheap. Grouped only when the
  // scopes split the body: a function whose ops all sit in one scope
  // (`jit(f)/jit(main)`, as small JAX exports are) would be one box. The
  // scopes are read as the grouping reads them (scopeOf).
  std::optional<std::string_view> first;
  for (const auto& op : func.region(0).front().ops()) {
    const std::optional<std::string_view> scope = scopeOfOp(*op);
    if (!scope) continue;
    if (!first)
      first = scope;
    else if (*scope != *first)
      return true;
  }
  return false;
}

int findPeriod(const std::vector<int>& seq, int minPeriod, int maxPeriod, double ratio) {
  const int n = static_cast<int>(seq.size());
  maxPeriod = std::min(maxPeriod, n / 2);
  for (int p = std::max(1, minPeriod); p <= maxPeriod; ++p) {
    const int checks = std::min(n - p, 4000);
    if (checks < p) break;
    int match = 0, miss = 0;
    const int allowedMiss = static_cast<int>(checks * (1 - ratio));
    for (int i = 0; i < checks && miss <= allowedMiss; ++i)
      (seq[static_cast<size_t>(i)] == seq[static_cast<size_t>(i + p)] ? match : miss)++;
    if (miss <= allowedMiss) return p;
  }
  return 0;
}

QString rangeLabel(const QString& first, const QString& last) {
  // "<prefix><number>" or "<prefix><number>–<number>" at both ends.
  static const QRegularExpression numbered(QStringLiteral("^(.*?)(\\d+)(?:–(\\d+))?$"));
  const auto a = numbered.match(first);
  const auto b = numbered.match(last);
  if (a.hasMatch() && b.hasMatch()) {
    auto singular = [](QString p) {
      if (p == QLatin1String("layers ")) return QStringLiteral("layer ");
      return p;
    };
    const QString prefix = singular(a.captured(1));
    if (prefix == singular(b.captured(1))) {
      const QString end = b.captured(3).isEmpty() ? b.captured(2) : b.captured(3);
      const QString shown = prefix == QLatin1String("layer ") ? QStringLiteral("layers ") : prefix;
      return shown + a.captured(2) + u'–' + end;
    }
  }
  return first + QStringLiteral(" … ") + last;
}

std::vector<int> Grouping::pathTo(int group) const {
  std::vector<int> path;
  for (int g = group; g >= 0; g = groups[static_cast<size_t>(g)].parent) path.push_back(g);
  std::reverse(path.begin(), path.end());
  return path;
}

int Grouping::maxBoxesPerLevel() const {
  size_t most = topLevel.size();
  for (const OpGroup& g : groups) most = std::max(most, g.children.size());
  return static_cast<int>(most);
}

int Grouping::openingLevel() const {
  int level = -1;
  for (;;) {
    const std::vector<int>& here = childrenOf(level);
    // The function's return is left out of the count: in a small function
    // it alone is more than the 1% allowed outside.
    auto returnOnly = [](const OpGroup& g) {
      return g.isLeaf() && !g.ops.empty() &&
             std::all_of(g.ops.begin(), g.ops.end(),
                         [](const ir::Op* op) { return op->name() == "func.return"; });
    };
    long total = 0;
    for (int c : here)
      if (!returnOnly(groups[static_cast<size_t>(c)])) total += groups[static_cast<size_t>(c)].opCount;
    int inner = -1;
    for (int c : here) {
      const OpGroup& g = groups[static_cast<size_t>(c)];
      if (!g.isLeaf() && g.opCount * 100L >= total * 99L) inner = c;
    }
    if (inner < 0) return level;
    level = inner;
  }
}

int Grouping::depth() const {
  int deepest = 0;
  for (const OpGroup& g : groups)
    if (g.isLeaf()) deepest = std::max(deepest, static_cast<int>(pathTo(g.id).size()) - 1);
  return deepest;
}

namespace {

// Rough text width in points for the 12px node font (no font access off the
// UI thread); the painter elides what does not fit.
double textWidth(const QString& s, double perChar = 6.6) { return s.size() * perChar; }

// "1 op", "73 ops" (no translations are loaded, so no "%n op(s)").
QString plural(int n, const char* one, const char* many) {
  return QString::number(n) + u' ' + QLatin1String(n == 1 ? one : many);
}

QString shortOpName(const ir::Op& op) {
  const std::string& n = op.name();
  const auto dot = n.find('.');
  return toQString(dot == std::string::npos ? n : n.substr(dot + 1));
}

// Wall and this thread's CPU time since the last mark, appended as a stage
// of Grouping::stages.
class StageClock {
 public:
  explicit StageClock(std::vector<Grouping::Stage>& stages,
                      const std::function<void(int)>& progress = {})
      : stages_(stages), progress_(progress) {
    restart();
  }
  // Ends stage `name`; `percent` of the whole work is then done (reported
  // to the progress callback, when there is one).
  void mark(const char* name, int percent = -1) {
    if (progress_ && percent >= 0) progress_(percent);
    const auto wall = std::chrono::steady_clock::now();
    const double cpu = threadCpuMs();
    stages_.push_back(
        {name, std::chrono::duration<double, std::milli>(wall - wall0_).count(), cpu - cpu0_});
    wall0_ = wall;
    cpu0_ = cpu;
  }
  void restart() {
    wall0_ = std::chrono::steady_clock::now();
    cpu0_ = threadCpuMs();
  }

 private:
  std::vector<Grouping::Stage>& stages_;
  std::function<void(int)> progress_;
  std::chrono::steady_clock::time_point wall0_;
  double cpu0_ = 0;
};

// What a group's box says, gathered from its leaves up.
struct Summary {
  // Ops of each kind: a group holds a few dozen kinds at most, so a short
  // list searched from its end (runs of one kind are common) beats a hash
  // map's node per kind, made and freed for each of 10^5 groups.
  std::vector<std::pair<const std::string*, int>> kinds;  // op names are interned
  void addKind(const std::string* kind, int n) {
    for (auto it = kinds.rbegin(); it != kinds.rend(); ++it)
      if (it->first == kind) {
        it->second += n;
        return;
      }
    kinds.emplace_back(kind, n);
  }
  std::set<std::string> axes;
  int sharded = 0;
};

// Builds the tree of groups of one function.
class TreeBuilder {
 public:
  TreeBuilder(const ir::Op& func, const GroupingOptions& opt, Grouping& g)
      : opt_(opt), G(g), body_(func.region(0).front()) {
    for (const auto& op : body_.ops()) {
      top_.push_back(op.get());
      weight_.push_back(op->numRegions() == 0 ? 1 : countOps(*op) + 1);
      G.totalOps += weight_.back();
    }
  }

  // Flat: the whole body split into groups at the top level.
  void byStructure() {
    std::vector<size_t> all(top_.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    for (Segment& s : segment(all)) G.topLevel.push_back(addLeaf(std::move(s), -1));
  }

  // By the name-scope tree of the top-level ops.
  //
  // A million ops carry some 800,000 distinct locations (the primitive and
  // the Python line differ), but only some 55,000 distinct scopes: an op's
  // scope is the text of its name before the last '/', a view into the
  // location, so each op costs one scan and, unless it shares the previous
  // op's scope (most do), one hash lookup of that view. Only a scope seen
  // the first time is split into parts and walked down the tree.
  void byNameScope(StageClock* clock = nullptr) {
    G.byNameScope = true;
    scopes_.emplace_back();
    std::unordered_map<std::string_view, int> nodeOfScope;  // "jit(f)/a/b" -> node
    std::optional<std::string_view> lastScope;
    int lastNode = 0;
    for (size_t i = 0; i < top_.size(); ++i) {
      const std::optional<std::string_view> scope = scopeOfOp(*top_[i]);
      int node = 0;  // no scope: the root
      if (scope && lastScope && *scope == *lastScope) {
        node = lastNode;
      } else if (scope) {
        auto [it, added] = nodeOfScope.try_emplace(*scope, 0);
        if (added) it->second = addScopePath(*scope);
        node = it->second;
      }
      lastScope = scope;
      lastNode = node;
      scopes_[static_cast<size_t>(node)].ops.push_back(i);
    }
    if (clock) clock->mark("scope of each op", 10);
    G.topLevel = placeScopeChildren(0, -1);
  }

  // Levels with more than maxBoxes groups: ranges of groups, nested again
  // while a range still holds too many.
  void nestRanges() {
    nest(G.topLevel, -1);
    const size_t before = G.groups.size();
    for (size_t g = 0; g < before; ++g) {
      std::vector<int> children = G.groups[g].children;
      if (children.size() > static_cast<size_t>(opt_.maxBoxes)) {
        nest(children, static_cast<int>(g));
        G.groups[g].children = std::move(children);
      }
    }
  }

  // Op counts and first ops of the groups with children, from their leaves.
  void countUp() {
    for (int g : G.topLevel) countUp(g);
  }

 private:
  struct Segment {
    QString label;
    std::vector<size_t> ops;  // indices into top_
  };

  // The tree node of a scope seen the first time, adding the nodes of its
  // parts that are new.
  int addScopePath(std::string_view scope) {
    int node = 0;
    for (const std::string& part : api::splitNameScope(scope)) {
      auto [it, added] =
          scopes_[static_cast<size_t>(node)].childByName.try_emplace(part, int(scopes_.size()));
      const int child = it->second;  // (emplace_back below may move the map)
      if (added) {
        scopes_[static_cast<size_t>(node)].children.push_back(child);
        scopes_.emplace_back();
        scopes_.back().name = toQString(part);
      }
      node = child;
    }
    return node;
  }

  struct ScopeNode {
    QString name;
    std::unordered_map<std::string, int> childByName;
    std::vector<int> children;  // in the order of their first op
    std::vector<size_t> ops;    // top-level ops whose scope ends here
  };

  int addGroup(QString label, int parent) {
    OpGroup g;
    g.id = static_cast<int>(G.groups.size());
    g.label = std::move(label);
    g.parent = parent;
    G.groups.push_back(std::move(g));
    return G.groups.back().id;
  }
  int addLeaf(Segment s, int parent) {
    const int id = addGroup(std::move(s.label), parent);
    OpGroup& g = G.groups[static_cast<size_t>(id)];
    g.firstOp = s.ops.empty() ? 0 : static_cast<int>(s.ops.front());
    for (size_t i : s.ops) {
      g.ops.push_back(top_[i]);
      g.opCount += weight_[i];
    }
    return id;
  }

  // Top-level ops (indices in program order) split into groups: a big region
  // op on its own, runs between them by period or in chunks.
  std::vector<Segment> segment(const std::vector<size_t>& idx) {
    std::vector<Segment> out;
    std::vector<size_t> run;
    for (size_t i : idx) {
      if (top_[i]->numRegions() > 0 && weight_[i] >= opt_.regionMin) {
        chunk(run, out);
        run.clear();
        const ir::Op& op = *top_[i];
        QString label = shortOpName(op);
        if (op.is("func.call") || op.hasAttr("callee"))
          if (const ir::Attribute* a = op.attr("callee")) label += u' ' + toQString(a->str());
        out.push_back({label, {i}});
      } else {
        run.push_back(i);
      }
    }
    chunk(run, out);
    return out;
  }

  void chunk(const std::vector<size_t>& run, std::vector<Segment>& out) {
    const size_t n = run.size();
    if (n == 0) return;
    auto slice = [&](size_t from, size_t to, QString label) {
      out.push_back({std::move(label), std::vector<size_t>(run.begin() + long(from),
                                                           run.begin() + long(to))});
    };
    auto opsLabel = [&](size_t from, size_t to) {
      return QObject::tr("ops %1–%2").arg(run[from] + 1).arg(run[to - 1] + 1);
    };
    // Period of the op-name sequence (names are interned: compare pointers),
    // only looked for in runs longer than a group (the ~55,000 scopes of a
    // million-op model hold a few ops each).
    int p = 0;
    if (n > static_cast<size_t>(opt_.targetSize)) {
      std::vector<int> seq;
      std::unordered_map<const std::string*, int> ids;
      for (size_t i : run)
        seq.push_back(ids.emplace(&top_[i]->name(), static_cast<int>(ids.size())).first->second);
      p = findPeriod(seq, 4, opt_.maxSize);
    }
    if (p > 0) {
      if (!G.period) G.period = p;
      const int per = std::max(1, opt_.targetSize / p);
      const size_t step = static_cast<size_t>(p) * static_cast<size_t>(per);
      int layer = 0;
      size_t i = 0;
      for (; i + step <= n; i += step, layer += per)
        slice(i, i + step,
              per == 1 ? QObject::tr("layer %1").arg(layer)
                       : QObject::tr("layers %1–%2").arg(layer).arg(layer + per - 1));
      if (i < n && i > 0 && (n - i) * 2 < static_cast<size_t>(p)) {
        // A short tail (e.g. the return): part of the last layer.
        out.back().ops.insert(out.back().ops.end(), run.begin() + long(i), run.end());
      } else if (i < n) {
        slice(i, n, opsLabel(i, n));
      }
      return;
    }
    const size_t size = static_cast<size_t>(opt_.targetSize);
    if (n == 1) {
      slice(0, 1, shortOpName(*top_[run.front()]));
      return;
    }
    for (size_t i = 0; i < n; i += size) slice(i, std::min(n, i + size), opsLabel(i, std::min(n, i + size)));
  }

  // A scope as a group under `parent`: a leaf when it holds few ops of its
  // own, else its sub-scopes and own ops as children.
  int placeScope(int s, int parent) {
    const ScopeNode& node = scopes_[static_cast<size_t>(s)];
    const QString name = node.name;
    if (node.children.empty()) {
      std::vector<Segment> segs = segment(node.ops);
      if (segs.size() == 1) {
        segs.front().label = name;
        return addLeaf(std::move(segs.front()), parent);
      }
      const int g = addGroup(name, parent);
      for (Segment& seg : segs) {
        const int leaf = addLeaf(std::move(seg), g);  // (grows G.groups)
        G.groups[static_cast<size_t>(g)].children.push_back(leaf);
      }
      return g;
    }
    const int g = addGroup(name, parent);
    std::vector<int> children = placeScopeChildren(s, g);
    G.groups[static_cast<size_t>(g)].children = std::move(children);
    return g;
  }

  // The sub-scopes of scope `s` and its own ops, as groups under `g`, in the
  // order of their first op.
  std::vector<int> placeScopeChildren(int s, int g) {
    std::vector<std::pair<size_t, int>> placed;  // (first op, group)
    const std::vector<int> subScopes = scopes_[static_cast<size_t>(s)].children;
    for (int c : subScopes) {
      const int child = placeScope(c, g);
      placed.push_back({firstTop(child), child});
    }
    const std::vector<size_t> own = scopes_[static_cast<size_t>(s)].ops;
    std::vector<Segment> segs = segment(own);
    if (segs.size() == 1 && own.size() > 1)
      segs.front().label = s == 0 ? QObject::tr("ops outside name scopes") : QObject::tr("other ops");
    for (Segment& seg : segs) {
      const size_t first = seg.ops.front();
      placed.push_back({first, addLeaf(std::move(seg), g)});
    }
    std::stable_sort(placed.begin(), placed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<int> out;
    for (const auto& p : placed) out.push_back(p.second);
    return out;
  }

  size_t firstTop(int g) const {
    const OpGroup& grp = G.groups[static_cast<size_t>(g)];
    if (grp.isLeaf()) return static_cast<size_t>(grp.firstOp);
    return firstTop(grp.children.front());
  }

  void nest(std::vector<int>& children, int parent) {
    const size_t n = children.size();
    if (n <= static_cast<size_t>(std::max(2, opt_.maxBoxes))) return;
    // Round ranges (0–99, 100–199) when a power of ten fits; with a tiny
    // maxBoxes (tests) whatever splits the level.
    const size_t most = static_cast<size_t>(std::max(2, opt_.maxBoxes));
    size_t per = 10;
    while ((n + per - 1) / per > most) per *= 10;
    if (per >= n) per = std::max<size_t>(2, (n + most - 1) / most);
    std::vector<int> ranges;
    for (size_t i = 0; i < n; i += per) {
      const size_t e = std::min(n, i + per);
      if (e - i == 1) {
        ranges.push_back(children[i]);
        continue;
      }
      const int r = addGroup(rangeLabel(G.groups[static_cast<size_t>(children[i])].label,
                                        G.groups[static_cast<size_t>(children[e - 1])].label),
                             parent);
      std::vector<int> inside(children.begin() + long(i), children.begin() + long(e));
      for (int c : inside) G.groups[static_cast<size_t>(c)].parent = r;
      nest(inside, r);
      G.groups[static_cast<size_t>(r)].children = std::move(inside);
      ranges.push_back(r);
    }
    children = std::move(ranges);
  }

  void countUp(int g) {
    OpGroup& grp = G.groups[static_cast<size_t>(g)];
    if (grp.isLeaf()) return;
    const std::vector<int> children = grp.children;
    int count = 0;
    for (int c : children) {
      countUp(c);
      count += G.groups[static_cast<size_t>(c)].opCount;
    }
    OpGroup& again = G.groups[static_cast<size_t>(g)];
    again.opCount = count;
    again.firstOp = G.groups[static_cast<size_t>(children.front())].firstOp;
  }

  const GroupingOptions& opt_;
  Grouping& G;
  const ir::Block& body_;
  std::vector<const ir::Op*> top_;
  std::vector<int> weight_;
  std::vector<ScopeNode> scopes_;
};

// Where an edge ends at one level: a group, or a stand-in for the rest.
using EdgeKey = std::pair<int, int>;
using LevelEdgeMap = std::map<EdgeKey, std::vector<const ir::Value*>>;

}  // namespace

std::shared_ptr<const Grouping> groupFunction(const ir::Module& module, const ir::Op& func,
                                              const GroupingOptions& opt,
                                              const std::function<bool()>& canceled,
                                              const std::function<void(int)>& progress) {
  auto out = std::make_shared<Grouping>();
  Grouping& G = *out;
  G.title = u'@' + toQString(api::symbolName(func));
  G.legend.mesh = colorMesh(module, &G.legend.meshName);
  if (func.numRegions() == 0 || func.region(0).empty()) {
    G.level = levelModel(G, -1);
    return out;
  }
  const ir::Block& body = func.region(0).front();
  auto stop = [&] { return canceled && canceled(); };
  // The search index needs nothing of the tree: it is built on a thread of
  // its own meanwhile (both only read the module). Every return below
  // waits for it; a cancel stops it too.
  std::vector<Grouping::Stage> indexStage;
  std::future<OpSearchIndex> index =
      std::async(std::launch::async, [&func, &canceled, &indexStage] {
        StageClock clock(indexStage);
        OpSearchIndex built(func, canceled);
        clock.mark("search index (own thread)");
        return built;
      });
  StageClock clock(G.stages, progress);

  {
    TreeBuilder tree(func, opt, G);
    clock.mark("top-level ops", 5);
    const bool scoped = opt.byNameScope && api::hasNameScopes(func);
    clock.mark("has name scopes", 6);
    if (scoped) {
      tree.byNameScope(&clock);
      clock.mark("name-scope tree", 25);
    } else {
      tree.byStructure();
      clock.mark("groups by structure", 25);
    }
    if (stop()) return nullptr;
    tree.nestRanges();
    tree.countUp();
    clock.mark("ranges, op counts", 28);
  }
  if (stop()) return nullptr;

  G.groupOf.reserve(static_cast<size_t>(G.totalOps));
  for (const OpGroup& g : G.groups)
    for (const ir::Op* op : g.ops)
      forEachOp(*op, [&](ir::Op& o) { G.groupOf.emplace(&o, g.id); });
  clock.mark("group of each op", 38);
  if (stop()) return nullptr;

  // The path of every group from the top, computed once.
  std::vector<std::vector<int>> paths;
  paths.resize(G.groups.size());
  auto pathOf = [&](int g) -> const std::vector<int>& {
    std::vector<int>& p = paths[static_cast<size_t>(g)];
    if (p.empty()) p = G.pathTo(g);
    return p;
  };
  std::vector<LevelEdgeMap> edges(G.groups.size() + 1);
  auto edgeAt = [&](int level, int from, int to) -> std::vector<const ir::Value*>& {
    return edges[static_cast<size_t>(level + 1)][{from, to}];
  };

  std::vector<std::vector<const ir::Value*>> countedArgs;
  countedArgs.resize(G.groups.size());
  // Arguments: folded into the one group of a level that uses them; used by
  // several, a free node at the top level, from outside at a nested one.
  // (level, one of its groups using the argument), sorted and unique: as a
  // map of sets it was ten heap nodes for each of 80,000 weights.
  std::vector<std::pair<int, int>> usersAt;
  std::vector<int> users;
  for (unsigned a = 0; a < body.numArguments(); ++a) {
    const ir::Value* v = body.argument(a);
    usersAt.clear();
    for (const ir::Use& u : v->uses()) {
      const int leaf = G.groupOfOp(u.user);
      if (leaf < 0) continue;
      const std::vector<int>& path = pathOf(leaf);
      for (size_t k = 0; k < path.size(); ++k) usersAt.emplace_back(k == 0 ? -1 : path[k - 1], path[k]);
    }
    std::sort(usersAt.begin(), usersAt.end());
    usersAt.erase(std::unique(usersAt.begin(), usersAt.end()), usersAt.end());
    int deepest = -1;  // where its sharding is counted: the innermost group folding it
    for (size_t i = 0; i < usersAt.size();) {
      const int level = usersAt[i].first;
      users.clear();
      for (; i < usersAt.size() && usersAt[i].first == level; ++i) users.push_back(usersAt[i].second);
      if (users.size() == 1) {
        const int g = users.front();
        G.groups[static_cast<size_t>(g)].args.push_back(v);
        if (deepest < 0 || pathOf(g).size() > pathOf(deepest).size()) deepest = g;
        continue;
      }
      int from = LevelEdge::kFromOutside;
      if (level < 0) {
        from = LevelEdge::kFreeArgument - static_cast<int>(G.freeArgs.size());
        G.freeArgs.push_back(v);
      }
      for (int g : users) edgeAt(level, from, g).push_back(v);
    }
    if (deepest >= 0) countedArgs[static_cast<size_t>(deepest)].push_back(v);
  }
  clock.mark("arguments", 42);
  if (stop()) return nullptr;

  // Values crossing groups: at the level holding both ends, an edge between
  // the two boxes holding them; below it, from outside / to outside.
  // Most operands come from an op of the same leaf: those are found in the
  // leaf's own ops (sorted, a few dozen, in cache) before asking groupOf (a
  // million entries: a cache miss per lookup).
  std::vector<const ir::Op*> inLeaf;
  for (const OpGroup& leaf : G.groups) {
    if (!leaf.isLeaf()) continue;
    inLeaf.clear();
    for (const ir::Op* op : leaf.ops)
      forEachOp(*op, [&](ir::Op& o) { inLeaf.push_back(&o); });
    std::sort(inLeaf.begin(), inLeaf.end());
    for (const ir::Op* op : leaf.ops)
      forEachOp(*op, [&](ir::Op& o) {
        for (ir::Value* v : o.operands()) {
          if (!v->definingOp) continue;  // arguments: above; region arguments: inside
          if (std::binary_search(inLeaf.begin(), inLeaf.end(), v->definingOp)) continue;
          const int from = G.groupOfOp(v->definingOp);
          if (from < 0 || from == leaf.id) continue;
          const std::vector<int>& pf = pathOf(from);
          const std::vector<int>& pt = pathOf(leaf.id);
          size_t i = 0;
          while (i < pf.size() && i < pt.size() && pf[i] == pt[i]) ++i;
          const int common = i == 0 ? -1 : pf[i - 1];
          edgeAt(common, pf[i], pt[i]).push_back(v);
          for (size_t j = i + 1; j < pt.size(); ++j)
            edgeAt(pt[j - 1], LevelEdge::kFromOutside, pt[j]).push_back(v);
          for (size_t j = i + 1; j < pf.size(); ++j)
            edgeAt(pf[j - 1], pf[j], LevelEdge::kToOutside).push_back(v);
        }
      });
    if (stop()) return nullptr;
  }
  G.levelEdges.resize(edges.size());
  for (size_t l = 0; l < edges.size(); ++l)
    for (auto& [key, values] : edges[l]) {
      // Each value once, in the order first seen (most edges carry a few
      // values: looked for in the list itself, without a hash set each).
      std::vector<const ir::Value*> unique;
      if (values.size() <= 32) {
        for (const ir::Value* v : values)
          if (std::find(unique.begin(), unique.end(), v) == unique.end()) unique.push_back(v);
      } else {
        std::unordered_set<const ir::Value*> seen;
        for (const ir::Value* v : values)
          if (seen.insert(v).second) unique.push_back(v);
      }
      G.levelEdges[l].push_back({key.first, key.second, std::move(unique)});
    }
  edges.clear();
  clock.mark("edges of every level", 68);
  if (stop()) return nullptr;

  // Summaries: leaves from their ops, the groups above from their children.
  std::vector<Summary> sums(G.groups.size());
  auto noteValue = [](Summary& s, const ir::Value& v) {
    if (auto sh = api::valueSharding(v)) {
      ++s.sharded;
      for (const AxisRef& a : sh->dimAxes()) s.axes.insert(a.name);
    }
  };
  std::vector<int> postOrder;
  {
    std::vector<std::pair<int, bool>> stack;
    for (auto it = G.topLevel.rbegin(); it != G.topLevel.rend(); ++it) stack.push_back({*it, false});
    while (!stack.empty()) {
      auto [g, done] = stack.back();
      stack.pop_back();
      if (done) {
        postOrder.push_back(g);
        continue;
      }
      stack.push_back({g, true});
      const auto& ch = G.groups[static_cast<size_t>(g)].children;
      for (auto it = ch.rbegin(); it != ch.rend(); ++it) stack.push_back({*it, false});
    }
  }
  // What a box says of an op kind, found once per kind (op names are
  // interned) rather than once per group and kind: 10^5 groups.
  struct KindName {
    QString name;  // "dot_general"
    int rank = 100;
    bool shown = true;
  };
  std::unordered_map<const std::string*, KindName> kindNames;
  for (int id : postOrder) {
    OpGroup& g = G.groups[static_cast<size_t>(id)];
    Summary& s = sums[static_cast<size_t>(id)];
    if (g.isLeaf()) {
      for (const ir::Op* top : g.ops)
        forEachOp(*top, [&](ir::Op& op) {
          s.addKind(&op.name(), 1);
          for (unsigned r = 0; r < op.numResults(); ++r) noteValue(s, *op.result(r));
        });
    } else {
      for (int c : g.children) {
        Summary& cs = sums[static_cast<size_t>(c)];
        for (const auto& [k, n] : cs.kinds) s.addKind(k, n);
        s.axes.insert(cs.axes.begin(), cs.axes.end());
        s.sharded += cs.sharded;
      }
    }
    Summary own;
    // An argument's sharding counts once, in the innermost group folding it.
    for (const ir::Value* a : countedArgs[static_cast<size_t>(id)]) noteValue(own, *a);
    s.sharded += own.sharded;
    s.axes.insert(own.axes.begin(), own.axes.end());

    // What a reader looks for first (matmuls, collectives, calls), then by
    // count (the rank is found once per kind: 10^5 groups are summarised).
    static const QStringList first = {
        QStringLiteral("dot_general"),    QStringLiteral("dot"),
        QStringLiteral("convolution"),    QStringLiteral("all_reduce"),
        QStringLiteral("all_gather"),     QStringLiteral("all_to_all"),
        QStringLiteral("reduce_scatter"), QStringLiteral("call"),
        QStringLiteral("while"),          QStringLiteral("manual_computation"),
        QStringLiteral("custom_call")};
    struct Kind {
      int rank;
      int count;
      QString name;
    };
    std::vector<Kind> byCount;
    for (const auto& [k, n] : s.kinds) {
      auto [it, added] = kindNames.try_emplace(k);
      KindName& kind = it->second;
      if (added) {
        const auto dot = k->find('.');
        kind.name = toQString(dot == std::string::npos ? *k : k->substr(dot + 1));
        kind.shown = kind.name != QLatin1String("return") && kind.name != QLatin1String("constant");
        const int i = static_cast<int>(first.indexOf(kind.name));
        kind.rank = i < 0 ? 100 : i;
      }
      if (kind.shown) byCount.push_back({kind.rank, n, kind.name});
    }
    std::sort(byCount.begin(), byCount.end(), [](const Kind& a, const Kind& b) {
      if (a.rank != b.rank) return a.rank < b.rank;
      return a.count != b.count ? a.count > b.count : a.name < b.name;
    });
    QStringList topKinds;
    for (size_t i = 0; i < byCount.size() && i < 3; ++i)
      topKinds << byCount[i].name + u'×' + QString::number(byCount[i].count);
    if (!topKinds.isEmpty()) g.lines << topKinds.join(QStringLiteral("  "));
    QString shard = s.sharded ? plural(s.sharded, "sharded value", "sharded values")
                              : QObject::tr("no shardings");
    if (!g.args.empty())
      shard += QStringLiteral(" · ") + plural(static_cast<int>(g.args.size()), "arg", "args");
    if (!g.isLeaf())
      shard = plural(static_cast<int>(g.children.size()), "group", "groups") +
              QStringLiteral(" · ") + shard;
    g.lines << shard;
    // Axes in mesh order.
    for (const MeshAxis& a : G.legend.mesh.axes)
      if (s.axes.count(a.name)) g.axes << toQString(a.name);
    for (const std::string& a : s.axes)
      if (!g.axes.contains(toQString(a))) g.axes << toQString(a);
    g.searchText = g.label;
    // Children's kinds are merged into this one: free them as we go up.
    if (!g.isLeaf())
      for (int c : g.children) sums[static_cast<size_t>(c)] = Summary();
  }
  clock.mark("box summaries", 92);
  if (stop()) return nullptr;

  G.search = index.get();
  clock.mark("waiting for the search index", 99);
  G.stages.insert(G.stages.end(), indexStage.begin(), indexStage.end());
  if (stop()) return nullptr;
  clock.restart();
  G.level = levelModel(G, -1);
  clock.mark("top level's graph");
  return out;
}

GraphModel levelModel(const Grouping& G, int parent) {
  GraphModel L;
  L.legend = G.legend;
  L.title = parent < 0 ? G.title : G.groups[static_cast<size_t>(parent)].label;
  std::unordered_map<int, int> nodeOfGroup;
  for (int id : G.childrenOf(parent)) {
    const OpGroup& g = G.groups[static_cast<size_t>(id)];
    GraphNodeInfo n;
    n.kind = GraphNodeInfo::GroupNode;
    n.group = g.id;
    n.title = g.label + QStringLiteral(" · ") + plural(g.opCount, "op", "ops");
    n.lines = g.lines;
    n.axes = g.axes;
    n.searchText = g.searchText;
    // A group that opens a level of its own is drawn apart from one that
    // expands in place into its ops.
    n.border = g.isLeaf() ? QColor(0x5c, 0x6b, 0xc0) : QColor(0x00, 0x83, 0x8f);
    nodeOfGroup[id] = static_cast<int>(L.nodes.size());
    L.nodes.push_back(std::move(n));
  }
  const std::vector<LevelEdge> none;
  const std::vector<LevelEdge>& edges =
      static_cast<size_t>(parent + 1) < G.levelEdges.size()
          ? G.levelEdges[static_cast<size_t>(parent + 1)]
          : none;
  std::map<int, int> otherNode;  // free argument / outside stand-ins -> node
  auto outsideNode = [&](int end) {
    auto it = otherNode.find(end);
    if (it != otherNode.end()) return it->second;
    GraphNodeInfo n;
    n.kind = GraphNodeInfo::ArgumentNode;
    if (end <= LevelEdge::kFreeArgument) {
      const ir::Value* v = G.freeArgs[static_cast<size_t>(LevelEdge::kFreeArgument - end)];
      n.value = v;
      const QString name = toQString(api::valueName(*v));
      const QString type = toQString(api::shortType(v->type));
      n.html = QStringLiteral(
                   "<b>%1</b><br><span style=\"font-family:'DejaVu Sans "
                   "Mono',monospace;color:#333\">%2</span>")
                   .arg(name.toHtmlEscaped(), type.toHtmlEscaped());
      n.searchText = name + u' ' + type;
      n.border = QColor(0x2e, 0x7d, 0x32);
    } else {
      // The rest of the function, seen from inside this group.
      // Counted once each: a value from outside that several boxes read is
      // on an edge to each of them.
      const bool in = end == LevelEdge::kFromOutside;
      std::unordered_set<const ir::Value*> crossing;
      for (const LevelEdge& e : edges)
        if ((in ? e.from : e.to) == end) crossing.insert(e.values.begin(), e.values.end());
      const int values = static_cast<int>(crossing.size());
      const QString what = in ? QObject::tr("from outside") : QObject::tr("to outside");
      const QString count = plural(values, "value", "values");
      n.html = QStringLiteral("<b>%1</b><br>%2").arg(what, count);
      n.searchText = what + u' ' + count;
      n.border = QColor(0x75, 0x75, 0x75);
      n.dashed = true;
    }
    const int node = static_cast<int>(L.nodes.size());
    L.nodes.push_back(std::move(n));
    otherNode[end] = node;
    return node;
  };
  auto nodeOf = [&](int end) {
    if (end >= 0) {
      auto it = nodeOfGroup.find(end);
      return it == nodeOfGroup.end() ? -1 : it->second;
    }
    return outsideNode(end);
  };
  // Free arguments in their order (the stand-ins after them).
  for (const LevelEdge& e : edges)
    if (e.from <= LevelEdge::kFreeArgument) (void)outsideNode(e.from);
  for (const LevelEdge& e : edges) {
    const int from = nodeOf(e.from), to = nodeOf(e.to);
    if (from < 0 || to < 0 || e.values.empty()) continue;
    GraphEdgeInfo info;
    info.value = e.values.size() == 1 ? e.values.front() : nullptr;
    info.width = 1.2 + std::min(3.0, std::log2(double(e.values.size())));
    for (const ir::Value* v : e.values)
      if (auto s = api::valueSharding(*v)) {
        const QString axis = primaryAxis(*s);
        if (!axis.isEmpty()) {
          info.color = axisColor(&L.legend.mesh, axis);
          break;
        }
      }
    info.count = static_cast<int>(e.values.size());
    GraphInput::Edge ie;
    ie.from = from;
    ie.to = to;
    L.input.edges.push_back(ie);
    L.edges.push_back(info);
  }
  L.input = levelInput(L, {});
  return L;
}

GraphInput levelInput(const GraphModel& level, const std::map<int, QSizeF>& expanded) {
  GraphInput in;
  in.edges = level.input.edges;
  for (const GraphNodeInfo& n : level.nodes) {
    GraphInput::Node node;
    if (n.kind == GraphNodeInfo::GroupNode) {
      auto it = expanded.find(n.group);
      if (it != expanded.end()) {
        node.width = it->second.width() + 2 * kGroupMargin;
        node.height = it->second.height() + kGroupHeader + kGroupMargin;
      } else {
        double w = textWidth(n.title, 7.4);
        for (const QString& l : n.lines) w = std::max(w, textWidth(l));
        double axesW = 0;
        for (const QString& a : n.axes) axesW += textWidth(a) + 22;
        node.width = std::clamp(std::max(w, axesW) + 20, 150.0, 420.0);
        node.height = 24 + 16 * (n.lines.size() + (n.axes.isEmpty() ? 0 : 1));
      }
    } else {
      double w = std::max(textWidth(n.searchText), 40.0);
      node.width = std::min(w + 14, 300.0);
      node.height = 38;
    }
    in.nodes.push_back(node);
  }
  return in;
}

}  // namespace shardscope::widgets
