#include "comm_dock_setup.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QTabWidget>

#include "comm/communication_feed.h"
#include "comm/communication_model.h"
#include "comm/communication_panel.h"
#include "core/document_state.h"
#include "comm/graph_comm_layer.h"
#include "graph/graph_view.h"
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
#include "trace/trace_panel.h"
#include "trace/trace_state.h"
#include "trace/why_panel.h"
#endif

namespace shardscope {

namespace {

// Modules larger than this (about 60,000 ops) are laid out before their
// communication is analysed.
constexpr size_t kHoldFeedBytes = 8 * 1000 * 1000;

#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
// The Why panel shows the collective: its cause above, and below it where
// the axes of the dimension it changes came from (when the shown module is
// the run the explorer holds, whose ops it numbers the same way).
void showInWhyPanel(QMainWindow* window, widgets::DocumentState* state,
                    widgets::trace::TracePanel* explorer,
                    const api::CollectiveEntry& e) {
  widgets::trace::WhyPanel* why = explorer->whyPanel();
  why->showCollective(widgets::comm::CommunicationModel::detailHtml(e));
  widgets::trace::TraceState* trace = explorer->state();
  if (state->steppedRun() && trace->stepCount() == state->stepCount() && e.fromOp >= 0) {
    propagation::TraceValueRef ref;
    ref.kind = e.fromArgument ? "block_arg" : "result";
    ref.op = e.fromOp;
    ref.region = e.fromArgument ? e.fromRegion : 0;
    ref.index = e.fromIndex;
    trace->selectValue(ref, std::max(0, e.dim));
  }
  // Its tab in front and its dock shown and raised, also when it shares a
  // tab group with the Communication dock (as by default): the cause is what
  // the click asked for; the list is one tab away (and the dock's own line
  // under it says the cause too).
  QWidget* page = why;
  for (QWidget* w = why->parentWidget(); w; page = w, w = w->parentWidget())
    if (auto* tabs = qobject_cast<QTabWidget*>(w); tabs && tabs->indexOf(page) >= 0) {
      tabs->setCurrentWidget(page);
      break;
    }
  if (auto* dock = window->findChild<QDockWidget*>(QStringLiteral("traceExplorerDock"))) {
    dock->show();
    dock->raise();
  }
}
#endif

}  // namespace

QDockWidget* addCommunicationDock(QMainWindow* window, widgets::DocumentState* state,
                                  QDockWidget* tabifyWith, widgets::GraphView* graph,
                                  QWidget* explorer) {
  auto* dock = new QDockWidget(QMainWindow::tr("Communication"), window);
  dock->setObjectName(QStringLiteral("communicationDock"));
  auto* panel = new widgets::comm::CommunicationPanel(state, dock);
  dock->setWidget(panel);
  window->addDockWidget(Qt::BottomDockWidgetArea, dock);
  if (tabifyWith) window->tabifyDockWidget(tabifyWith, dock);
  if (!graph) return dock;

  auto* layer = new widgets::GraphCommLayer(state, graph);
  widgets::comm::CommunicationFeed* feed = panel->feed();
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
  // Another module shown (a file opened, a run's result): a cause shown for
  // the one before names ops and lines this one may not have (seen after
  // opening while_loop.mlir with a collective of mlp_megatron.mlir shown).
  if (explorer)
    QObject::connect(state, &widgets::DocumentState::documentChanged, explorer, [explorer] {
      static_cast<widgets::trace::TracePanel*>(explorer)->whyPanel()->showCollective(QString());
    });
#endif
  // A large module: its communication analysis waits until the graph has
  // laid out its function (the graph's own slot, connected first, has
  // started that by now; functionChanged follows documentChanged).
  QObject::connect(state, &widgets::DocumentState::functionChanged, feed, [state, graph, feed] {
    const auto& doc = state->document();
    if (doc && doc->text.size() > kHoldFeedBytes && graph->isLayoutRunning()) feed->hold();
  });
  QObject::connect(graph, &widgets::GraphView::layoutFinished, feed, [feed] { feed->release(); });
  QObject::connect(feed, &widgets::comm::CommunicationFeed::reportReady, layer,
                   [layer, feed] { layer->setReport(feed->report(), feed->reportDocument()); });
  // A glyph clicked in the graph: its row, as if clicked (without moving the
  // graph under the mouse).
  auto fromGraph = std::make_shared<bool>(false);
  QObject::connect(layer, &widgets::GraphCommLayer::entryClicked, panel,
                   [panel, fromGraph](int entry) {
                     *fromGraph = true;
                     panel->activateEntry(entry);
                     *fromGraph = false;
                   });
  QObject::connect(
      panel, &widgets::comm::CommunicationPanel::collectiveActivated, layer,
      [=](int entry) {
        layer->showEntry(entry, !*fromGraph);
        // No glyph for it in the picture (another function shown): the op.
        if (!*fromGraph && layer->glyphOfEntry(entry) < 0)
          if (const int node = graph->scene()->nodeOf(state->selectedOp()); node >= 0)
            graph->bringIntoView(graph->scene()->nodeRect(node));
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
        if (const api::CollectiveEntry* e = panel->model()->entry(entry); e && explorer)
          showInWhyPanel(window, state, static_cast<widgets::trace::TracePanel*>(explorer), *e);
#else
        (void)explorer;
        (void)window;
#endif
      });
  return dock;
}

}  // namespace shardscope
