// Pipeline outputs in comparable form (see pipeline_output.h).
#include "pipeline_output.h"

#include <cctype>
#include <map>
#include <set>

namespace shardscope::fuzz {

namespace {

bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
}

// `text` with its private functions renamed @fn0, @fn1, ... in the order
// their names first appear (propagation_fuzzer.cpp: sdy renames a function that a
// run cloned and merged back).
std::string withCanonicalFunctionNames(const std::string& text) {
  std::set<std::string> privateFunctions;
  const std::string marker = "func.func private @";
  for (size_t at = text.find(marker); at != std::string::npos; at = text.find(marker, at + 1)) {
    size_t end = at + marker.size();
    while (end < text.size() && isNameChar(text[end])) ++end;
    privateFunctions.insert(text.substr(at + marker.size(), end - at - marker.size()));
  }
  std::map<std::string, std::string> renamed;
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (text[i] != '@') {
      out += text[i++];
      continue;
    }
    size_t end = i + 1;
    while (end < text.size() && isNameChar(text[end])) ++end;
    const std::string name = text.substr(i + 1, end - i - 1);
    if (privateFunctions.count(name)) {
      auto [it, added] = renamed.emplace(name, "fn" + std::to_string(renamed.size()));
      out += "@" + it->second;
    } else {
      out += "@" + name;
    }
    i = end;
  }
  return out;
}

// The end of `<@mesh, [{}, {}]>` at `at` in `text`: a sharding that is
// closed and names no axis; npos for any other.
size_t emptyShardingEnd(const std::string& text, size_t at) {
  if (text.compare(at, 2, "<@") != 0) return std::string::npos;
  at += 2;
  while (at < text.size() && isNameChar(text[at])) ++at;
  if (text.compare(at, 3, ", [") != 0) return std::string::npos;
  at += 3;
  while (text.compare(at, 2, "{}") == 0) {
    at += 2;
    if (text.compare(at, 4, ", {}") == 0) at += 2;
  }
  return text.compare(at, 2, "]>") == 0 ? at + 2 : std::string::npos;
}

// `text` without the sdy.sharding attributes whose every sharding is closed
// and names no axis: after the pipeline they mean what no sharding means
// (propagation_fuzzer.cpp).
std::string withoutEmptyShardingAttributes(const std::string& text) {
  const std::string single = " {sdy.sharding = #sdy.sharding";
  const std::string perValue = "_per_value<[";
  std::string out;
  out.reserve(text.size());
  size_t copied = 0;
  for (size_t at = text.find(single); at != std::string::npos; at = text.find(single, at + 1)) {
    size_t k = at + single.size();
    if (text.compare(k, perValue.size(), perValue) == 0) {
      k += perValue.size();
      for (bool first = true;; first = false) {
        if (!first) {
          if (text.compare(k, 2, ", ") != 0) break;
          k += 2;
        }
        const size_t end = emptyShardingEnd(text, k);
        if (end == std::string::npos) break;
        k = end;
      }
      if (text.compare(k, 2, "]>") != 0) continue;
      k += 2;
    } else {
      k = emptyShardingEnd(text, k);
      if (k == std::string::npos) continue;
    }
    if (text.compare(k, 1, "}") != 0) continue;
    size_t from = at;
    const std::string keyword = " attributes";
    if (from >= keyword.size() && text.compare(from - keyword.size(), keyword.size(), keyword) == 0)
      from -= keyword.size();
    out.append(text, copied, from - copied);
    copied = k + 1;
  }
  out.append(text, copied, std::string::npos);
  return out;
}

// `text` with the reshards' open dimensions closed (propagation_fuzzer.cpp).
std::string withClosedReshards(std::string text) {
  size_t start = 0;
  for (size_t nl; start < text.size(); start = nl + 1) {
    nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    const size_t op = text.find("= sdy.reshard ", start);
    if (op == std::string::npos || op > nl) continue;
    for (size_t at = op; (at = text.find("?}", at)) != std::string::npos && at < nl;) {
      const size_t from = text.compare(at - 2, 2, ", ") == 0 ? at - 2 : at;
      text.erase(from, at + 1 - from);
      nl -= at + 1 - from;
      at = from;
    }
  }
  return text;
}

// `text` with the mesh of every sharding that is closed and names no axis
// spelled `@*` (propagation_fuzzer.cpp).
std::string withAnyMeshForEmptyShardings(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (text.compare(i, 2, "<@") != 0) {
      out += text[i++];
      continue;
    }
    size_t k = i + 2;
    while (k < text.size() && isNameChar(text[k])) ++k;
    size_t end = k;
    if (text.compare(end, 3, ", [") == 0) {
      end += 3;
      while (text.compare(end, 2, "{}") == 0) {
        end += 2;
        if (text.compare(end, 4, ", {}") == 0) end += 2;
      }
    }
    if (end > k && text.compare(end, 2, "]>") == 0) {
      out += "<@*" + text.substr(k, end - k);
    } else {
      out += text.substr(i, k - i);
    }
    i = end > k && text.compare(end, 2, "]>") == 0 ? end : k;
  }
  return out;
}

// `text` with a function's single result written bare, `-> tensor<8xf32>`,
// when `-> (tensor<8xf32>)` lost its attribute to the above.
std::string withBareSingleResults(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  size_t start = 0;
  for (size_t nl; start < text.size(); start = nl + 1) {
    nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(start, nl - start);
    const size_t arrow = line.find("func.func ") != std::string::npos ? line.find(") -> (")
                                                                      : std::string::npos;
    if (arrow != std::string::npos) {
      const size_t open = arrow + 5;
      int depth = 0;
      bool single = true;
      size_t close = std::string::npos;
      for (size_t i = open; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '(' || c == '<' || c == '[' || c == '{') ++depth;
        if (c == ')' || c == '>' || c == ']' || c == '}') --depth;
        if (depth == 1 && (c == ',' || c == '{')) single = false;
        if (depth == 0) {
          close = i;
          break;
        }
      }
      if (single && close != std::string::npos) {
        line.erase(close, 1);
        line.erase(open, 1);
      }
    }
    out += line;
    if (nl < text.size()) out += '\n';
  }
  return out;
}

}  // namespace

std::string comparable(const std::string& text) {
  std::string out = withClosedReshards(text);
  out = withoutEmptyShardingAttributes(out);
  out = withBareSingleResults(out);
  out = withAnyMeshForEmptyShardings(out);
  return withCanonicalFunctionNames(out);
}

}  // namespace shardscope::fuzz
