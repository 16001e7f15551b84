// Links the trace explorer's player to the dataflow graph: every step the
// player shows is passed to GraphView::showTraceStep, so stepping forward or
// playing sends the step's axes through its op as travelling chips
// (widgets/graph_axis_animation.h). The chips take 80% of the player's step
// interval (speed setting), so playing never outruns them; stepping back or
// jumping shows no movement.
#pragma once

namespace shardscope::widgets {
class GraphView;
}

namespace shardscope::widgets::trace {

class TracePanel;

void linkGraphAnimation(TracePanel* panel, GraphView* graph);

}  // namespace shardscope::widgets::trace
