// Bounded reads: files and streams up to the limit, clear refusals beyond.
#include "io/input_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace shardscope::io {
namespace {

namespace fs = std::filesystem;

std::string tempFile(const std::string& name, const std::string& text) {
  fs::path p = fs::temp_directory_path() / ("input_file_test_" + name);
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

TEST(InputFile, ReadsAWholeFile) {
  std::string text, error;
  ASSERT_TRUE(readInputFile(tempFile("a.mlir", "module {}\n"), 1024, text, error)) << error;
  EXPECT_EQ(text, "module {}\n");
}

TEST(InputFile, AFileExactlyAtTheLimitIsRead) {
  std::string text, error;
  EXPECT_TRUE(readInputFile(tempFile("b.mlir", std::string(64, 'x')), 64, text, error)) << error;
  EXPECT_EQ(text.size(), 64u);
  EXPECT_FALSE(readInputFile(tempFile("c.mlir", std::string(65, 'x')), 64, text, error));
  EXPECT_NE(error.find(": larger than the input limit of 64 bytes"), std::string::npos) << error;
  EXPECT_TRUE(text.empty());
}

TEST(InputFile, RefusesDirectoriesAndDevices) {
  std::string text, error;
  EXPECT_FALSE(readInputFile(fs::temp_directory_path().string(), 1024, text, error));
  EXPECT_NE(error.find(": is a directory, not a file"), std::string::npos) << error;
  EXPECT_FALSE(readInputFile("/dev/zero", 1024, text, error));
  EXPECT_EQ(error, "/dev/zero: is a device, not a file");
  EXPECT_FALSE(readInputFile("/no/such/file.mlir", 1024, text, error));
  EXPECT_EQ(error, "/no/such/file.mlir: cannot open file: No such file or directory");
}

TEST(InputFile, ProcFilesWithoutASizeAreStillRead) {
  std::string text, error;
  ASSERT_TRUE(readInputFile("/proc/self/status", 1 << 20, text, error)) << error;
  EXPECT_NE(text.find("Name:"), std::string::npos);
}

TEST(InputFile, ByteCounts) {
  EXPECT_EQ(describeByteCount(17), "17 bytes");
  EXPECT_EQ(describeByteCount(uint64_t{256} << 20), "256 MiB");
  EXPECT_EQ(describeByteCount(3 * 1024), "3 KiB");
  EXPECT_EQ(describeByteCount(1536), "1.5 KiB");
}

}  // namespace
}  // namespace shardscope::io
