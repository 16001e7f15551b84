#include "api/communication.h"

#include <cmath>
#include <cstdio>

#include "comm/comm_report.h"
#include "comm/interconnect.h"
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

// Copies every op's attributes (its shardings) of `from` onto `to`, a fresh
// parse of the same text. Returns false when the two differ in shape.
bool copyAttributes(const ir::Module& from, ir::Module& to) {
  std::vector<const ir::Op*> a = opsInOrder(from), b = opsInOrder(to);
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i]->name() != b[i]->name() || a[i]->numResults() != b[i]->numResults()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    auto* target = const_cast<ir::Op*>(b[i]);  // owned by `to`, which is mutable
    std::vector<std::string> stale;
    for (const ir::Op::Attr& attr : target->attrs())
      if (!a[i]->hasAttr(attr.name)) stale.push_back(attr.name);
    for (const std::string& name : stale) target->removeAttr(name);
    for (const ir::Op::Attr& attr : a[i]->attrs())
      target->setAttr(attr.name, attr.value, attr.inherent);
  }
  return true;
}

std::string shardingText(const TensorSharding& s) { return s.str(); }

}  // namespace

std::vector<std::string> communicationChips() {
  std::vector<std::string> names;
  for (const comm::ChipLink& chip : comm::builtinChips()) names.push_back(chip.name);
  return names;
}

CommunicationReport analyzeCommunication(const Document& doc, const CommunicationOptions& options) {
  CommunicationReport report;
  if (!doc.module || doc.hasErrors()) {
    report.error = "the module has errors";
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

  // A fresh module with the document's shardings, whose locations are the
  // document's (the text is the same), so entries point into the document.
  auto copy = parseDocument(doc.text, doc.name);
  if (!copy->module || copy->hasErrors() || !copyAttributes(*doc.module, *copy->module)) {
    report.error = "the module no longer matches its text";
    return report;
  }
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
          report.error += ": " + d.format(doc.name);
          break;
        }
      return report;
    }
    report.reshardsInserted = true;
    commOptions.reshardCauses = &causes;
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
