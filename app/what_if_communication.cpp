#include "what_if_communication.h"

#include <QCoreApplication>

#include "comm/communication_change_view.h"

namespace shardscope::app {

std::optional<api::CommunicationDiff> whatIfCommunicationChange(const api::PropagationRun* previous,
                                                                const api::PropagationRun& rerun) {
  if (!previous || !previous->ok || !previous->result || !rerun.ok || !rerun.result)
    return std::nullopt;
  const api::CommunicationReport before = api::analyzeCommunication(*previous->result);
  const api::CommunicationReport after = api::analyzeCommunication(*rerun.result);
  if (!before.ok || !after.ok) return std::nullopt;
  return api::diffCommunication(before, after);
}

void showWhatIfCommunication(widgets::comm::CommunicationChangeView* view,
                             const std::optional<api::CommunicationDiff>& diff) {
  if (!view) return;
  if (!diff) {
    view->clear();
    return;
  }
  // The same baseline as the panel's value table: the result of the run
  // before the edit (the Communication dock compares with the state shown
  // before, and names it).
  view->setDiff(*diff, QCoreApplication::translate("WhatIf", "result before this edit"),
                QCoreApplication::translate("WhatIf", "this run"));
}

}  // namespace shardscope::app
