#include "trace_player.h"

#include <algorithm>
#include <cmath>

namespace shardscope::widgets::trace {

TracePlayer::TracePlayer(QObject* parent) : QObject(parent) {
  // The beat: Qt schedules each timeout one interval after the last one
  // was due (not after it fired), so a step that takes 20 ms does not
  // stretch it; a precise timer also keeps Qt from moving timeouts by up to
  // 5% of the interval as a coarse one may. A beat missed altogether is
  // dropped, never queued: a slow step delays the next, it does not make
  // two run back to back.
  timer_.setTimerType(Qt::PreciseTimer);
  timer_.setInterval(static_cast<int>(1000 / speed_));
  connect(&timer_, &QTimer::timeout, this, [this] {
    if (current_ >= stepCount() - 1) {
      pause();
      return;
    }
    scrubTo(current_ + 1);
    if (current_ >= stepCount() - 1) pause();
  });
}

void TracePlayer::setTrace(const propagation::PropagationTrace* trace, int current) {
  pause();
  rounds_.clear();
  iterations_.clear();
  if (trace)
    for (const auto& s : trace->steps) {
      rounds_.emplace_back(s.userPriority, s.opPriority);
      iterations_.push_back(s.iteration);
    }
  emit stepCountChanged(stepCount());
  current_ = -2;  // force the signal
  scrubTo(current == -2 ? stepCount() - 1 : current);
}

void TracePlayer::play() {
  if (stepCount() == 0 || timer_.isActive()) return;
  if (current_ >= stepCount() - 1) scrubTo(-1);
  timer_.start();
  emit playingChanged(true);
}

void TracePlayer::pause() {
  if (!timer_.isActive()) return;
  timer_.stop();
  emit playingChanged(false);
}

void TracePlayer::togglePlay() { isPlaying() ? pause() : play(); }

void TracePlayer::stepForward() { scrubTo(current_ + 1); }
void TracePlayer::stepBack() { scrubTo(current_ - 1); }

void TracePlayer::scrubTo(int step) {
  step = std::clamp(step, -1, std::max(-1, stepCount() - 1));
  if (step == current_) return;
  current_ = step;
  emit currentStepChanged(current_);
}

void TracePlayer::setSpeed(double s) {
  s = std::clamp(s, 0.25, 50.0);
  if (s == speed_) return;
  speed_ = s;
  timer_.setInterval(static_cast<int>(std::lround(1000.0 / speed_)));
  emit speedChanged(speed_);
}

// A round is a user-priority value; a stage is (round, op-priority stage,
// fixed-point iteration) so that basic/aggressive runs also count as stages.
int TracePlayer::roundKey(int step) const { return static_cast<int>(rounds_[static_cast<size_t>(step)].first); }
int TracePlayer::stageKey(int step) const {
  return static_cast<int>(iterations_[static_cast<size_t>(step)]);
}

int TracePlayer::nextRoundStart() const {
  const int n = stepCount();
  if (current_ < 0) return n > 0 ? 0 : -2;
  for (int i = current_ + 1; i < n; ++i)
    if (roundKey(i) != roundKey(i - 1)) return i;
  return -2;
}

int TracePlayer::previousRoundStart() const {
  if (current_ <= 0) return -2;
  // The start of the current round, or of the previous one when already at a start.
  int start = current_;
  while (start > 0 && roundKey(start - 1) == roundKey(current_)) --start;
  if (start < current_) return start;
  if (start == 0) return -2;
  int prev = start - 1;
  while (prev > 0 && roundKey(prev - 1) == roundKey(start - 1)) --prev;
  return prev;
}

int TracePlayer::nextStageStart() const {
  const int n = stepCount();
  if (current_ < 0) return n > 0 ? 0 : -2;
  for (int i = current_ + 1; i < n; ++i)
    if (stageKey(i) != stageKey(i - 1)) return i;
  return -2;
}

int TracePlayer::previousStageStart() const {
  if (current_ <= 0) return -2;
  int start = current_;
  while (start > 0 && stageKey(start - 1) == stageKey(current_)) --start;
  if (start < current_) return start;
  if (start == 0) return -2;
  int prev = start - 1;
  while (prev > 0 && stageKey(prev - 1) == stageKey(start - 1)) --prev;
  return prev;
}

void TracePlayer::nextRound() {
  const int s = nextRoundStart();
  scrubTo(s >= 0 ? s : stepCount() - 1);
}
void TracePlayer::previousRound() {
  const int s = previousRoundStart();
  scrubTo(s >= 0 ? s : -1);
}
void TracePlayer::nextStage() {
  const int s = nextStageStart();
  scrubTo(s >= 0 ? s : stepCount() - 1);
}
void TracePlayer::previousStage() {
  const int s = previousStageStart();
  scrubTo(s >= 0 ? s : -1);
}

}  // namespace shardscope::widgets::trace
