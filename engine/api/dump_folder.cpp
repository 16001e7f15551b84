#include "api/dump_folder.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string_view>

namespace shardscope::api {

namespace {

constexpr std::string_view kUserPriorityStage = "propagation_after_user_priority_";

// "02.after_propagation.mlir" -> 2, "after_propagation".
void splitName(DumpFile& f) {
  std::string stem = f.fileName.substr(0, f.fileName.size() - 5);  // without ".mlir"
  size_t digits = 0;
  while (digits < stem.size() && std::isdigit(static_cast<unsigned char>(stem[digits]))) ++digits;
  if (digits > 0 && digits <= 6 && digits < stem.size() && stem[digits] == '.') {
    f.index = std::stoi(stem.substr(0, digits));
    f.stage = stem.substr(digits + 1);
  } else {
    f.stage = stem;
  }
}

// A priority dump's priority, or -1.
int64_t userPriority(const DumpFile& f) {
  if (f.stage.rfind(kUserPriorityStage, 0) != 0) return -1;
  const std::string n = f.stage.substr(kUserPriorityStage.size());
  if (n.empty() || n.size() > 18 || !std::all_of(n.begin(), n.end(), ::isdigit)) return -1;
  return std::stoll(n);
}

// Natural order: runs of digits compare by value ("f2" before "f10").
bool naturalLess(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t ei = i, ej = j;
      while (ei < a.size() && std::isdigit(static_cast<unsigned char>(a[ei]))) ++ei;
      while (ej < b.size() && std::isdigit(static_cast<unsigned char>(b[ej]))) ++ej;
      std::string_view na(a.data() + i, ei - i), nb(b.data() + j, ej - j);
      while (na.size() > 1 && na.front() == '0') na.remove_prefix(1);
      while (nb.size() > 1 && nb.front() == '0') nb.remove_prefix(1);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = ei;
      j = ej;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

std::vector<std::string_view> splitLines(const std::string& text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    lines.emplace_back(text.data() + start, nl - start);
    start = nl + 1;
  }
  return lines;
}

}  // namespace

bool listDumpFolder(const std::string& directory, std::vector<DumpFile>& out, std::string& error) {
  namespace fs = std::filesystem;
  out.clear();
  std::error_code ec;
  if (!fs::is_directory(directory, ec)) {
    error = directory + ": not a folder";
    return false;
  }
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    if (p.extension() != ".mlir" || !it->is_regular_file(ec)) continue;
    DumpFile f;
    f.path = p.string();
    f.fileName = p.filename().string();
    f.bytes = static_cast<int64_t>(it->file_size(ec));
    splitName(f);
    out.push_back(std::move(f));
  }
  if (ec) {
    error = directory + ": " + ec.message();
    return false;
  }
  if (out.empty()) {
    error = directory + ": no .mlir files (expected module dumps such as 01.before_propagation.mlir)";
    return false;
  }
  // Within one index the user-priority dumps were written during
  // propagation, before the dump that ends it.
  std::stable_sort(out.begin(), out.end(), [](const DumpFile& a, const DumpFile& b) {
    if (a.index != b.index) return a.index < b.index;
    const int64_t pa = userPriority(a), pb = userPriority(b);
    if ((pa >= 0) != (pb >= 0)) return pa >= 0;
    if (pa != pb) return pa < pb;
    return naturalLess(a.fileName, b.fileName);
  });
  return true;
}

LineDiff diffLines(const std::string& before, const std::string& after, int context, int maxEdits) {
  const std::vector<std::string_view> a = splitLines(before), b = splitLines(after);
  const int n = static_cast<int>(a.size()), m = static_cast<int>(b.size());
  // Common prefix and suffix first: dumps of one module share most lines.
  int pre = 0;
  while (pre < n && pre < m && a[pre] == b[pre]) ++pre;
  int suf = 0;
  while (suf < n - pre && suf < m - pre && a[n - 1 - suf] == b[m - 1 - suf]) ++suf;
  const int an = n - pre - suf, bn = m - pre - suf;

  // Myers: V[k] is the furthest x on diagonal k after d edits; every V is
  // kept to walk the edit script back.
  std::vector<DiffLine> middle;
  bool truncated = false;
  const int maxD = std::min(an + bn, maxEdits);
  std::vector<std::vector<int>> trace;
  const int offset = maxD + 1;
  std::vector<int> v(2 * static_cast<size_t>(maxD) + 3, 0);
  int found = -1;
  for (int d = 0; d <= maxD && found < 0; ++d) {
    for (int k = -d; k <= d; k += 2) {
      int x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1]
                                                                             : v[offset + k - 1] + 1;
      int y = x - k;
      while (x < an && y < bn && a[pre + x] == b[pre + y]) ++x, ++y;
      v[offset + k] = x;
      if (x >= an && y >= bn) {
        found = d;
        break;
      }
    }
    // Only diagonals -d..d were reached: keep that window (d^2 ints in all).
    trace.emplace_back(v.begin() + (offset - d), v.begin() + (offset + d + 1));
  }
  if (found < 0) {
    truncated = true;
    for (int i = 0; i < an; ++i)
      middle.push_back({DiffLine::Kind::Removed, std::string(a[pre + i]), pre + i + 1, 0});
    for (int j = 0; j < bn; ++j)
      middle.push_back({DiffLine::Kind::Added, std::string(b[pre + j]), 0, pre + j + 1});
  } else {
    std::vector<DiffLine> reversed;
    int x = an, y = bn;
    for (int d = found; d > 0; --d) {
      // Round d-1 reached diagonals -(d-1)..d-1, stored from index 0.
      const std::vector<int>& pv = trace[d - 1];
      auto at = [&](int k) { return pv[static_cast<size_t>(k + d - 1)]; };
      const int k = x - y;
      const bool down = k == -d || (k != d && at(k - 1) < at(k + 1));
      const int pk = down ? k + 1 : k - 1;
      const int px = at(pk), py = px - pk;
      while (x > px + (down ? 0 : 1) && y > py + (down ? 1 : 0)) {
        --x, --y;
        reversed.push_back({DiffLine::Kind::Same, std::string(a[pre + x]), pre + x + 1, pre + y + 1});
      }
      if (down) {
        --y;
        reversed.push_back({DiffLine::Kind::Added, std::string(b[pre + y]), 0, pre + y + 1});
      } else {
        --x;
        reversed.push_back({DiffLine::Kind::Removed, std::string(a[pre + x]), pre + x + 1, 0});
      }
    }
    while (x > 0 && y > 0) {
      --x, --y;
      reversed.push_back({DiffLine::Kind::Same, std::string(a[pre + x]), pre + x + 1, pre + y + 1});
    }
    middle.assign(reversed.rbegin(), reversed.rend());
  }

  // Whole script with the shared prefix and suffix, then cut unchanged runs.
  std::vector<DiffLine> all;
  for (int i = 0; i < pre; ++i) all.push_back({DiffLine::Kind::Same, std::string(a[i]), i + 1, i + 1});
  for (DiffLine& l : middle) all.push_back(std::move(l));
  for (int i = 0; i < suf; ++i)
    all.push_back({DiffLine::Kind::Same, std::string(a[n - suf + i]), n - suf + i + 1, m - suf + i + 1});

  LineDiff out;
  out.truncated = truncated;
  std::vector<char> keep(all.size(), 0);
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].kind == DiffLine::Kind::Same) continue;
    (all[i].kind == DiffLine::Kind::Removed ? out.removed : out.added)++;
    const size_t from = i >= static_cast<size_t>(context) ? i - context : 0;
    const size_t to = std::min(all.size(), i + context + 1);
    for (size_t j = from; j < to; ++j) keep[j] = 1;
  }
  for (size_t i = 0; i < all.size();) {
    if (keep[i]) {
      out.lines.push_back(std::move(all[i]));
      ++i;
      continue;
    }
    size_t j = i;
    while (j < all.size() && !keep[j]) ++j;
    out.lines.push_back({DiffLine::Kind::Skipped,
                         "... " + std::to_string(j - i) + " unchanged line" + (j - i == 1 ? "" : "s") +
                             " ...",
                         0, 0});
    i = j;
  }
  return out;
}

}  // namespace shardscope::api
