#include "api/communication_diff.h"

#include <algorithm>
#include <cmath>

namespace shardscope::api {

namespace {

std::string phrase(int64_t n, const std::string& kind) {
  return std::to_string(n) + " " + kind + (n == 1 ? "" : "s");
}

std::string signedText(double v, const std::string& magnitude) {
  return (v < 0 ? "-" : v > 0 ? "+" : "") + magnitude;
}

std::string summaryOf(const CommunicationDiff& d) {
  std::string removed, added;
  for (const CollectiveKindChange& k : d.kinds) {
    if (k.countDelta() < 0)
      removed += (removed.empty() ? "" : ", ") + phrase(-k.countDelta(), k.kind);
    if (k.countDelta() > 0) added += (added.empty() ? "" : ", ") + phrase(k.countDelta(), k.kind);
  }
  const double bytes = d.bytesDelta();
  const double seconds = d.secondsDelta();
  if (removed.empty() && added.empty() && bytes == 0 && seconds == 0)
    return "no change in collectives";
  std::string text;
  if (!removed.empty()) text += "removes " + removed;
  if (!added.empty()) text += (text.empty() ? "adds " : ", adds ") + added;
  if (text.empty()) text = "the same collectives";
  return text + "; " + signedText(bytes, bytesText(std::fabs(bytes))) + ", " +
         signedText(seconds, secondsText(std::fabs(seconds))) + " per device";
}

}  // namespace

double communicationDelta(double before, double after) {
  const double d = after - before;
  return std::fabs(d) <= 1e-9 * std::max(std::fabs(before), std::fabs(after)) ? 0.0 : d;
}

bool CommunicationDiff::changed() const {
  for (const CollectiveKindChange& k : kinds)
    if (k.changed()) return true;
  return false;
}

CommunicationDiff diffCommunication(const CommunicationReport& before,
                                    const CommunicationReport& after) {
  CommunicationDiff d;
  auto kind = [&](const std::string& name) -> CollectiveKindChange& {
    for (CollectiveKindChange& k : d.kinds)
      if (k.kind == name) return k;
    d.kinds.push_back({name});
    return d.kinds.back();
  };
  for (const CollectiveEntry& e : before.collectives) {
    CollectiveKindChange& k = kind(e.kind);
    ++k.countBefore;
    k.bytesBefore += e.bytesPerDevice;
    k.secondsBefore += e.seconds;
  }
  for (const CollectiveEntry& e : after.collectives) {
    CollectiveKindChange& k = kind(e.kind);
    ++k.countAfter;
    k.bytesAfter += e.bytesPerDevice;
    k.secondsAfter += e.seconds;
  }
  d.before = before.total;
  d.after = after.total;
  d.chip = after.chip.empty() ? before.chip : after.chip;
  d.summary = summaryOf(d);
  return d;
}

std::string describeCommunicationChange(const CommunicationReport& before,
                                        const CommunicationReport& after) {
  return diffCommunication(before, after).summary;
}

}  // namespace shardscope::api
