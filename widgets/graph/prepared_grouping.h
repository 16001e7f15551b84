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
#pragma once
#include <functional>
#include <memory>

#include "graph/graph_grouping.h"

namespace shardscope::api {
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

}  // namespace shardscope::widgets
