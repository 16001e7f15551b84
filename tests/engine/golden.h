// Golden-file comparison for text outputs: `*.expected` files beside the
// inputs, a unified-style line diff on mismatch, and one environment variable
// (SHARDSCOPE_UPDATE_GOLDEN=1) to regenerate them.
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace shardscope::testing {

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::vector<std::string> splitLines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// A compact line diff: the first differing region with a little context.
inline std::string lineDiff(const std::string& expected, const std::string& actual) {
  auto e = splitLines(expected), a = splitLines(actual);
  size_t i = 0;
  while (i < e.size() && i < a.size() && e[i] == a[i]) ++i;
  size_t je = e.size(), ja = a.size();
  while (je > i && ja > i && e[je - 1] == a[ja - 1]) --je, --ja;
  std::ostringstream out;
  out << "@@ line " << (i + 1) << " @@\n";
  for (size_t k = (i >= 2 ? i - 2 : 0); k < i; ++k) out << "  " << e[k] << '\n';
  for (size_t k = i; k < je && k < i + 40; ++k) out << "- " << e[k] << '\n';
  for (size_t k = i; k < ja && k < i + 40; ++k) out << "+ " << a[k] << '\n';
  return out.str();
}

// Compare `actual` with the golden file; rewrite it when asked to.
inline void expectMatchesGolden(const std::string& goldenPath, const std::string& actual) {
  const char* update = std::getenv("SHARDSCOPE_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream(goldenPath, std::ios::binary) << actual;
    return;
  }
  std::ifstream probe(goldenPath);
  ASSERT_TRUE(probe.good()) << "missing golden file " << goldenPath
                            << " (run with SHARDSCOPE_UPDATE_GOLDEN=1 to create it)";
  std::string expected = readFile(goldenPath);
  EXPECT_TRUE(expected == actual) << goldenPath << " differs:\n" << lineDiff(expected, actual);
}

}  // namespace shardscope::testing
