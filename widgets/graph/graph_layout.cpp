#include "graph/graph_layout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <mutex>
#include <string>

namespace shardscope::widgets {

namespace {

std::mutex& graphvizMutex() {
  static std::mutex m;
  return m;
}

// One context for the process, created under the mutex.
GVC_t* context() {
  static GVC_t* gvc = nullptr;
  if (!gvc) {
    agseterr(AGERR);
    gvc = gvContext();
  }
  return gvc;
}

void set(void* obj, const char* name, const std::string& value) {
  agsafeset(obj, const_cast<char*>(name), const_cast<char*>(value.c_str()), const_cast<char*>(""));
}

std::string num(double v) { return std::to_string(v); }

}  // namespace

GraphLayout layoutGraph(const GraphInput& input, const std::function<void(int)>& progress,
                        const std::function<bool()>& canceled) {
  GraphLayout out;
  auto report = [&](int p) {
    if (progress) progress(p);
  };
  auto stop = [&] { return canceled && canceled(); };
  report(0);
  if (input.nodes.empty()) {
    out.bounds = QRectF(0, 0, 1, 1);
    report(100);
    return out;
  }
  std::lock_guard<std::mutex> lock(graphvizMutex());
  if (stop()) {
    out.canceled = true;
    return out;
  }
  GVC_t* gvc = context();
  if (!gvc) {
    out.error = QStringLiteral("Graphviz context could not be created");
    return out;
  }
  Agraph_t* g = agopen(const_cast<char*>("g"), Agdirected, nullptr);
  set(g, "rankdir", input.leftToRight ? "LR" : "TB");
  set(g, "nodesep", "0.22");
  set(g, "ranksep", "0.30");
  set(g, "fontname", "Helvetica");
  set(g, "fontsize", "12");
  set(g, "labeljust", "l");
  set(g, "newrank", "true");

  std::vector<Agraph_t*> clusters(input.clusters.size(), nullptr);
  for (size_t i = 0; i < input.clusters.size(); ++i) {
    const auto& c = input.clusters[i];
    Agraph_t* parent = c.parent >= 0 && c.parent < static_cast<int>(i)
                           ? clusters[static_cast<size_t>(c.parent)]
                           : g;
    std::string name = std::string("cluster_").append(std::to_string(i));
    Agraph_t* sub = agsubg(parent, const_cast<char*>(name.c_str()), 1);
    set(sub, "label", c.label.toStdString());
    set(sub, "fontname", "Helvetica");
    set(sub, "fontsize", "11");
    set(sub, "labeljust", "l");
    set(sub, "margin", "10");
    clusters[i] = sub;
  }
  report(10);

  std::vector<Agnode_t*> nodes(input.nodes.size(), nullptr);
  for (size_t i = 0; i < input.nodes.size(); ++i) {
    const auto& n = input.nodes[i];
    std::string name = std::string("n").append(std::to_string(i));
    Agnode_t* node = agnode(g, const_cast<char*>(name.c_str()), 1);
    set(node, "shape", "box");
    set(node, "fixedsize", "true");
    set(node, "label", "");
    set(node, "width", num(n.width / 72.0));
    set(node, "height", num(n.height / 72.0));
    if (n.cluster >= 0 && static_cast<size_t>(n.cluster) < clusters.size())
      agsubnode(clusters[static_cast<size_t>(n.cluster)], node, 1);
    nodes[i] = node;
  }
  std::vector<Agedge_t*> edges(input.edges.size(), nullptr);
  for (size_t i = 0; i < input.edges.size(); ++i) {
    const auto& e = input.edges[i];
    if (e.from < 0 || e.to < 0 || static_cast<size_t>(e.from) >= nodes.size() ||
        static_cast<size_t>(e.to) >= nodes.size())
      continue;
    std::string name = std::string("e").append(std::to_string(i));
    Agedge_t* edge = agedge(g, nodes[static_cast<size_t>(e.from)], nodes[static_cast<size_t>(e.to)],
                            const_cast<char*>(name.c_str()), 1);
    set(edge, "arrowhead", e.arrow ? "normal" : "none");
    set(edge, "arrowsize", "0.7");
    if (e.weight != 1) set(edge, "weight", std::to_string(static_cast<int>(e.weight)));
    if (!e.constraint) set(edge, "constraint", "false");
    edges[i] = edge;
  }
  report(30);
  if (stop()) {
    agclose(g);
    out.canceled = true;
    return out;
  }

  if (gvLayout(gvc, g, "dot") != 0) {
    agclose(g);
    out.error = QStringLiteral("Graphviz layout failed");
    return out;
  }
  report(85);

  const boxf bb = GD_bb(g);
  const double top = bb.UR.y;
  auto flip = [&](pointf p) { return QPointF(p.x - bb.LL.x, top - p.y); };
  auto flipBox = [&](boxf b) { return QRectF(flip({b.LL.x, b.UR.y}), flip({b.UR.x, b.LL.y})); };
  out.bounds = QRectF(0, 0, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);

  out.nodes.resize(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const QPointF c = flip(ND_coord(nodes[i]));
    const double w = ND_width(nodes[i]) * 72.0, h = ND_height(nodes[i]) * 72.0;
    out.nodes[i].rect = QRectF(c.x() - w / 2, c.y() - h / 2, w, h);
  }
  out.edges.resize(edges.size());
  for (size_t i = 0; i < edges.size(); ++i) {
    if (!edges[i]) continue;
    const splines* spl = ED_spl(edges[i]);
    if (!spl || spl->size < 1) continue;
    const bezier& bz = spl->list[0];
    auto& oe = out.edges[i];
    for (int k = 0; k < bz.size; ++k) oe.bezier.push_back(flip(bz.list[k]));
    if (bz.eflag) {
      oe.hasArrow = true;
      oe.arrowTip = flip(bz.ep);
    }
    if (bz.sflag && !oe.bezier.empty()) oe.bezier.front() = flip(bz.sp);
  }
  out.clusters.resize(clusters.size());
  for (size_t i = 0; i < clusters.size(); ++i) {
    out.clusters[i].rect = flipBox(GD_bb(clusters[i]));
    if (textlabel_t* lab = GD_label(clusters[i])) {
      const QPointF p = flip(lab->pos);
      out.clusters[i].labelRect =
          QRectF(p.x() - lab->dimen.x / 2, p.y() - lab->dimen.y / 2, lab->dimen.x, lab->dimen.y);
    }
  }
  gvFreeLayout(gvc, g);
  agclose(g);
  report(100);
  return out;
}

}  // namespace shardscope::widgets
