// Headless export of one SparseCore view, for `shardscope --export OUT
// --view sc-load JOB.json` (works with QT_QPA_PLATFORM=offscreen; needs a
// QApplication). See README.md in this folder.
#pragma once
#include <QSize>
#include <QString>

namespace shardscope::scw {

// Loads `jobPath` (a job or a pipeline-only file), analyses it as the file
// says, draws `view` and writes `outPath` (.png, .svg or .pdf by suffix)
// with a title and a legend. `view` is sc-load | sc-spmem | sc-hbm |
// sc-pipeline | sc-ids; "sc-load:STACK" picks a stack by name (default: the
// stack closest to or furthest over its limits). `sc-stats[:TABLE]` and
// `sc-stats-heatmap[:TABLE]` and `sc-stats-tables` read FDO statistics (a .npz or .csv file, or a
// folder of them) instead of a job. `size` empty: 1000 x 560.
// Returns false with a message in `error` for a bad file (the engine's
// "<file>: <field>: <cause>"), an unknown view, a view the file cannot
// provide (no tables), or a write failure. A job that would fail at run
// time (limit exceeded, SPMEM overflow) still exports: the picture shows why.
bool exportSparseCoreView(const QString& jobPath, const QString& view, const QString& outPath,
                          QSize size, QString* error);

// True when `view` names a SparseCore view ("sc-..."), so a caller can route
// --view values: isSparseCoreView("sc-load:t0_t1") is true.
bool isSparseCoreView(const QString& view);

}  // namespace shardscope::scw

// The name the lead asked for, at global scope as well.
using shardscope::scw::exportSparseCoreView;
