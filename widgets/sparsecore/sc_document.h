// A SparseCore file opened in the workspace, and one analysis of it.
//
// A file is a job (tables + features, optionally a "pipeline" object with
// stage times) or a pipeline-only file ({"pipeline": {...}}, as
// sample_models/sparsecore/pipeline_*.json). loadScDocument reads it;
// runScAnalysis applies the settings and computes everything the five
// views and the summary show. Both are pure and thread-safe: the workspace
// runs them in QtConcurrent::run, the export runs them directly.
#pragma once
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

#include "id_distribution_plot.h"
#include "job_settings.h"
#include "sparsecore/analysis.h"
#include "sparsecore/pipeline.h"

namespace shardscope::scw {

struct ScDocument {
  QString path;
  QString description;                   // the file's "description"
  std::shared_ptr<const sc::Job> job;    // null for a pipeline-only file
  bool hasPipelineTimes = false;         // the file has a "pipeline" object
  JobSettings settings;                  // as the file says
  QStringList warnings;                  // unknown keys (usually typos)
};

// Reads `path`. Throws sc::InputError with the engine's message
// ("<file>: <field>: <cause>", "<file>:<line>:<column>: JSON parse error: ...").
ScDocument loadScDocument(const QString& path);

enum class Severity { Info, Warning, Error };
struct ScMessage {
  Severity severity = Severity::Info;
  QString text;
  bool operator==(const ScMessage&) const = default;
};

struct ScAnalysis {
  std::shared_ptr<const sc::Job> job;        // the edited job (null if none / invalid)
  std::optional<sc::AnalysisReport> report;  // null for pipeline-only files or bad settings
  sc::PipelineComparison pipeline;
  plots::IdDistribution ids;
  QString error;  // the first fatal problem (bad settings, limit exceeded, SPMEM overflow)
  std::vector<ScMessage> messages;  // errors, then warnings, then notes
  QString summary;                  // text summary (the CLI's analysis text + pipeline)
};

// Applies `settings` to `doc` and analyses it. Never throws: problems end
// up in `error` and `messages`.
ScAnalysis runScAnalysis(const ScDocument& doc, const JobSettings& settings);

}  // namespace shardscope::scw
