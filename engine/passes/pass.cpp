#include "passes/pass.h"

#include <cctype>
#include <chrono>

namespace shardscope::passes {

std::string PassOptions::get(const std::string& key, const std::string& fallback) const {
  auto it = values.find(key);
  return it == values.end() ? fallback : it->second;
}

bool PassOptions::getBool(const std::string& key, bool fallback) const {
  auto it = values.find(key);
  if (it == values.end()) return fallback;
  if (it->second == "true" || it->second == "1" || it->second.empty()) return true;
  if (it->second == "false" || it->second == "0") return false;
  return fallback;
}

std::optional<int64_t> PassOptions::getInt(const std::string& key, int64_t fallback) const {
  auto it = values.find(key);
  if (it == values.end()) return fallback;
  const std::string& text = it->second;
  size_t i = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  if (i == text.size() || text.size() - i > 18) return std::nullopt;
  for (size_t j = i; j < text.size(); ++j)
    if (!std::isdigit(static_cast<unsigned char>(text[j]))) return std::nullopt;
  return std::stoll(text);
}

bool parsePassOptions(const std::string& text, PassOptions& out, std::string& error) {
  size_t i = 0, n = text.size();
  auto skipSpace = [&] {
    while (i < n && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  };
  while (true) {
    skipSpace();
    if (i >= n) return true;
    size_t keyStart = i;
    while (i < n && text[i] != '=' && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    std::string key = text.substr(keyStart, i - keyStart);
    if (key.empty()) {
      error = "expected an option name";
      return false;
    }
    std::string value;
    if (i < n && text[i] == '=') {
      ++i;
      if (i < n && (text[i] == '"' || text[i] == '\'')) {
        char q = text[i++];
        size_t end = text.find(q, i);
        if (end == std::string::npos) {
          error = "unterminated quote in option '" + key + "'";
          return false;
        }
        value = text.substr(i, end - i);
        i = end + 1;
      } else {
        size_t vs = i;
        while (i < n && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        value = text.substr(vs, i - vs);
      }
    }
    out.values[key] = value;
  }
}

PassInfo passWithoutOptions(std::string name, std::string summary,
                            bool (*fn)(ir::Module&, ir::DiagnosticSink&)) {
  return PassInfo{
      std::move(name),
      std::move(summary),
      {},
      [fn](ir::Module& m, const PassOptions&, PassContext& ctx) { return fn(m, ctx.diags); }};
}

bool runPipelineStep(const std::string& name, const PassOptions& options, ir::Module& module,
                     PassContext& ctx) {
  const PassInfo* info = lookupPass(name);
  if (!info) return true;
  auto start = std::chrono::steady_clock::now();
  bool ok = info->run(module, options, ctx) && !ctx.diags.hasErrors();
  if (ctx.timings)
    ctx.timings->push_back(
        {name, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1});
  return ok;
}

const PassInfo* lookupPass(const std::string& name) {
  for (const PassInfo& p : allPasses())
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace shardscope::passes
