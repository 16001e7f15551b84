// Grouping made on the loader's thread (see prepared_grouping.h).
#include "graph/prepared_grouping.h"

#include <QtConcurrent/QtConcurrentRun>

#include "api/document.h"
#include "api/staged_load.h"
#include "core/document_state.h"
#include "core/prepared_for_document.h"
#include "core/work_pool.h"

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

// The function a document shows first, when it has a module.
const ir::Op* shownFunction(const api::Document& doc) {
  return doc.module ? DocumentState::firstShownFunction(*doc.module) : nullptr;
}

}  // namespace

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

GroupingBesideLoad::GroupingBesideLoad(GroupingOptions options, std::function<bool()> canceled)
    : options_(std::move(options)), canceled_(std::move(canceled)) {}

GroupingBesideLoad::~GroupingBesideLoad() { grouped_.waitForFinished(); }

void GroupingBesideLoad::addTo(api::AfterParse& after) {
  after.parsed = [this](const std::shared_ptr<const api::Document>& parsed) {
    grouped_ = QtConcurrent::run(workPool(), [parsed, options = options_, canceled = canceled_] {
      return PreparedGrouping::group(*parsed, options, canceled);
    });
  };
  after.beforeChange = [this] {
    grouped_.waitForFinished();
    stale_ = true;
  };
}

void GroupingBesideLoad::finish(const std::shared_ptr<const api::Document>& doc) {
  grouped_.waitForFinished();
  if (stale_ || !grouped_.isValid() || grouped_.resultCount() == 0) return;
  if (canceled_ && canceled_()) return;
  PreparedGrouping::put(doc, options_, grouped_.result());
}

}  // namespace shardscope::widgets
