// The thread pool for the views' long work (reading a module, grouping and
// laying out the graph, the communication report, ...), kept apart from
// Qt's global pool.
//
//   watcher_.setFuture(QtConcurrent::run(workPool(), [doc] { return groupModule(*doc); }));
//   future.then(workPool(), [](Snapshot s) { return analyse(s); });
//
// Why not QThreadPool::globalInstance(): Qt 6.4's raster engine splits a
// large fill (a scroll bar's groove, a big rectangle) into pieces, runs them
// on the global pool and waits for them on the UI thread. With a grouping
// and a communication report of a million-op module holding both of the
// global pool's threads, a scroll bar's repaint waited 0.8-7 s for them
// (gui_open_bench --main-window: a wall stall with ~60 ms of UI-thread CPU).
// Here the global pool stays free for Qt, so those pieces start at once.
#pragma once

class QThreadPool;

namespace shardscope::widgets {

// One pool for the process, as many threads as cores; made on first use.
// The application's destructor waits for the work it still runs (queued
// work that has not started is dropped), before static data goes.
QThreadPool* workPool();

}  // namespace shardscope::widgets
