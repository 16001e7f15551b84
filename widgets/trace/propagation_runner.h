// Runs sharding propagation on a copy of a module off the UI thread and
// hands back the trace and the propagated module text.
//
// One async pattern (style.md): QtConcurrent::run with a QPromise for
// progress and cancellation, a QFutureWatcher to come back, a request
// counter that drops stale results. The copy is a fresh parse of the
// module text, so the caller's document is never touched. Cancel sets a
// flag the engine polls at every (op, factor) decision
// (explain::propagateCancellable).
#pragma once
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "api/propagate.h"
#include "explain/cancellable_propagation.h"
#include "ir/diagnostics.h"
#include "ir/operation.h"
#include "propagation/propagation_options.h"
#include "propagation/propagation_trace.h"

namespace shardscope::explain {
class TraceIndex;
}

namespace shardscope::widgets::trace {

// The four strategies the UI offers.
enum class Strategy { Basic, Aggressive, OpPriority, UserPriority };
// "basic" / "aggressive" / "op-priority" / "user-priority".
QString strategyName(Strategy s);
// Accepts the names above (and "op_priority", "user_priority", "op", "user"); false otherwise.
bool parseStrategy(const QString& name, Strategy* out);
propagation::PropagationOptions optionsFor(Strategy s);
Strategy strategyOf(const propagation::PropagationOptions& o);

// One finished (or cancelled / failed) run. Immutable once handed out.
struct TraceRun {
  TraceRun() = default;
  // `index` refers to `input` and `trace` of this object: not copyable.
  TraceRun(const TraceRun&) = delete;
  TraceRun& operator=(const TraceRun&) = delete;

  int requestId = 0;
  propagation::PropagationOptions options;
  explain::RunStatus status = explain::RunStatus::Invalid;
  std::string fileName;
  std::string inputText;
  std::string outputText;  // the propagated module, printed (empty on failure)
  propagation::PropagationTrace trace;
  std::vector<ir::Diagnostic> diagnostics;
  // The module as parsed before propagation (op indices and value refs of
  // the trace refer to it) and after. Read-only once handed out.
  std::shared_ptr<ir::Module> input;
  std::shared_ptr<ir::Module> output;
  // Links the trace to `input` (rows -> values, names, seeds).
  std::shared_ptr<explain::TraceIndex> index;

  bool ok() const { return status == explain::RunStatus::Ok; }
  Strategy strategy() const { return strategyOf(options); }
  // "user-priority: 12 steps" / "cancelled after 3 steps" / the first error.
  QString summary() const;
};

// Run synchronously on the calling thread (the worker uses it; so do the
// headless export and tests). `cancel` and `onStep` as in explain::RunControl.
std::shared_ptr<TraceRun> runPropagation(const std::string& moduleText, const std::string& fileName,
                                         const propagation::PropagationOptions& options,
                                         const std::atomic<bool>* cancel = nullptr,
                                         std::function<void(int64_t)> onStep = {});

// The explorer's view of a run made elsewhere (the main window's Propagate,
// api::propagateDocument): `input` is a fresh copy of the module as the run
// started (api::documentAtStep(doc, run, 0)), `output` shares the run's
// result. Any thread; a run that failed gives status Invalid.
std::shared_ptr<TraceRun> traceRunFor(const api::Document& doc,
                                      std::shared_ptr<const api::PropagationRun> run);

class PropagationRunner : public QObject {
  Q_OBJECT
 public:
  explicit PropagationRunner(QObject* parent = nullptr);
  ~PropagationRunner() override;

  // Start a run; a running one is cancelled and its result dropped.
  // Returns the request id.
  int start(const QString& moduleText, const QString& fileName, const propagation::PropagationOptions& options);
  int start(const QString& moduleText, const QString& fileName, Strategy strategy) {
    return start(moduleText, fileName, optionsFor(strategy));
  }
  // Cancel the current run (its `finished` still arrives, status Cancelled).
  void cancel();
  bool isRunning() const;
  int currentRequest() const { return request_; }
  // The last result delivered (nullptr before the first).
  const std::shared_ptr<const TraceRun>& lastRun() const { return last_; }

 signals:
  void started(int requestId);
  // Steps recorded so far (throttled to about 20 per second).
  void progress(int requestId, int steps);
  // The current request finished (ok, invalid or cancelled). Stale results never arrive.
  void finished(std::shared_ptr<const shardscope::widgets::trace::TraceRun> run);

 private:
  using Watcher = QFutureWatcher<std::shared_ptr<TraceRun>>;
  void deliver(Watcher* watcher, int id);

  int request_ = 0;
  std::shared_ptr<std::atomic<bool>> cancel_;  // the current request's flag
  Watcher* watcher_ = nullptr;                 // the current request's watcher
  std::shared_ptr<const TraceRun> last_;
};

}  // namespace shardscope::widgets::trace

Q_DECLARE_METATYPE(std::shared_ptr<const shardscope::widgets::trace::TraceRun>)
