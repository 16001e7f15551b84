// Checked writes: a failing device or a missing directory is reported.
#include "io/output_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace shardscope::io {
namespace {

TEST(OutputFile, WritesAndCloses) {
  std::string path = (std::filesystem::temp_directory_path() / "output_file_test.txt").string();
  OutputFile out;
  std::string error;
  ASSERT_TRUE(out.open(path, error)) << error;
  out.stream() << "hello\n";
  ASSERT_TRUE(out.close(error)) << error;
  std::ifstream in(path);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "hello\n");
}

TEST(OutputFile, AFullDeviceFailsAtClose) {
  OutputFile out;
  std::string error;
  ASSERT_TRUE(out.open("/dev/full", error)) << error;
  out.stream() << "a few bytes that stay in the buffer until the end\n";
  EXPECT_FALSE(out.close(error));
  EXPECT_EQ(error, "cannot write '/dev/full': No space left on device");
}

TEST(OutputFile, AMissingDirectoryFailsAtOpen) {
  OutputFile out;
  std::string error;
  EXPECT_FALSE(out.open("/no/such/dir/out.mlir", error));
  EXPECT_EQ(error, "cannot create '/no/such/dir/out.mlir': No such file or directory");
}

}  // namespace
}  // namespace shardscope::io
