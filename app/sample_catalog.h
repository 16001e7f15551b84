// The bundled samples, each with its description, for File > Open Sample.
// Descriptions come from the samples' README tables (the "what it shows"
// column), else from the file itself (an MLIR sample's leading comment, a
// SparseCore job's "description" field).
//
//   sampleCatalog(dir) -> {path ".../mlp_megatron.mlir",
//                          menuText "mlp_megatron — Transformer MLP with Megatron tensor
//                          parallelism", description "Transformer MLP with Megatron tensor
//                          parallelism: ..."}, ...
#pragma once
#include <QHash>
#include <QList>
#include <QString>

namespace shardscope::app {

struct SampleEntry {
  QString path;
  QString menuText;     // "name — the description's first clause"
  QString description;  // the whole description (tooltip, status tip)
};

// The MLIR samples of `dir` (*.mlir, by name), then its SparseCore jobs
// (sparsecore/*.json), each with its description.
QList<SampleEntry> sampleCatalog(const QString& dir);

// The rows of a Markdown table whose first cell is a `file` name, mapped to
// the cell of the column headed "what it shows" (any case), without
// Markdown's code and bold marks.
QHash<QString, QString> readmeDescriptions(const QString& markdown);

// The first clause of `description` (up to ':' / ';' / ". ", after a
// one-word label such as "Communication:"), at most `maxChars` characters
// (cut at a word, with "…").
QString firstClause(const QString& description, int maxChars = 64);

}  // namespace shardscope::app
