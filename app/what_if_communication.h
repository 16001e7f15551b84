// The what-if re-run's change in collectives: the communication reports of
// the previous run's result and of the re-run's (api::analyzeCommunication,
// off the UI thread, in the re-run's job) diffed, then shown under the
// what-if panel's value table (comm::CommunicationChangeView).
#pragma once
#include <optional>

#include "api/communication_diff.h"
#include "api/propagate.h"

namespace shardscope::widgets::comm {
class CommunicationChangeView;
}

namespace shardscope::app {

// nullopt when either run failed or has no report (a module with errors).
std::optional<api::CommunicationDiff> whatIfCommunicationChange(const api::PropagationRun* previous,
                                                                const api::PropagationRun& rerun);

// Shows `diff` ("before" -> "after"), or clears the view when there is none.
void showWhatIfCommunication(widgets::comm::CommunicationChangeView* view,
                             const std::optional<api::CommunicationDiff>& diff);

}  // namespace shardscope::app
