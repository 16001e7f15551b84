#include "graph/graph_grouping.h"

#include <QObject>
#include <algorithm>
#include <cmath>
#include <set>

#include "core/axis_style.h"

namespace shardscope::widgets {

int countOps(const ir::Op& func) {
  int n = 0;
  const_cast<ir::Op&>(func).walk([&](ir::Op&) { ++n; });
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

void summarise(OpGroup& g, const Mesh& mesh) {
  std::map<QString, int> kinds;
  std::set<QString> axes;
  int sharded = 0;
  auto noteValue = [&](const ir::Value& v) {
    if (auto s = api::valueSharding(v)) {
      ++sharded;
      for (const AxisRef& a : s->dimAxes()) axes.insert(toQString(a.name));
    }
  };
  QString search;
  for (const ir::Op* top : g.ops)
    const_cast<ir::Op*>(top)->walk([&](ir::Op& op) {
      ++kinds[shortOpName(op)];
      search += toQString(op.name()) + u' ';
      for (ir::Value* r : op.results()) {
        noteValue(*r);
        search += toQString(api::valueName(*r)) + u' ';
      }
    });
  for (const ir::Value* a : g.args) {
    noteValue(*a);
    search += toQString(api::valueName(*a)) + u' ';
  }
  std::vector<std::pair<int, QString>> byCount;
  for (const auto& [k, n] : kinds)
    if (k != QLatin1String("return") && k != QLatin1String("constant")) byCount.push_back({n, k});
  // What a reader looks for first (matmuls, collectives, calls), then by count.
  auto rank = [](const QString& k) {
    static const QStringList first = {
        QStringLiteral("dot_general"),    QStringLiteral("dot"),
        QStringLiteral("convolution"),    QStringLiteral("all_reduce"),
        QStringLiteral("all_gather"),     QStringLiteral("all_to_all"),
        QStringLiteral("reduce_scatter"), QStringLiteral("call"),
        QStringLiteral("while"),          QStringLiteral("manual_computation"),
        QStringLiteral("custom_call")};
    const int i = static_cast<int>(first.indexOf(k));
    return i < 0 ? 100 : i;
  };
  std::sort(byCount.begin(), byCount.end(), [&](const auto& a, const auto& b) {
    if (rank(a.second) != rank(b.second)) return rank(a.second) < rank(b.second);
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  QStringList top;
  for (size_t i = 0; i < byCount.size() && i < 3; ++i)
    top << QStringLiteral("%1×%2").arg(byCount[i].second).arg(byCount[i].first);
  if (!top.isEmpty()) g.lines << top.join(QStringLiteral("  "));
  QString shard =
      sharded ? plural(sharded, "sharded value", "sharded values") : QObject::tr("no shardings");
  if (!g.args.empty())
    shard += QStringLiteral(" · ") + plural(static_cast<int>(g.args.size()), "arg", "args");
  g.lines << shard;
  // Axes in mesh order.
  for (const MeshAxis& a : mesh.axes)
    if (axes.count(toQString(a.name))) g.axes << toQString(a.name);
  for (const QString& a : axes)
    if (!g.axes.contains(a)) g.axes << a;
  g.searchText = g.label + u' ' + search;
}

}  // namespace

std::shared_ptr<const Grouping> groupFunction(const ir::Module& module, const ir::Op& func,
                                              const GroupingOptions& opt,
                                              const std::function<bool()>& canceled) {
  auto out = std::make_shared<Grouping>();
  Grouping& G = *out;
  G.title = u'@' + toQString(api::symbolName(func));
  if (func.numRegions() == 0 || func.region(0).empty()) return out;
  const ir::Block& body = func.region(0).front();
  std::vector<const ir::Op*> top;
  std::vector<int> weight;
  for (const auto& op : body.ops()) {
    top.push_back(op.get());
    weight.push_back(countOps(*op) + 1);
    G.totalOps += weight.back();
  }
  auto stop = [&] { return canceled && canceled(); };

  // Segments between big region ops; each big region op is its own group.
  auto addGroup = [&](size_t from, size_t to, QString label) {
    OpGroup g;
    g.id = static_cast<int>(G.groups.size());
    g.label = std::move(label);
    g.firstOp = static_cast<int>(from);
    for (size_t i = from; i < to; ++i) {
      g.ops.push_back(top[i]);
      g.opCount += weight[i];
    }
    G.groups.push_back(std::move(g));
  };
  auto chunk = [&](size_t from, size_t to) {
    const size_t n = to - from;
    if (n == 0) return;
    // Period of the op-name sequence (names are interned: compare pointers).
    std::vector<int> seq;
    std::map<const std::string*, int> ids;
    for (size_t i = from; i < to; ++i)
      seq.push_back(ids.emplace(&top[i]->name(), static_cast<int>(ids.size())).first->second);
    const int p = n > static_cast<size_t>(opt.targetSize) ? findPeriod(seq, 4, opt.maxSize) : 0;
    if (p > 0) {
      if (!G.period) G.period = p;
      const int per = std::max(1, opt.targetSize / p);
      const size_t step = static_cast<size_t>(p) * static_cast<size_t>(per);
      int layer = 0;
      size_t i = from;
      for (; i + step <= to; i += step, layer += per)
        addGroup(i, i + step,
                 per == 1 ? QObject::tr("layer %1").arg(layer)
                          : QObject::tr("layers %1–%2").arg(layer).arg(layer + per - 1));
      if (i < to && i > from && (to - i) * 2 < static_cast<size_t>(p)) {
        // A short tail (e.g. the return): part of the last layer.
        OpGroup& last = G.groups.back();
        for (; i < to; ++i) {
          last.ops.push_back(top[i]);
          last.opCount += weight[i];
        }
      } else if (i < to) {
        addGroup(i, to, QObject::tr("ops %1–%2").arg(i + 1).arg(to));
      }
      return;
    }
    const size_t size = static_cast<size_t>(opt.targetSize);
    for (size_t i = from; i < to; i += size) {
      const size_t e = std::min(to, i + size);
      addGroup(i, e, QObject::tr("ops %1–%2").arg(i + 1).arg(e));
    }
  };
  size_t segStart = 0;
  for (size_t i = 0; i < top.size(); ++i) {
    if (top[i]->numRegions() > 0 && weight[i] >= opt.regionMin) {
      chunk(segStart, i);
      const ir::Op& op = *top[i];
      QString label = shortOpName(op);
      if (op.is("func.call") || op.hasAttr("callee"))
        if (const ir::Attribute* a = op.attr("callee")) label += u' ' + toQString(a->str());
      addGroup(i, i + 1, label);
      segStart = i + 1;
    }
  }
  chunk(segStart, top.size());
  if (stop()) return nullptr;

  for (const OpGroup& g : G.groups)
    for (const ir::Op* op : g.ops)
      const_cast<ir::Op*>(op)->walk([&](ir::Op& o) { G.groupOf.emplace(&o, g.id); });

  // Arguments: folded into the one group that uses them, else free nodes.
  std::vector<int> argNode(body.numArguments(), -1);
  for (unsigned a = 0; a < body.numArguments(); ++a) {
    const ir::Value* v = body.argument(a);
    std::set<int> users;
    for (const ir::Use& u : v->uses()) users.insert(G.groupOfOp(u.user));
    users.erase(-1);
    if (users.size() == 1)
      G.groups[static_cast<size_t>(*users.begin())].args.push_back(v);
    else
      G.freeArgs.push_back(v);
  }
  if (stop()) return nullptr;

  Mesh mesh = colorMesh(module, &G.level.legend.meshName);
  G.level.legend.mesh = mesh;
  G.level.title = G.title;
  for (OpGroup& g : G.groups) {
    summarise(g, mesh);
    if (stop()) return nullptr;
  }

  // The collapsed graph.
  GraphModel& L = G.level;
  for (const OpGroup& g : G.groups) {
    GraphNodeInfo n;
    n.kind = GraphNodeInfo::GroupNode;
    n.group = g.id;
    n.title = g.label + QStringLiteral(" · ") + plural(g.opCount, "op", "ops");
    n.lines = g.lines;
    n.axes = g.axes;
    n.searchText = g.searchText;
    n.border = QColor(0x5c, 0x6b, 0xc0);
    L.nodes.push_back(std::move(n));
  }
  std::map<const ir::Value*, int> freeArgNode;
  for (const ir::Value* v : G.freeArgs) {
    GraphNodeInfo n;
    n.kind = GraphNodeInfo::ArgumentNode;
    n.value = v;
    const QString name = toQString(api::valueName(*v));
    const QString type = toQString(api::shortType(v->type));
    n.html = QStringLiteral(
                 "<b>%1</b><br><span style=\"font-family:'DejaVu Sans "
                 "Mono',monospace;color:#333\">%2</span>")
                 .arg(name.toHtmlEscaped(), type.toHtmlEscaped());
    n.searchText = name + u' ' + type;
    n.border = QColor(0x2e, 0x7d, 0x32);
    freeArgNode[v] = static_cast<int>(L.nodes.size());
    L.nodes.push_back(std::move(n));
  }
  // Edges: (producer node, consumer group) -> values crossing.
  std::map<std::pair<int, int>, std::vector<const ir::Value*>> cross;
  for (const OpGroup& g : G.groups)
    for (const ir::Op* op : g.ops)
      const_cast<ir::Op*>(op)->walk([&](ir::Op& o) {
        for (ir::Value* v : o.operands()) {
          int from = -1;
          if (v->definingOp) {
            from = G.groupOfOp(v->definingOp);
          } else if (v->ownerBlock == &body) {
            auto it = freeArgNode.find(v);
            if (it != freeArgNode.end()) from = it->second;
          }
          if (from < 0 || from == g.id) continue;
          auto& vs = cross[{from, g.id}];
          if (std::find(vs.begin(), vs.end(), v) == vs.end()) vs.push_back(v);
        }
      });
  for (const auto& [key, values] : cross) {
    GraphEdgeInfo e;
    e.value = values.size() == 1 ? values.front() : nullptr;
    e.width = 1.2 + std::min(3.0, std::log2(double(values.size())));
    for (const ir::Value* v : values)
      if (auto s = api::valueSharding(*v)) {
        const QString axis = primaryAxis(*s);
        if (!axis.isEmpty()) {
          e.color = axisColor(&mesh, axis);
          break;
        }
      }
    e.count = static_cast<int>(values.size());
    GraphInput::Edge ie;
    ie.from = key.first;
    ie.to = key.second;
    L.input.edges.push_back(ie);
    L.edges.push_back(e);
  }
  L.input = levelInput(G, {});
  return out;
}

GraphInput levelInput(const Grouping& g, const std::map<int, QSizeF>& expanded) {
  GraphInput in;
  in.edges = g.level.input.edges;
  for (const GraphNodeInfo& n : g.level.nodes) {
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
