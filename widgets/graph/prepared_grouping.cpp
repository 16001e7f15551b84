// Grouping made on the loader's thread (see prepared_grouping.h).
#include "graph/prepared_grouping.h"

#include "api/document.h"
#include "core/prepared_for_document.h"

namespace shardscope::widgets {

namespace {

struct Prepared {
  std::weak_ptr<const api::Document> doc;
  const ir::Op* func = nullptr;
  GroupingOptions options;
  std::shared_ptr<const Grouping> grouping;
};

PreparedForDocument<Prepared>& slot() {
  static PreparedForDocument<Prepared> s;
  return s;
}

}  // namespace

const ir::Op* PreparedGrouping::shownFunction(const api::Document& doc) {
  if (!doc.module) return nullptr;
  const ir::Op* first = nullptr;
  for (const ir::Op* f : doc.module->functions()) {
    if (api::symbolName(*f) == "main") return f;
    if (!first) first = f;
  }
  return first;
}

std::shared_ptr<const Grouping> PreparedGrouping::group(const api::Document& doc,
                                                        const GroupingOptions& options,
                                                        const std::function<bool()>& canceled) {
  if (!doc.module) return nullptr;
  const ir::Op* func = shownFunction(doc);
  if (!func || !drawsGrouped(*func, options)) return nullptr;
  auto grouping = groupFunction(*doc.module, *func, options, canceled);
  if (canceled && canceled()) return nullptr;
  return grouping;
}

void PreparedGrouping::put(const std::shared_ptr<const api::Document>& doc,
                           const GroupingOptions& options,
                           std::shared_ptr<const Grouping> grouping) {
  if (!doc || !grouping) return;
  auto p = std::make_unique<Prepared>();
  p->doc = doc;
  p->func = shownFunction(*doc);
  p->options = options;
  p->grouping = std::move(grouping);
  slot().put(std::move(p));
}

std::shared_ptr<const Grouping> PreparedGrouping::take(const api::Document* doc,
                                                       const ir::Op* func,
                                                       const GroupingOptions& options) {
  std::unique_ptr<Prepared> p = slot().take(doc);
  if (!p || p->func != func || !(p->options == options)) return nullptr;
  return std::move(p->grouping);
}

}  // namespace shardscope::widgets
