// What changed in the communication between two runs of a module (before and
// after a what-if edit, or strategy A and strategy B): per collective kind,
// the count, bytes per device and time on each side, the change of the
// totals, and the same in words.
//
// Example: before = 2 all-gathers of 24 MiB (40 us each) and an all-reduce of
// 1 MiB (2 us), after = the all-reduce alone:
//   kind         before  after  bytes/device (before -> after)   time
//   all-gather   2       0      48.00 MiB -> 0 B                 80 us -> 0 s
//   all-reduce   1       1      1.00 MiB -> 1.00 MiB             2 us -> 2 us
//   summary "removes 2 all-gathers; -48.00 MiB, -80 us per device"
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "api/communication.h"

namespace shardscope::api {

// after - before, 0 when it is only the rounding of sums taken in another
// order (|difference| under 1e-9 of the larger side): "-6.6e-15 ns" is no
// change.
double communicationDelta(double before, double after);

struct CollectiveKindChange {
  std::string kind;  // "all-gather"
  int64_t countBefore = 0, countAfter = 0;
  double bytesBefore = 0, bytesAfter = 0;  // per device, summed over the kind
  double secondsBefore = 0, secondsAfter = 0;
  int64_t countDelta() const { return countAfter - countBefore; }
  double bytesDelta() const { return communicationDelta(bytesBefore, bytesAfter); }
  double secondsDelta() const { return communicationDelta(secondsBefore, secondsAfter); }
  bool changed() const { return countDelta() != 0 || bytesDelta() != 0 || secondsDelta() != 0; }
};

struct CommunicationDiff {
  // Every kind in either report, in the order kinds first appear (before,
  // then after).
  std::vector<CollectiveKindChange> kinds;
  CommunicationTotals before, after;
  std::string chip;  // the chip the times are for (the reports'; "tpu-v5p")
  // "removes 2 all-gathers, adds 1 all-to-all; -48.00 MiB, -80 us per
  // device", or "no change in collectives".
  std::string summary;
  bool changed() const;
  // The change of the totals (communicationDelta).
  double bytesDelta() const { return communicationDelta(before.bytesPerDevice, after.bytesPerDevice); }
  double secondsDelta() const { return communicationDelta(before.seconds, after.seconds); }
};

CommunicationDiff diffCommunication(const CommunicationReport& before,
                                    const CommunicationReport& after);

// diffCommunication(before, after).summary.
std::string describeCommunicationChange(const CommunicationReport& before,
                                        const CommunicationReport& after);

}  // namespace shardscope::api
