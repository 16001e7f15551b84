#include "graph/graph_builder.h"

#include <QFont>
#include <QTextDocument>
#include <QTextOption>
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "core/op_source_text.h"
#include "core/region_label.h"

namespace shardscope::widgets {

std::unique_ptr<QTextDocument> makeNodeDocument(const QString& html) {
  auto doc = std::make_unique<QTextDocument>();
  QFont f(QStringLiteral("DejaVu Sans"));
  f.setPixelSize(12);
  doc->setDefaultFont(f);
  doc->setDocumentMargin(5);
  QTextOption opt;
  opt.setWrapMode(QTextOption::NoWrap);
  opt.setAlignment(Qt::AlignHCenter);
  doc->setDefaultTextOption(opt);
  doc->setHtml(html);
  doc->adjustSize();
  return doc;
}

Mesh colorMesh(const ir::Module& module, QString* names) {
  Mesh out;
  QStringList meshNames;
  for (const auto& [name, mesh] : api::meshes(module)) {
    meshNames << toQString(name);
    for (const MeshAxis& a : mesh.axes)
      if (!out.hasAxis(a.name)) out.axes.push_back(a);
    if (api::meshes(module).size() == 1) out.deviceIds = mesh.deviceIds;
  }
  if (names) *names = meshNames.join(QStringLiteral(", "));
  return out;
}

const ir::Op* calledFunction(const ir::Module& module, const ir::Op& call) {
  if (!call.is("func.call")) return nullptr;
  const ir::Attribute* a = call.attr("callee");
  const auto* ref = a ? a->as<ir::SymbolRefAttr>() : nullptr;
  if (!ref || ref->path.empty()) return nullptr;
  const ir::Op* f = module.lookupSymbol(ref->root());
  return f && f->is("func.func") ? f : nullptr;
}

namespace {

QString esc(const std::string& s) { return toQString(s).toHtmlEscaped(); }

constexpr const char* kMono = "font-family:'DejaVu Sans Mono',monospace;";

QString chipHtml(const ir::Value& v, const std::optional<TensorSharding>& sharding,
                 const Mesh& colors) {
  if (!sharding)
    return QStringLiteral("<span style=\"%1color:#888\">%2 — %3</span>")
        .arg(QLatin1String(kMono), toQString(api::valueName(v)).toHtmlEscaped(),
             QObject::tr("no sharding yet"));
  const QString meshName =
      sharding->mesh.isInline() ? QStringLiteral("mesh") : toQString(sharding->mesh.name);
  return QStringLiteral("<span style=\"%1\"><span style=\"color:#666\">%2 @%3</span> %4</span>")
      .arg(QLatin1String(kMono), toQString(api::valueName(v)).toHtmlEscaped(),
           meshName.toHtmlEscaped(), shardingHtml(*sharding, &colors));
}

}  // namespace

void styleValue(const ir::Value& v, const Mesh& colors, GraphNodeInfo* chip, GraphEdgeInfo* edge) {
  const auto sharding = api::valueSharding(v);
  GraphEdgeInfo info;
  info.value = &v;
  if (sharding) {
    const QString axis = primaryAxis(*sharding);
    info.color = axis.isEmpty() ? QColor(0x44, 0x44, 0x44) : axisColor(&colors, axis);
    info.dashed = hasOpenDim(*sharding);
    for (const AxisRef& a : sharding->dimAxes()) {
      const QColor c = axisColor(&colors, toQString(a.name));
      if (std::find(info.axisColors.begin(), info.axisColors.end(), c) == info.axisColors.end())
        info.axisColors.push_back(c);
    }
    info.width = axis.isEmpty() ? 1.6 : 2.4;
  }
  if (edge) *edge = info;
  if (!chip) return;
  chip->kind = GraphNodeInfo::ValueNode;
  chip->value = &v;
  chip->border = sharding ? info.color : QColor(0xa0, 0xa0, 0xa0);
  chip->dashed = sharding ? info.dashed : true;
  chip->html = chipHtml(v, sharding, colors);
  chip->searchText = toQString(api::valueName(v));
  if (sharding) chip->searchText += u' ' + shardingText(*sharding);
}

QString returnNodeHtml(const ir::Op& ret, const Mesh& colors, const api::ShardingTimeline* final) {
  QString html = QStringLiteral("<b>return</b>");
  const ir::Op* func = ret.parentOfName("func.func");
  if (!func) return html;
  QStringList res;
  for (unsigned i = 0; i < ret.numOperands(); ++i) {
    std::optional<TensorSharding> s;
    if (const TensorSharding* f = final ? final->finalResultSharding(func, i) : nullptr) s = *f;
    else s = api::functionResultSharding(*func, i);
    if (s)
      res << QStringLiteral("<span style=\"%1\">#%2 %3</span>")
                 .arg(QLatin1String(kMono))
                 .arg(i)
                 .arg(shardingHtml(*s, &colors));
  }
  if (!res.isEmpty()) html += QStringLiteral("<br>") + res.join(QStringLiteral("<br>"));
  return html;
}

namespace {

class Builder {
 public:
  Builder(const ir::Module& module, GraphModel& g, const GraphBuildOptions& opt = {})
      : module_(module), g_(g), opt_(opt) {
    mesh_ = colorMesh(module, &g_.legend.meshName);
    g_.legend.mesh = mesh_;
    for (const ir::Op* call : opt_.expandedCalls)
      if (const ir::Op* f = calledFunction(module_, *call)) expandedCallees_.insert(f);
  }

  void build(const ir::Op& func) {
    g_.title = u'@' + toQString(api::symbolName(func));
    drawnFuncs_.insert(&func);  // a recursive call never draws it again
    if (func.numRegions() == 0 || func.region(0).empty()) return;
    const ir::Block& body = func.region(0).front();
    for (ir::Value* arg : body.arguments()) addArgument(*arg, -1);
    for (const auto& op : body.ops()) addOp(*op, -1);
    // Edges last: every producer and user has a node by now.
    for (const ir::Value* v : values_) addValueEdges(*v);
    // Region entries (op -> block arguments) and exits (terminator -> op),
    // dotted; exits do not constrain the ranking.
    GraphEdgeInfo region;
    region.color = QColor(0x9a, 0x9a, 0xb0);
    region.dotted = true;
    region.width = 1.2;
    for (const auto& [from, to, arrow] : regionEdges_) addEdge(from, to, region, arrow);
    // Exits (terminator -> op) are not drawn: as back edges they cross the
    // whole picture and say little the cluster does not already say.
  }

  // Some top-level ops; values from elsewhere become dashed input nodes.
  void buildOps(const std::vector<const ir::Op*>& ops, const QString& title) {
    g_.title = title;
    for (const ir::Op* op : ops) addOp(*op, -1);
    for (const ir::Op* op : ops)
      const_cast<ir::Op*>(op)->walk([&](ir::Op& o) {
        for (ir::Value* v : o.operands())
          if (!valueNode_.count(v)) {
            addArgument(*v, -1);
            GraphNodeInfo& n = g_.nodes.back();
            n.dashed = true;
            n.border = QColor(0x80, 0x80, 0x80);
          }
      });
    for (const ir::Value* v : values_) addValueEdges(*v);
    GraphEdgeInfo region;
    region.color = QColor(0x9a, 0x9a, 0xb0);
    region.dotted = true;
    for (const auto& [from, to, arrow] : regionEdges_) addEdge(from, to, region, arrow);
  }

 private:
  // `reserveHtml`: text the node must also have room for (what it shows
  // after a run being stepped through).
  int addNode(GraphNodeInfo info, int cluster, const QString& reserveHtml = {}) {
    auto doc = makeNodeDocument(info.html);
    QSizeF size = doc->size();
    if (!reserveHtml.isEmpty()) size = size.expandedTo(makeNodeDocument(reserveHtml)->size());
    GraphInput::Node n;
    n.width = std::max(24.0, size.width());
    n.height = std::max(18.0, size.height());
    n.cluster = cluster;
    g_.input.nodes.push_back(n);
    g_.nodes.push_back(std::move(info));
    return static_cast<int>(g_.nodes.size()) - 1;
  }

  void addArgument(const ir::Value& arg, int cluster) {
    GraphNodeInfo info;
    info.kind = GraphNodeInfo::ArgumentNode;
    info.value = &arg;
    const std::string name = api::valueName(arg);
    info.html = QStringLiteral("<b>%1</b><br><span style=\"%2color:#333\">%3</span>")
                    .arg(esc(name), QLatin1String(kMono), esc(api::shortType(arg.type)));
    info.searchText = toQString(name) + u' ' + toQString(api::shortType(arg.type));
    info.border = QColor(0x2e, 0x7d, 0x32);
    valueNode_[&arg] = addNode(std::move(info), cluster);
    values_.push_back(&arg);
  }

  void addOp(const ir::Op& op, int cluster) {
    GraphNodeInfo info;
    info.op = &op;
    const std::string& full = op.name();
    const auto dot = full.find('.');
    const std::string dialect = dot == std::string::npos ? std::string() : full.substr(0, dot);
    const std::string shortName = dot == std::string::npos ? full : full.substr(dot + 1);
    const bool isReturn = op.is("func.return");
    const bool isTerminator =
        !isReturn && (shortName == "return" || op.is("sdy.return") || op.is("stablehlo.return"));
    info.kind = isReturn       ? GraphNodeInfo::ReturnNode
                : isTerminator ? GraphNodeInfo::TerminatorNode
                               : GraphNodeInfo::OpNode;
    QString html = QStringLiteral("<b>%1</b>").arg(esc(shortName));
    if (!dialect.empty() && !isReturn && !isTerminator)
      html +=
          QStringLiteral(" <span style=\"color:#888;font-size:10px\">%1</span>").arg(esc(dialect));
    info.searchText = toQString(full);
    QStringList shapes;
    for (ir::Value* r : op.results()) {
      shapes << toQString(api::valueName(*r)).toHtmlEscaped() + QStringLiteral(": ") +
                    esc(api::shortType(r->type));
      info.searchText +=
          u' ' + toQString(api::valueName(*r)) + u' ' + toQString(api::shortType(r->type));
    }
    // Where the op came from (JAX's name scope and Python line): in the
    // tooltip, and Ctrl+F finds ops by scope ("attention").
    if (const api::OpSource source = api::opSource(op); !source.empty()) {
      if (const QString frame = frameSummary(source); !frame.isEmpty()) info.searchText += u'\n' + frame;
      if (!source.nameScope.empty()) info.searchText += u'\n' + QString::fromStdString(source.nameScope);
    }
    if (!shapes.isEmpty())
      html += QStringLiteral("<br><span style=\"%1color:#333\">%2</span>")
                  .arg(QLatin1String(kMono), shapes.join(QStringLiteral("<br>")));
    QString reserveHtml;
    if (isReturn) {
      // Function result shardings.
      html = returnNodeHtml(op, mesh_);
      if (opt_.timeline) reserveHtml = returnNodeHtml(op, mesh_, opt_.timeline);
      if (const ir::Op* func = op.parentOfName("func.func"))
        for (unsigned i = 0; i < op.numOperands(); ++i)
          if (auto s = api::functionResultSharding(*func, i))
            info.searchText += u' ' + shardingText(*s);
    }
    if (op.is("sdy.manual_computation")) {
      if (const ir::Attribute* a = op.attr("manual_axes")) {
        QStringList axes;
        if (const auto* m = a->as<ir::ManualAxesAttr>())
          for (const std::string& ax : m->axes)
            axes << QStringLiteral("<span style=\"color:%1\">\"%2\"</span>")
                        .arg(axisColor(&mesh_, toQString(ax)).name(), esc(ax));
        html +=
            QStringLiteral("<br><span style=\"color:#555;font-size:11px\">manual_axes={%1}</span>")
                .arg(axes.join(QStringLiteral(", ")));
      }
    }
    if (op.is("sdy.sharding_group")) {
      if (const ir::Attribute* a = op.attr("group_id"))
        html += QStringLiteral(" <span style=\"color:#555\">group %1</span>")
                    .arg(a->integer() ? QString::number(*a->integer())
                                      : toQString(a->str()).toHtmlEscaped());
    }
    if (op.is("sdy.propagation_barrier")) {
      if (const ir::Attribute* a = op.attr("allowed_direction")) {
        QString dir = toQString(a->str());
        if (const auto* e = a->as<ir::EnumAttr>()) dir = toQString(e->value);
        html += QStringLiteral(
                    "<br><span style=\"color:#555;font-size:11px\">allowed_direction=%1</span>")
                    .arg(dir.toHtmlEscaped());
      }
    }
    const bool collapsed = op.numRegions() > 0 && opt_.collapsedRegions.count(&op);
    // A call: the callee's body as a cluster when expanded (and not drawn yet).
    const ir::Op* callee = calledFunction(module_, op);
    const bool calleeHasBody = callee && callee->numRegions() > 0 && !callee->region(0).empty();
    const bool drawCallee = calleeHasBody && opt_.expandedCalls.count(&op) && !drawnFuncs_.count(callee);
    if (calleeHasBody && !drawCallee) {
      int inside = 0;
      const_cast<ir::Op*>(callee)->walk([&](ir::Op&) { ++inside; });
      const QString name = u'@' + toQString(api::symbolName(*callee)).toHtmlEscaped();
      info.collapsedOps = inside - 1;
      html += QStringLiteral("<br><span style=\"color:#3949ab;font-size:11px\">%1</span>")
                  .arg(op.parentOfName("func.func") == callee
                           ? QObject::tr("%1: recursive call").arg(name)
                       : drawnFuncs_.count(callee) || expandedCallees_.count(callee)
                           ? QObject::tr("%1: body drawn at another call").arg(name)
                           : QObject::tr("▸ %1: %2 ops (double-click)").arg(name).arg(inside - 1));
      info.dashed = true;
    }
    if (collapsed) {
      int inside = 0;
      const_cast<ir::Op&>(op).walk([&](ir::Op&) { ++inside; });
      info.collapsedOps = inside - 1;
      html += QStringLiteral("<br><span style=\"color:#3949ab;font-size:11px\">%1</span>")
                  .arg(QObject::tr("▸ %1 ops inside (double-click)").arg(inside - 1));
      info.dashed = true;
    }
    info.html = html;
    if (op.dialect() == "sdy") info.border = QColor(0xb2, 0x6a, 0x00);
    const int node = addNode(std::move(info), cluster, reserveHtml);
    opNode_[&op] = node;
    for (ir::Value* r : op.results()) {
      valueNode_[r] = node;
      values_.push_back(r);
    }
    for (unsigned ri = 0; ri < op.numRegions() && !collapsed; ++ri) {
      GraphInput::Cluster c;
      c.parent = cluster;
      const std::string& n = op.name();
      c.label = toQString(n.substr(n.find('.') + 1)) + QStringLiteral(" · ") + regionLabel(op, ri);
      g_.input.clusters.push_back(c);
      g_.clusterOps.push_back(&op);
      const int ci = static_cast<int>(g_.input.clusters.size()) - 1;
      for (const auto& block : op.region(ri).blocks()) {
        for (ir::Value* arg : block->arguments()) {
          addArgument(*arg, ci);
          regionEdges_.push_back({node, valueNode_[arg], true});
        }
        for (const auto& child : block->ops()) addOp(*child, ci);
      }
    }
    if (drawCallee) {
      drawnFuncs_.insert(callee);
      GraphInput::Cluster c;
      c.parent = cluster;
      c.label = QStringLiteral("call · @") + toQString(api::symbolName(*callee));
      g_.input.clusters.push_back(c);
      g_.clusterOps.push_back(&op);
      const int ci = static_cast<int>(g_.input.clusters.size()) - 1;
      const ir::Block& body = callee->region(0).front();
      for (ir::Value* arg : body.arguments()) {
        addArgument(*arg, ci);
        regionEdges_.push_back({node, valueNode_[arg], true});
      }
      for (const auto& child : body.ops()) addOp(*child, ci);
    }
  }

  int clusterOf(int node) const { return g_.input.nodes[static_cast<size_t>(node)].cluster; }

  void addEdge(int from, int to, GraphEdgeInfo info, bool arrow, double weight = 1,
               bool constraint = true) {
    GraphInput::Edge e;
    e.constraint = constraint;
    e.from = from;
    e.to = to;
    e.arrow = arrow;
    e.weight = weight;
    g_.input.edges.push_back(e);
    g_.edges.push_back(info);
  }

  void addValueEdges(const ir::Value& v) {
    auto src = valueNode_.find(&v);
    if (src == valueNode_.end()) return;
    std::vector<int> users;
    std::set<int> seen;
    for (const ir::Use& u : v.uses()) {
      auto it = opNode_.find(u.user);
      if (it != opNode_.end() && seen.insert(it->second).second) users.push_back(it->second);
    }
    // A value a later step of the run shards has its chip from the start.
    const TensorSharding* final = opt_.timeline ? opt_.timeline->finalSharding(&v) : nullptr;
    GraphNodeInfo chip;
    GraphEdgeInfo info;
    styleValue(v, mesh_, &chip, &info);
    if (!api::valueSharding(v) && !final) {
      for (int u : users) addEdge(src->second, u, info, true);
      return;
    }
    const QString reserveHtml = final ? chipHtml(v, *final, mesh_) : QString();
    // Keep the chip next to its producer (same cluster).
    const int chipNode = addNode(std::move(chip), clusterOf(src->second), reserveHtml);
    addEdge(src->second, chipNode, info, false, 4);
    for (int u : users) addEdge(chipNode, u, info, true);
  }

  const ir::Module& module_;
  GraphModel& g_;
  GraphBuildOptions opt_;
  Mesh mesh_;
  std::map<const ir::Op*, int> opNode_;
  std::map<const ir::Value*, int> valueNode_;
  std::vector<const ir::Value*> values_;
  std::vector<std::tuple<int, int, bool>> regionEdges_;
  std::set<const ir::Op*> drawnFuncs_;  // functions whose body is in the graph
  std::set<const ir::Op*> expandedCallees_;  // called by an expanded call
};

}  // namespace

GraphModel buildGraph(const ir::Module& module, const ir::Op& func,
                      const GraphBuildOptions& options) {
  GraphModel g;
  Builder(module, g, options).build(func);
  return g;
}

GraphModel buildGroupGraph(const ir::Module& module, const std::vector<const ir::Op*>& ops,
                           const QString& title, const GraphBuildOptions& options) {
  GraphModel g;
  Builder(module, g, options).buildOps(ops, title);
  return g;
}

}  // namespace shardscope::widgets
