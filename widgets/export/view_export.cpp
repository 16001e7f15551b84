#include "export/view_export.h"

#include <QFileInfo>
#include <algorithm>

#include "core/axis_style.h"
#include "core/document_state.h"
#include "graph/graph_axis_animation.h"
#include "comm/graph_comm_layer.h"
#include "graph/graph_builder.h"
#include "graph/graph_layout.h"
#include "graph/graph_grouping.h"
#include "graph/graph_scene.h"
#include "mesh/mesh_view.h"
#include "source/source_view.h"
#include "core/theme_palette.h"

namespace shardscope::widgets {

bool parseExportView(const QString& name, ExportView* view) {
  const QString n = name.trimmed().toLower();
  if (n == QLatin1String("graph"))
    *view = ExportView::Graph;
  else if (n == QLatin1String("mesh"))
    *view = ExportView::Mesh;
  else if (n == QLatin1String("source"))
    *view = ExportView::Source;
  else
    return false;
  return true;
}

QString exportViewName(ExportView view) {
  switch (view) {
    case ExportView::Graph:
      return QStringLiteral("dataflow graph");
    case ExportView::Mesh:
      return QStringLiteral("mesh view");
    case ExportView::Source:
      return QStringLiteral("source");
  }
  return {};
}

std::pair<int, int> sourceRangeOf(const ir::Op& op) {
  const int first = static_cast<int>(op.loc().line);
  int last = first;
  const_cast<ir::Op&>(op).walk(
      [&](ir::Op& o) { last = std::max(last, static_cast<int>(o.loc().line)); });
  if (op.numRegions() > 0) ++last;  // the closing brace
  return {std::max(1, first - (op.numRegions() ? 0 : 2)), last + (op.numRegions() ? 0 : 2)};
}

Picture exportPicture(const api::Document& doc, const ExportRequest& req, QString* error) {
  auto fail = [&](const QString& msg) {
    if (error) *error = msg;
    return Picture();
  };
  const QString file = toQString(doc.name);
  const ir::Module* module = doc.module.get();
  const ir::Op* func = req.op ? enclosingFunction(req.op) : nullptr;
  if (!func && module) {
    const auto funcs = module->functions();
    for (const ir::Op* f : funcs)
      if (api::symbolName(*f) == "main") func = f;
    if (!func && !funcs.empty()) func = funcs.front();
  }
  const QString funcName = func ? u'@' + toQString(api::symbolName(*func)) : QString();
  // " — after step 3 (steps 0–11, user-priority)": the state, at the end of the title.
  const QString state = req.state.isEmpty() ? QString() : QStringLiteral(" — ") + req.state;
  QString errorsNote;
  if (doc.errorCount() > 0) errorsNote = QStringLiteral(" · %1 error(s)").arg(doc.errorCount());

  switch (req.view) {
    case ExportView::Graph: {
      if (!module)
        return fail(QStringLiteral("%1 could not be parsed (%2 error(s)); no graph to draw")
                        .arg(file)
                        .arg(doc.errorCount()));
      if (!func) return fail(QStringLiteral("%1 has no func.func to draw").arg(file));
      // Large functions are drawn collapsed into groups, as the graph view
      // shows them (graph_grouping.h); a full Graphviz layout of 10^4+ ops
      // takes minutes.
      GraphModel model;
      QString groupsNote;
      if (drawsGrouped(*func, req.grouping)) {
        // The level the GUI opens at (inside `jit(f)` › `transformer` when
        // one scope holds everything).
        auto grouping = groupFunction(*module, *func, req.grouping);
        const int level = grouping->openingLevel();
        model = levelModel(*grouping, level);
        model.grouping = grouping;
        groupsNote = QStringLiteral(" · %1 ops collapsed into %2 groups")
                         .arg(grouping->totalOps)
                         .arg(grouping->childrenOf(level).size());
        if (level >= 0)
          groupsNote += QStringLiteral(" inside ") +
                        grouping->groups[static_cast<size_t>(level)].label;
      } else {
        model = buildGraph(*module, *func);
      }
      const GraphLayout layout = layoutGraph(model.input);
      if (!layout.error.isEmpty()) return fail(layout.error);
      auto scene = std::make_shared<GraphScene>();
      // Exported pictures are light in either theme (documents, slides, print).
      scene->setPalette(themePalette(Theme::Light));
      // No highlight: a picture shows the graph, not what was selected.
      scene->setGraph(std::move(model), layout);
      std::vector<GraphAxisMove> moves;
      if (req.step) {
        moves = resolveAxisMoves(*module, *req.step);
        addAxisMoveMarkers(*scene, moves);
      }
      const bool commLayer = req.comm && req.comm->ok && !req.comm->collectives.empty();
      Picture inner = commLayer ? pictureWithCommLayer(scene, *module, req.comm) : scene->picture();
      Picture keep = inner;
      keep.paint = [scene, inner](QPainter& p) { inner.paint(p); };  // keeps the scene alive
      if (commLayer)
        groupsNote += QStringLiteral(
            " · collectives: kind and bytes per device; wider, redder = costlier");
      if (req.step) {
        // The step explained above the graph: its op and each axis that moved.
        const Picture caption =
            axisMovesCaption(*req.step, moves, scene->model().legend.mesh);
        return withTitle(
            stackPictures(caption, keep),
            file + QStringLiteral(" — ") + funcName +
                (req.state.isEmpty()
                     ? QStringLiteral(" — dataflow graph after step %1").arg(req.step->step)
                     : QStringLiteral(" — dataflow graph") + state),
            QStringLiteral("arrows + axis chips on the edges: the mesh axes the step moved "
                           "through its op; edge colours = shardings after the step") +
                groupsNote + errorsNote);
      }
      return withTitle(
          keep,
          file + QStringLiteral(" — ") + funcName + QStringLiteral(" — dataflow graph") + state,
          QStringLiteral(
              "ops as boxes, sharded values as chips; edge colours = sharding axes (see legend)") +
              groupsNote + errorsNote);
    }
    case ExportView::Mesh: {
      if (!module)
        return fail(QStringLiteral("%1 could not be parsed (%2 error(s)); no tensor to show")
                        .arg(file)
                        .arg(doc.errorCount()));
      const ir::Value* value = req.value;
      if (!value && req.op && req.op->numResults() > 0) value = req.op->result(0);
      if (!value) {
        DocumentState state;
        state.setDocument(
            std::shared_ptr<const api::Document>(std::shared_ptr<const api::Document>(), &doc));
        if (func) state.setFunction(func);
        value = state.defaultValue();
      }
      if (!value)
        return fail(QStringLiteral("%1 has no tensor value to show in the mesh view").arg(file));
      const MeshTensor t = describeValue(doc, *value);
      return withTitle(
          meshPicture(t),
          file + QStringLiteral(" — ") + t.valueName + QStringLiteral(" — mesh view") + state,
          QStringLiteral("what each device holds; same colour = same shard") + errorsNote);
    }
    case ExportView::Source: {
      int first = 0, last = 0;
      if (req.op) std::tie(first, last) = sourceRangeOf(*req.op);
      const QString sub =
          doc.diagnostics.empty()
              ? QStringLiteral("no diagnostics")
              : QStringLiteral("%1 diagnostic(s), underlined").arg(doc.diagnostics.size());
      return withTitle(
          sourcePicture(toQString(doc.text), doc.diagnostics, first, last),
          file + (req.op ? QStringLiteral(" — ") + toQString(req.op->name()) : QString()) + state,
          sub);
    }
  }
  return fail(QStringLiteral("unknown view"));
}

}  // namespace shardscope::widgets
