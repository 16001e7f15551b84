// The grouping of a large document's shown function, made on the loader's
// thread so that the graph view starts laying out as soon as the document
// arrives. At a million ops grouping takes about half a second of one core;
// made on the graph's request it came after the loader had verified the
// module and prepared the other views, one after the other. The loader
// starts it once the module is parsed (api/staged_load.h), beside the
// verifier:
//
//   // loader's thread, once parsed (MainWindow::openFile):
//   auto g = PreparedGrouping::group(*doc, options, canceled);   // other core
//   ...                                                           // verified
//   PreparedGrouping::put(doc, options, g);
//   // UI thread, GraphView::relayout of that document:
//   if (auto g = PreparedGrouping::take(doc.get(), func, groupingOptions_)) grouping_ = g;
//
// Only a grouping made for the document, function and options being shown
// is handed out (see core/prepared_for_document.h); otherwise the view
// groups on its own as before.
//
// A loader uses these through GroupingBesideLoad, which also drops a
// grouping made stale by a GSPMD import after the parse:
//
//   GroupingBesideLoad beside(options, canceled);
//   api::AfterParse after;          // `read` may be set for other work
//   beside.addTo(after);            // starts group() on the work pool once parsed
//   auto doc = api::loadDocument(path, &progress, after);
//   ...                             // more work on the loader's thread
//   beside.finish(doc);             // waits, then put() unless stale
#pragma once
#include <QFuture>
#include <functional>
#include <memory>

#include "graph/graph_grouping.h"

namespace shardscope::api {
struct AfterParse;
struct Document;
}
namespace shardscope::ir {
class Op;
}

namespace shardscope::widgets {

struct PreparedGrouping {
  // Any thread. The grouping of the function `doc` shows first
  // (DocumentState::firstShownFunction) when the graph
  // draws it grouped under `options`; null for a small function or when
  // `canceled` says stop. Reads only the module.
  static std::shared_ptr<const Grouping> group(const api::Document& doc,
                                               const GroupingOptions& options,
                                               const std::function<bool()>& canceled = {});
  // Any thread. Keeps `grouping` (from group(), may be null) for take().
  static void put(const std::shared_ptr<const api::Document>& doc, const GroupingOptions& options,
                  std::shared_ptr<const Grouping> grouping);

  // UI thread. The grouping prepared for `doc`'s function `func` under
  // `options` (handed over, no longer kept), else nullptr.
  static std::shared_ptr<const Grouping> take(const api::Document* doc, const ir::Op* func,
                                              const GroupingOptions& options);
};

// The grouping of one load, made on the work pool beside the loader's
// thread (example above). The loader's thread only: one per load.
class GroupingBesideLoad {
 public:
  // `canceled` (any thread) stops the grouping early; it is asked until
  // finish() or the destructor has waited for the grouping.
  explicit GroupingBesideLoad(GroupingOptions options, std::function<bool()> canceled = {});
  // Waits for a grouping still running (it may ask `canceled`).
  ~GroupingBesideLoad();
  GroupingBesideLoad(const GroupingBesideLoad&) = delete;
  GroupingBesideLoad& operator=(const GroupingBesideLoad&) = delete;

  // Sets `after.parsed` (start grouping) and `after.beforeChange` (wait for
  // it: the module is about to change, the grouping will be stale).
  void addTo(api::AfterParse& after);
  // Waits for the grouping and keeps it for the graph view (put) when it
  // describes `doc`'s module as loaded. Nothing is kept when none was
  // started (parse failed, small function), when it was canceled or stale.
  void finish(const std::shared_ptr<const api::Document>& doc);

 private:
  GroupingOptions options_;
  std::function<bool()> canceled_;
  QFuture<std::shared_ptr<const Grouping>> grouped_;
  bool stale_ = false;  // the module changed after the parse (GSPMD import)
};

}  // namespace shardscope::widgets
