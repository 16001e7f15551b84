// Where the UI thread's time went during one piece of work (a step of the
// timeline): each event the application delivers at the outermost level is
// timed (thread CPU) and charged to its receiver's class and the event's
// type; the bench adds its own named phases (the signals of a step).
//
//   UiTimeProfile profile;            // needs a ProfilingApplication
//   profile.begin();
//   profile.mark("seek + shardingsChanged");   // from a slot connected last
//   drain();
//   profile.end();
//   profile.top(4)  // [{"seek + shardingsChanged", 41.2}, {"GraphViewport Paint", 12.0}, ...]
//
// Only the outermost delivery is timed: an event sent while another is
// handled (a paint inside a resize) is part of the outer one's time.
#pragma once
#include <QApplication>
#include <QEvent>
#include <QMetaEnum>
#include <QString>
#include <QStringList>
#include <QThread>
#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "gui_bench_util.h"

namespace shardscope::bench {

class UiTimeProfile {
 public:
  // Starts charging time (the previous profile's figures are dropped).
  void begin() {
    parts_.clear();
    pendingNs_ = 0;
    last_ = threadCpuNs();
    active_ = true;
    current_ = this;
  }
  // Charges the time since the previous mark (or begin) to `phase`.
  void mark(const QString& phase) {
    if (!active_) return;
    const qint64 now = threadCpuNs();
    parts_[phase] += (pendingNs_ + now - last_) / 1e6;
    pendingNs_ = 0;
    last_ = now;
  }
  void end() {
    mark(QStringLiteral("(between events)"));
    active_ = false;
    if (current_ == this) current_ = nullptr;
  }
  double totalMs() const {
    double t = 0;
    for (const auto& [k, v] : parts_) t += v;
    return t;
  }
  // The `n` largest parts, largest first.
  std::vector<std::pair<QString, double>> top(size_t n) const {
    std::vector<std::pair<QString, double>> v(parts_.begin(), parts_.end());
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    if (v.size() > n) v.resize(n);
    return v;
  }
  // "41.2 ms seek + shardingsChanged, 12.0 ms GraphViewport Paint, ..."
  QString summary(size_t n = 5) const {
    QStringList parts;
    for (const auto& [k, v] : top(n))
      if (v >= 0.05) parts << QStringLiteral("%1 ms %2").arg(v, 0, 'f', 1).arg(k);
    return parts.join(QStringLiteral(", "));
  }

  // Single events that took 20 ms of UI-thread CPU or more, in order:
  // "QWidget(opTree) Paint 51.0 ms" names what a stall was.
  static constexpr qint64 kSlowEventNs = 20'000'000;
  QStringList slowEvents() const {
    QStringList out;
    for (const auto& [key, ms] : slow_) out << QStringLiteral("%1 %2 ms").arg(key).arg(ms, 0, 'f', 1);
    return out;
  }

  static UiTimeProfile* current() { return current_; }
  bool active() const { return active_; }

 private:
  friend class ProfilingApplication;
  // The event's own time goes to `key`; the time before it to the phase
  // the next mark closes (an event sent from inside a slot splits that
  // slot's phase, which keeps the rest).
  void event(const QString& key, qint64 startNs, qint64 endNs) {
    pendingNs_ += startNs - last_;
    parts_[key] += (endNs - startNs) / 1e6;
    if (endNs - startNs >= kSlowEventNs) slow_.push_back({key, (endNs - startNs) / 1e6});
    last_ = endNs;
  }

  std::map<QString, double> parts_;
  std::vector<std::pair<QString, double>> slow_;
  qint64 last_ = 0, pendingNs_ = 0;
  bool active_ = false;
  static inline UiTimeProfile* current_ = nullptr;
};

// A QApplication that reports each outermost event delivery on the UI
// thread to the active UiTimeProfile.
class ProfilingApplication : public QApplication {
 public:
  using QApplication::QApplication;
  bool notify(QObject* receiver, QEvent* e) override {
    UiTimeProfile* p = UiTimeProfile::current();
    if (!p || depth_ > 0 || thread() != QThread::currentThread())
      return QApplication::notify(receiver, e);
    ++depth_;
    const qint64 t0 = threadCpuNs();
    const QString key = keyOf(receiver, e);
    const bool r = QApplication::notify(receiver, e);
    p->event(key, t0, threadCpuNs());
    --depth_;
    return r;
  }

 private:
  // "QWidget(graphView) Paint", "QTimer(in CommunicationFeed) Timer".
  static QString keyOf(QObject* receiver, QEvent* e) {
    QString who = QString::fromLatin1(receiver->metaObject()->className());
    if (!receiver->objectName().isEmpty()) who += QLatin1Char('(') + receiver->objectName() + QLatin1Char(')');
    else if (receiver->parent())
      who += QStringLiteral("(in %1)").arg(QString::fromLatin1(receiver->parent()->metaObject()->className()));
    const char* type = QMetaEnum::fromType<QEvent::Type>().valueToKey(e->type());
    return who + QLatin1Char(' ') + (type ? QString::fromLatin1(type) : QString::number(e->type()));
  }
  int depth_ = 0;
};

}  // namespace shardscope::bench
