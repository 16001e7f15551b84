// The Communication view as a picture (headless `shardscope --export OUT
// --view comm [--propagate LEVEL] FILE`, tests): a title naming the file and
// its state ("as written", "after user-priority propagation"), the totals,
// and the table of collectives with each one's cause; PNG, SVG or PDF by the
// file suffix (picture_export.h).
#pragma once
#include <QString>
#include <string>

#include "api/communication.h"
#include "core/picture_export.h"

namespace shardscope::widgets::comm {

// At most `maxRows` collectives are drawn (the most expensive first when
// there are more; a last line says how many were left out).
Picture communicationPicture(const api::CommunicationReport& report, const QString& title,
                             int maxRows = 40);

// The picture's title, the same headless and in the GUI:
//   communicationTitle("mlp.mlir", "after step 3 (steps 0–11, pipeline)")
//   == "Communication — mlp.mlir (after step 3 (steps 0–11, pipeline))"
QString communicationTitle(const QString& fileName, const QString& state);

// Why there is no picture: the report of `fileName` failed with `reason`.
// The GUI's export and the headless one say it in these words:
//   reportFailedMessage("broken.mlir", "the module has errors")
//   == "no communication report for broken.mlir: the module has errors"
QString reportFailedMessage(const QString& fileName, const std::string& reason);

// Analyse `doc` and write its picture to `path`. `state` names the
// document's state in the title ("as written"). False with `error` set.
bool exportCommunicationView(const QString& path, const api::Document& doc, const QString& state,
                             const api::CommunicationOptions& options, QString* error);

}  // namespace shardscope::widgets::comm
