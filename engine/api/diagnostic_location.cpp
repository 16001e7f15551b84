#include "api/diagnostic_location.h"

#include <algorithm>

namespace shardscope::api {

namespace {

// Offsets of the first character of each line (index 0 is line 1).
std::vector<size_t> lineStarts(std::string_view text) {
  std::vector<size_t> starts{0};
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') starts.push_back(i + 1);
  return starts;
}

// The text offset of `loc`, clamped to the text.
size_t offsetOf(const std::vector<size_t>& starts, std::string_view text, ir::SourceLoc loc) {
  if (loc.line == 0 || loc.line > starts.size()) return text.size();
  const size_t col = loc.col > 0 ? loc.col - 1 : 0;
  return std::min(starts[loc.line - 1] + col, text.size());
}

ir::SourceLoc locOf(const std::vector<size_t>& starts, size_t offset) {
  const auto next = std::upper_bound(starts.begin(), starts.end(), offset);
  const size_t line = static_cast<size_t>(next - starts.begin());  // 1-based
  return {static_cast<uint32_t>(line), static_cast<uint32_t>(offset - starts[line - 1] + 1)};
}

bool before(ir::SourceLoc a, ir::SourceLoc b) {
  return a.line != b.line ? a.line < b.line : a.col < b.col;
}

}  // namespace

std::optional<std::string> axisNamedInMessage(std::string_view message) {
  for (std::string_view lead :
       {std::string_view("axis name: \""), std::string_view("manual axis: \"")}) {
    const size_t at = message.rfind(lead);
    if (at == std::string_view::npos) continue;
    const size_t begin = at + lead.size();
    const size_t end = message.find('"', begin);
    if (end == std::string_view::npos || end + 1 != message.size() || end == begin) continue;
    return std::string(message.substr(begin, end - begin));
  }
  return std::nullopt;
}

void pointDiagnosticsAtAxes(std::string_view text, const ir::Module& module,
                            std::vector<ir::Diagnostic>& diagnostics) {
  std::vector<ir::SourceLoc> opStarts;
  bool any = false;
  for (const ir::Diagnostic& d : diagnostics)
    any = any || (d.loc.known() && axisNamedInMessage(d.message));
  if (!any) return;
  for (const auto& top : module.body().ops())
    top->walk([&](ir::Op& op) {
      if (op.loc().known()) opStarts.push_back(op.loc());
    });
  std::sort(opStarts.begin(), opStarts.end(), before);
  const std::vector<size_t> starts = lineStarts(text);
  for (ir::Diagnostic& d : diagnostics) {
    if (!d.loc.known()) continue;
    const std::optional<std::string> axis = axisNamedInMessage(d.message);
    if (!axis) continue;
    const size_t from = offsetOf(starts, text, d.loc);
    const auto next = std::upper_bound(opStarts.begin(), opStarts.end(), d.loc, before);
    const size_t to = next == opStarts.end() ? text.size() : offsetOf(starts, text, *next);
    const size_t at = text.substr(0, to).find('"' + *axis + '"', from);
    if (at != std::string_view::npos) d.loc = locOf(starts, at);
  }
}

}  // namespace shardscope::api
