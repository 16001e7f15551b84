// Steps through a trace like a media player: play / pause at a speed
// (steps per second), step forward / back, scrub to a step, jump to the
// next / previous user-priority round or op-priority stage. The current
// step is -1 before the first step (the input) up to count-1 (the result).
// Emits currentStepChanged whenever it moves; the panel forwards that to
// the TraceState. Playing shows every step, one per beat of a precise
// timer (e.g. at 10 steps/s one step every 100 ms, however long the step
// took as long as it took less than the beat); no step is skipped.
#pragma once
#include <QObject>
#include <QTimer>
#include <vector>

#include "propagation/propagation_trace.h"

namespace shardscope::widgets::trace {

class TracePlayer : public QObject {
  Q_OBJECT
 public:
  explicit TracePlayer(QObject* parent = nullptr);

  // New steps (round/stage labels read from `trace`); moves to `current`
  // (default: the last step) and stops playing.
  void setTrace(const propagation::PropagationTrace* trace, int current = -2);
  int stepCount() const { return static_cast<int>(rounds_.size()); }
  int currentStep() const { return current_; }
  bool isPlaying() const { return timer_.isActive(); }
  // Steps per second (0.25 .. 50).
  double speed() const { return speed_; }

  // The first step of the next/previous user-priority round (or op-priority
  // stage) relative to the current step, or -1/-2 when there is none.
  int nextRoundStart() const;
  int previousRoundStart() const;
  int nextStageStart() const;
  int previousStageStart() const;

 public slots:
  void play();
  void pause();
  void togglePlay();
  void stepForward();
  void stepBack();
  // -1 (the input) .. stepCount()-1; clamped.
  void scrubTo(int step);
  void first() { scrubTo(-1); }
  void last() { scrubTo(stepCount() - 1); }
  void setSpeed(double stepsPerSecond);
  void nextRound();
  void previousRound();
  void nextStage();
  void previousStage();

 signals:
  void currentStepChanged(int step);
  void playingChanged(bool playing);
  void speedChanged(double stepsPerSecond);
  void stepCountChanged(int count);

 private:
  int roundKey(int step) const;
  int stageKey(int step) const;

  std::vector<std::pair<int64_t, int64_t>> rounds_;  // (user priority, op-priority stage) per step
  std::vector<int64_t> iterations_;
  int current_ = -1;
  double speed_ = 2.0;
  QTimer timer_;
};

}  // namespace shardscope::widgets::trace
