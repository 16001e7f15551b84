#include "propagation_runner.h"
#include "core/work_pool.h"

#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>
#include <chrono>

#include "explain/trace_index.h"
#include "ir/parser.h"
#include "ir/printer.h"

namespace shardscope::widgets::trace {

QString strategyName(Strategy s) {
  switch (s) {
    case Strategy::Basic: return QStringLiteral("basic");
    case Strategy::Aggressive: return QStringLiteral("aggressive");
    case Strategy::OpPriority: return QStringLiteral("op-priority");
    case Strategy::UserPriority: return QStringLiteral("user-priority");
  }
  return {};
}

bool parseStrategy(const QString& name, Strategy* out) {
  const QString n = name.trimmed().toLower().replace(u'_', u'-');
  Strategy s;
  if (n == QLatin1String("basic")) s = Strategy::Basic;
  else if (n == QLatin1String("aggressive")) s = Strategy::Aggressive;
  else if (n == QLatin1String("op-priority") || n == QLatin1String("op")) s = Strategy::OpPriority;
  else if (n == QLatin1String("user-priority") || n == QLatin1String("user")) s = Strategy::UserPriority;
  else return false;
  if (out) *out = s;
  return true;
}

propagation::PropagationOptions optionsFor(Strategy s) {
  propagation::PropagationOptions o;
  switch (s) {
    case Strategy::Basic: o.level = propagation::PropagationLevel::Basic; break;
    case Strategy::Aggressive: o.level = propagation::PropagationLevel::Aggressive; break;
    case Strategy::OpPriority: o.level = propagation::PropagationLevel::OpPriority; break;
    case Strategy::UserPriority: o.level = propagation::PropagationLevel::UserPriority; break;
  }
  return o;
}

Strategy strategyOf(const propagation::PropagationOptions& o) {
  switch (o.level) {
    case propagation::PropagationLevel::Basic: return Strategy::Basic;
    case propagation::PropagationLevel::Aggressive: return Strategy::Aggressive;
    case propagation::PropagationLevel::OpPriority: return Strategy::OpPriority;
    case propagation::PropagationLevel::UserPriority:
    case propagation::PropagationLevel::Pipeline:
      return Strategy::UserPriority;
  }
  return Strategy::Basic;
}

QString TraceRun::summary() const {
  const QString name = strategyName(strategy());
  const auto n = static_cast<qsizetype>(trace.steps.size());
  switch (status) {
    case explain::RunStatus::Ok: return QStringLiteral("%1: %2 step(s)").arg(name).arg(n);
    case explain::RunStatus::Cancelled: return QStringLiteral("%1: cancelled after %2 step(s)").arg(name).arg(n);
    case explain::RunStatus::Invalid: break;
  }
  for (const auto& d : diagnostics)
    if (d.severity == ir::Severity::Error) return QStringLiteral("%1 failed: %2").arg(name, QString::fromStdString(d.message));
  return QStringLiteral("%1 failed").arg(name);
}

std::shared_ptr<TraceRun> runPropagation(const std::string& text, const std::string& fileName,
                                         const propagation::PropagationOptions& options,
                                         const std::atomic<bool>* cancel, std::function<void(int64_t)> onStep) {
  auto run = std::make_shared<TraceRun>();
  run->options = options;
  run->fileName = fileName;
  run->inputText = text;
  ir::DiagnosticSink diags;
  ir::ParseOptions po;
  po.fileName = fileName;
  std::unique_ptr<ir::Module> input = ir::parseModule(text, po, diags);
  std::unique_ptr<ir::Module> output = input ? ir::parseModule(text, po, diags) : nullptr;
  if (!input || !output || diags.hasErrors()) {
    run->status = explain::RunStatus::Invalid;
    run->diagnostics = diags.all();
    if (run->diagnostics.empty()) run->diagnostics.push_back({ir::Severity::Error, {}, "the module does not parse"});
    return run;
  }
  explain::RunControl control;
  control.cancel = cancel;
  control.onStep = std::move(onStep);
  run->status = explain::propagateCancellable(*output, options, diags, &run->trace, control);
  run->diagnostics = diags.all();
  if (run->status != explain::RunStatus::Invalid) run->outputText = ir::printModule(*output);
  run->input = std::shared_ptr<ir::Module>(std::move(input));
  run->output = std::shared_ptr<ir::Module>(std::move(output));
  run->index = std::make_shared<explain::TraceIndex>(*run->input, run->trace);
  return run;
}

std::shared_ptr<TraceRun> traceRunFor(const api::Document& doc,
                                      std::shared_ptr<const api::PropagationRun> run) {
  auto out = std::make_shared<TraceRun>();
  out->fileName = doc.name;
  out->inputText = doc.text;
  if (!run) return out;
  out->options = run->options;
  out->trace = run->trace;
  out->diagnostics = run->diagnostics;
  std::string error;
  std::shared_ptr<api::Document> input = run->ok ? api::documentAtStep(doc, *run, 0, &error) : nullptr;
  if (!input || !input->module || !run->result || !run->result->module) {
    if (run->ok) out->diagnostics.push_back({ir::Severity::Error, {}, error});
    return out;
  }
  out->status = explain::RunStatus::Ok;
  // Aliasing pointers: the modules live as long as their documents.
  out->input = std::shared_ptr<ir::Module>(input, input->module.get());
  std::shared_ptr<api::Document> result = std::const_pointer_cast<api::Document>(run->result);
  out->output = std::shared_ptr<ir::Module>(result, result->module.get());
  out->index = std::make_shared<explain::TraceIndex>(*out->input, out->trace);
  return out;
}

PropagationRunner::PropagationRunner(QObject* parent) : QObject(parent) {
  qRegisterMetaType<std::shared_ptr<const TraceRun>>();
}

PropagationRunner::~PropagationRunner() {
  if (cancel_) *cancel_ = true;
  // Wait for every worker still running (stale ones included).
  for (Watcher* w : findChildren<Watcher*>(Qt::FindDirectChildrenOnly)) {
    w->disconnect(this);
    w->waitForFinished();
  }
}

int PropagationRunner::start(const QString& moduleText, const QString& fileName,
                             const propagation::PropagationOptions& options) {
  if (cancel_) *cancel_ = true;  // the old run stops soon; its result is dropped
  const int id = ++request_;
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  cancel_ = cancel;
  auto* watcher = new Watcher(this);
  watcher_ = watcher;
  connect(watcher, &QFutureWatcherBase::progressValueChanged, this, [this, id](int steps) {
    if (id == request_) emit progress(id, steps);
  });
  connect(watcher, &QFutureWatcherBase::finished, this,
          [this, watcher, id] { deliver(watcher, id); });
  const std::string text = moduleText.toStdString();
  const std::string name = fileName.toStdString();
  QFuture<std::shared_ptr<TraceRun>> future =
      QtConcurrent::run(workPool(), [text, name, options, cancel](QPromise<std::shared_ptr<TraceRun>>& promise) {
        promise.setProgressRange(0, 0);
        auto last = std::chrono::steady_clock::now();
        auto onStep = [&promise, &last](int64_t steps) {
          // Throttle: at most about 20 progress reports per second.
          const auto now = std::chrono::steady_clock::now();
          if (now - last < std::chrono::milliseconds(50)) return;
          last = now;
          promise.setProgressValue(static_cast<int>(std::min<int64_t>(steps, INT32_MAX)));
        };
        promise.addResult(runPropagation(text, name, options, cancel.get(), onStep));
      });
  watcher->setFuture(future);
  emit started(id);
  return id;
}

void PropagationRunner::cancel() {
  if (cancel_) *cancel_ = true;
}

bool PropagationRunner::isRunning() const { return watcher_ && watcher_->isRunning(); }

void PropagationRunner::deliver(Watcher* watcher, int id) {
  watcher->deleteLater();
  if (id != request_) return;  // stale: a newer request replaced it
  std::shared_ptr<TraceRun> run;
  if (watcher->future().resultCount() > 0) run = watcher->result();
  if (!run) {
    run = std::make_shared<TraceRun>();
    run->diagnostics.push_back({ir::Severity::Error, {}, "propagation ended without a result"});
  }
  run->requestId = id;
  // The status is the engine's: a run that reached its end before it saw
  // the cancel request is complete, and is shown as such.
  watcher_ = nullptr;
  cancel_.reset();
  last_ = run;
  emit finished(last_);
}

}  // namespace shardscope::widgets::trace
