#include "sc_document.h"

#include <QFileInfo>
#include <nlohmann/json.hpp>

#include "sparsecore/analysis_format.h"
#include "sparsecore/errors.h"
#include "sparsecore/job_io.h"

namespace shardscope::scw {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

ScDocument loadScDocument(const QString& path) {
  const std::string file = path.toStdString();
  const std::string text = sc::readTextFile(file);
  const nlohmann::json doc = sc::parseJsonText(text, file);
  ScDocument d;
  d.path = path;
  if (doc.is_object()) {
    if (auto it = doc.find("description"); it != doc.end() && it->is_string())
      d.description = qs(it->get<std::string>());
    if (doc.contains("traceEvents") && !doc.contains("tables"))
      throw sc::InputError(file +
                           ": (top level): this is a trace-event file, not a SparseCore job "
                           "(open it with `shardscope-sc trace`)");
  }
  const bool pipelineOnly = doc.is_object() && doc.contains("pipeline") &&
                            !doc.contains("tables") && !doc.contains("features");
  if (!pipelineOnly) {
    std::vector<std::string> warnings;
    const std::string dir = QFileInfo(path).absolutePath().toStdString();
    auto job = std::make_shared<sc::Job>(sc::parseJob(text, file, dir, &warnings));
    d.settings = settingsFromJob(*job);
    d.job = std::move(job);
    for (const std::string& w : warnings) d.warnings << qs(w);
  }
  if (doc.is_object() && doc.contains("pipeline")) {
    const sc::PipelineComparison c = sc::pipelineFromJson(doc, file);
    d.settings.stages = c.times;
    d.settings.batches = c.batches;
    d.hasPipelineTimes = true;
  }
  return d;
}

ScAnalysis runScAnalysis(const ScDocument& doc, const JobSettings& settings) {
  ScAnalysis a;
  const std::string source = doc.path.toStdString();
  QStringList summary;
  if (doc.job) {
    try {
      auto job = std::make_shared<const sc::Job>(applySettings(*doc.job, settings, source));
      a.report = sc::analyze(*job);
      a.ids = plots::computeIdDistribution(*job);
      a.job = std::move(job);
    } catch (const sc::InputError& e) {
      a.error = qs(e.what());
    } catch (const sc::LimitError& e) {
      a.error = qs(e.what());
    } catch (const std::bad_alloc&) {
      a.error = QStringLiteral("%1: out of memory while analysing").arg(doc.path);
    } catch (const std::exception& e) {
      a.error = qs(e.what());
    }
  }
  if (a.report) {
    if (a.report->error) a.error = qs(*a.report->error);
    for (const std::string& w : a.report->warnings) a.messages.push_back({Severity::Warning, qs(w)});
    for (const sc::TableReport& t : a.report->tables)
      for (const std::string& w : t.warnings) a.messages.push_back({Severity::Warning, qs(w)});
    for (const sc::TableReport& t : a.report->tables)
      if (t.memory.spmem.error && (!a.report->error || *a.report->error != *t.memory.spmem.error))
        a.messages.push_back({Severity::Error, qs(*t.memory.spmem.error)});
    summary << qs(sc::analysisToText(*a.report));
  }
  for (const QString& w : doc.warnings) a.messages.insert(a.messages.begin(), {Severity::Warning, w});
  try {
    a.pipeline = sc::comparePipelines(settings.stages, settings.batches);
    summary << qs(sc::pipelineToText(a.pipeline));
  } catch (const std::exception& e) {
    a.messages.push_back({Severity::Error, qs(e.what())});
  }
  if (doc.job && !doc.hasPipelineTimes)
    a.messages.push_back({Severity::Info,
                          QStringLiteral("no \"pipeline\" stage times in the file: the timeline uses "
                                         "SC %1+%2, TC %3+%4 (edit them in the settings)")
                              .arg(settings.stages.scForward)
                              .arg(settings.stages.scBackward)
                              .arg(settings.stages.tcForward)
                              .arg(settings.stages.tcBackward)});
  if (!doc.job)
    a.messages.push_back({Severity::Info, QStringLiteral("pipeline-only file: no tables, so only "
                                                         "the pipeline timeline is drawn")});
  if (!a.error.isEmpty()) a.messages.insert(a.messages.begin(), {Severity::Error, a.error});
  a.summary = summary.join(QLatin1Char('\n'));
  return a;
}

}  // namespace shardscope::scw
