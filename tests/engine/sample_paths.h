// The curated samples in sample_models/ (the .mlir files, sorted), for tests
// that run over every one of them:
//   INSTANTIATE_TEST_SUITE_P(Samples, T, ::testing::ValuesIn(samplePaths()), sampleName);
#pragma once
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace shardscope::testing {

inline std::vector<std::string> samplePaths() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(SHARDSCOPE_SOURCE_DIR "/sample_models"))
    if (e.path().extension() == ".mlir") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// The test name of a sample: its file name without `.mlir`.
template <typename Info>
std::string sampleName(const Info& info) {
  return std::filesystem::path(info.param).stem().string();
}

}  // namespace shardscope::testing
