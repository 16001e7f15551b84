#include "trace_graph_link.h"

#include "graph/graph_axis_animation.h"
#include "graph/graph_view.h"
#include "trace_panel.h"
#include "trace_player.h"
#include "trace_state.h"

namespace shardscope::widgets::trace {

void linkGraphAnimation(TracePanel* panel, GraphView* graph) {
  if (!panel || !graph) return;
  QObject::connect(panel->state(), &TraceState::currentStepChanged, graph, [panel, graph](int step) {
    const auto& run = panel->state()->run();
    graph->showTraceStep(run ? &run->trace : nullptr, step,
                         axisAnimationDuration(panel->player()->speed()));
  });
}

}  // namespace shardscope::widgets::trace
