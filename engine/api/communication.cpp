#include "api/communication.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <unordered_map>

#include "comm/comm_report.h"
#include "comm/interconnect.h"
#include "ir/printer.h"
#include "ir/collective_ops.h"
#include "passes/explicit_reshards/reshard_cause.h"
#include "passes/pass.h"
#include "passes/reshard_to_collectives.h"

namespace shardscope::api {

namespace {

// An op that moves data between devices (a collective, or a reshard that
// will become collectives).
bool communicates(const ir::Op& op) { return op.is("sdy.reshard") || ir::isCollective(op); }

// Every op of `op`'s regions, in pre-order.
template <typename Fn>
void forEachOp(const ir::Op& op, const Fn& fn) {
  for (const auto& region : op.regions())
    for (const auto& block : region->blocks())
      for (const auto& child : block->ops()) {
        fn(*child);
        forEachOp(*child, fn);
      }
}

std::vector<const ir::Op*> opsInOrder(const ir::Module& module) {
  std::vector<const ir::Op*> ops;
  forEachOp(*module.op, [&](const ir::Op& op) { ops.push_back(&op); });
  return ops;
}

// The first dimension whose axes differ between `in` and `out`, or -1.
int firstChangedDim(const TensorSharding& in, const TensorSharding& out) {
  for (size_t d = 0; d < in.dims.size() && d < out.dims.size(); ++d)
    if (in.dims[d].axes != out.dims[d].axes) return static_cast<int>(d);
  return -1;
}

std::string shardingText(const TensorSharding& s) { return s.str(); }

}  // namespace

std::vector<std::string> communicationChips() {
  std::vector<std::string> names;
  for (const comm::ChipLink& chip : comm::builtinChips()) names.push_back(chip.name);
  return names;
}

CommunicationSnapshot snapshotForCommunication(const Document& doc) {
  CommunicationSnapshot snap;
  snap.name = doc.name;
  if (!doc.module || doc.hasErrors()) {
    snap.error = "the module has errors";
    return snap;
  }
  snap.text = ir::printModule(*doc.module);
  forEachOp(*doc.module->op, [&](const ir::Op& op) {
    snap.locs.push_back(op.loc());
    snap.opNames.push_back(op.name());
  });
  return snap;
}

CommunicationReport analyzeCommunication(const Document& doc, const CommunicationOptions& options) {
  return analyzeCommunication(snapshotForCommunication(doc), options);
}

CommunicationReport analyzeCommunication(const CommunicationSnapshot& snap,
                                         const CommunicationOptions& options) {
  CommunicationReport report;
  if (!snap.error.empty()) {
    report.error = snap.error;
    return report;
  }
  const std::string chipName = options.chip.empty() ? comm::kDefaultChip : options.chip;
  std::optional<comm::ChipLink> chip = comm::findChip(comm::builtinChips(), chipName);
  if (!chip) {
    report.error = "unknown chip '" + chipName + "'";
    return report;
  }
  report.chip = chip->name;
  report.chipDescription = chip->description;

  // A copy of the module (the printed text parsed again) whose ops stand
  // where the document's do, so entries point into the document. Printing
  // rather than parsing the document's text again keeps what the import
  // passes added and the shardings of the step shown.
  auto copy = parseDocument(snap.text, snap.name);
  std::vector<const ir::Op*> ops = copy->module ? opsInOrder(*copy->module) : std::vector<const ir::Op*>();
  bool same = copy->module && !copy->hasErrors() && ops.size() == snap.locs.size();
  for (size_t i = 0; same && i < ops.size(); ++i) same = ops[i]->name() == snap.opNames[i];
  if (!same) {
    report.error = "the module could not be copied for the analysis";
    return report;
  }
  // Pre-order numbers of the copy's ops before the analysis adds any.
  std::unordered_map<const ir::Op*, int> preOrder;
  for (size_t i = 0; i < ops.size(); ++i) {
    const_cast<ir::Op*>(ops[i])->setLoc(snap.locs[i]);
    preOrder.emplace(ops[i], static_cast<int>(i));
  }
  auto number = [&preOrder](const ir::Op* op) {
    auto it = op ? preOrder.find(op) : preOrder.end();
    return it == preOrder.end() ? -1 : it->second;
  };
  bool hasCommunication = false;
  forEachOp(*copy->module->op, [&](const ir::Op& op) { hasCommunication |= communicates(op); });

  passes::ReshardCauses causes;
  comm::CommOptions commOptions;
  commOptions.chip = *chip;
  if (!hasCommunication) {
    const passes::PassInfo* pass = passes::lookupPass("sdy-insert-explicit-reshards");
    if (!pass) {
      report.error = "this build has no -sdy-insert-explicit-reshards";
      return report;
    }
    passes::PassOptions passOptions;
    passOptions.values["enable-full-version"] = "true";
    ir::DiagnosticSink diags;
    passes::PassContext ctx{diags, {}};
    ctx.reshardCauses = &causes;
    if (!pass->run(*copy->module, passOptions, ctx) || diags.hasErrors()) {
      report.error = "explicit reshards failed";
      for (const ir::Diagnostic& d : diags.all())
        if (d.severity == ir::Severity::Error) {
          report.error += ": " + d.format(snap.name);
          break;
        }
      return report;
    }
    report.reshardsInserted = true;
    commOptions.reshardCauses = &causes;
    commOptions.nameAsBeforeReshards = true;  // the document has none of them
  }

  comm::CommReport raw = comm::analyzeCommunication(*copy->module, commOptions);
  for (const comm::CollectiveRecord& r : raw.collectives) {
    CollectiveEntry e;
    e.kind = passes::collectiveKindName(r.kind);
    e.op = r.op;
    e.planned = r.planned;
    e.inserted = report.reshardsInserted;
    e.value = r.value;
    e.function = r.function;
    e.line = r.line;
    e.column = r.column;
    for (size_t i = 0; i < r.axes.size(); ++i) e.axes += (i ? ", " : "") + r.axes[i].str();
    e.groupSize = r.groupSize;
    e.elementType = r.elementType;
    e.globalShape = r.globalShape;
    e.inShape = r.inShape;
    e.outShape = r.outShape;
    e.inSharding = shardingText(r.inSharding);
    e.outSharding = shardingText(r.outSharding);
    e.bytesPerDevice = r.bytesPerDevice;
    e.seconds = r.seconds;
    e.consumer = r.cause.consumer;
    e.consumerLine = r.cause.consumerLine;
    e.cause = r.cause.text;
    for (const comm::BlockedAxisNote& b : r.cause.blocked) e.blocked.push_back(b.text());
    if (const ir::Value* from = r.from) {
      if (from->definingOp) {
        e.fromOp = number(from->definingOp);
      } else if (const ir::Op* owner = from->ownerBlock ? from->ownerBlock->parentOp() : nullptr) {
        e.fromOp = number(owner);
        e.fromArgument = true;
        for (unsigned i = 0; i < owner->numRegions(); ++i)
          if (!owner->region(i).empty() && owner->region(i).blocks().front().get() == from->ownerBlock)
            e.fromRegion = static_cast<int>(i);
        if (e.fromRegion < 0) e.fromOp = -1;  // not the first block of a region
      }
      if (e.fromOp >= 0) e.fromIndex = static_cast<int>(from->index);
    }
    e.toOp = number(r.to);
    if (e.toOp >= 0) e.toOperand = static_cast<int>(r.toOperand);
    e.dim = firstChangedDim(r.inSharding, r.outSharding);
    report.collectives.push_back(std::move(e));
  }
  report.total = {raw.total.count, raw.total.bytesPerDevice, raw.total.seconds};
  report.ok = true;
  // The copy is freed here, on the calling thread (a worker in the GUI).
  return report;
}

const ir::Op* opAtLocation(const ir::Module& module, uint32_t line, uint32_t column) {
  const ir::Op* exact = nullptr;
  const ir::Op* onLine = nullptr;
  forEachOp(*module.op, [&](const ir::Op& op) {
    if (op.loc().line != line || communicates(op)) return;
    if (!onLine) onLine = &op;
    if (!exact && op.loc().col == column) exact = &op;
  });
  return exact ? exact : onLine;
}

std::vector<CollectiveSite> locateCollectives(const ir::Module& module,
                                              const CommunicationReport& report) {
  const std::vector<const ir::Op*> ops = opsInOrder(module);
  auto at = [&ops](int i) -> const ir::Op* {
    return i >= 0 && static_cast<size_t>(i) < ops.size() ? ops[static_cast<size_t>(i)] : nullptr;
  };
  // The written collectives and reshards by position.
  std::map<std::pair<uint32_t, uint32_t>, const ir::Op*> written;
  for (const ir::Op* op : ops)
    if (communicates(*op)) written.emplace(std::make_pair(op->loc().line, op->loc().col), op);
  std::vector<CollectiveSite> sites;
  sites.reserve(report.collectives.size());
  for (const CollectiveEntry& e : report.collectives) {
    CollectiveSite site;
    if (!e.inserted)
      if (auto it = written.find({e.line, e.column}); it != written.end())
        site.op = site.collective = it->second;
    if (const ir::Op* op = at(e.fromOp)) {
      if (!e.fromArgument && e.fromIndex >= 0 && static_cast<unsigned>(e.fromIndex) < op->numResults()) {
        site.from = op->result(static_cast<unsigned>(e.fromIndex));
      } else if (e.fromArgument && e.fromRegion >= 0 &&
                 static_cast<unsigned>(e.fromRegion) < op->numRegions() &&
                 !op->region(static_cast<unsigned>(e.fromRegion)).empty()) {
        const ir::Block& block = *op->region(static_cast<unsigned>(e.fromRegion)).blocks().front();
        if (e.fromIndex >= 0 && static_cast<unsigned>(e.fromIndex) < block.numArguments())
          site.from = block.argument(static_cast<unsigned>(e.fromIndex));
      }
    }
    if (const ir::Op* to = at(e.toOp); to && e.toOperand >= 0 &&
                                       static_cast<unsigned>(e.toOperand) < to->numOperands()) {
      site.to = to;
      site.toOperand = e.toOperand;
    }
    // The op it belongs to: the reader or the producer when one stands at
    // the entry's position (import passes may copy positions onto the ops
    // they add), else the first op there.
    const ir::Op* producer = site.from ? site.from->definingOp : nullptr;
    for (const ir::Op* candidate : {site.to, producer})
      if (!site.op && candidate && candidate->loc().line == e.line && candidate->loc().col == e.column)
        site.op = candidate;
    if (!site.op) site.op = opAtLocation(module, e.line, e.column);
    sites.push_back(site);
  }
  return sites;
}

std::string bytesText(double bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (std::fabs(bytes) >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  char out[32];
  if (unit == 0)
    std::snprintf(out, sizeof out, "%.0f B", bytes);
  else
    std::snprintf(out, sizeof out, std::fabs(bytes) < 100 ? "%.2f %s" : "%.1f %s", bytes,
                  kUnits[unit]);
  return out;
}

std::string secondsText(double seconds) {
  static const char* const kUnits[] = {"s", "ms", "us", "ns"};
  int unit = 0;
  while (seconds != 0 && std::fabs(seconds) < 1 && unit < 3) {
    seconds *= 1000;
    ++unit;
  }
  char out[32];
  std::snprintf(out, sizeof out, "%.3g %s", seconds, kUnits[unit]);
  return out;
}

}  // namespace shardscope::api
