#include "ir/diagnostics.h"

namespace shardscope::ir {

static const char* severityName(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
    case Severity::Remark: return "remark";
  }
  return "error";
}

std::string Diagnostic::format(const std::string& file) const {
  std::string out = file;
  out += ':' + std::to_string(loc.line) + ':' + std::to_string(loc.col) + ": ";
  out += severityName(severity);
  out += ": ";
  out += message;
  return out;
}

std::string DiagnosticSink::formatAll(const std::string& file) const {
  std::string out;
  for (const Diagnostic& d : diags_) out += d.format(file) + '\n';
  return out;
}

}  // namespace shardscope::ir
