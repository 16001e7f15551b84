// Helpers for tests of the whole main window (they link shardscope_main_window).
#pragma once
#include <QDir>
#include <QSignalSpy>
#include <QTest>

#include "graph/graph_view.h"
#include "main_window.h"
#include "test_util.h"

namespace shardscope::test {

// `w` with the sample `sample` open, loaded without errors and its graph
// laid out.
inline bool openSample(app::MainWindow& w, const QString& sample) {
  QSignalSpy loaded(&w, &app::MainWindow::loaded);
  w.openFile(QDir(sampleDir()).filePath(sample));
  if (!loaded.wait(30000) || !loaded.last().at(0).toBool()) return false;
  return QTest::qWaitFor([&] { return w.graphView()->scene()->hasGraph(); }, 30000);
}

}  // namespace shardscope::test
