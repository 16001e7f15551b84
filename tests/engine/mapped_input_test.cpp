// Inputs mapped in place: a regular file's bytes as they are, with a '\0'
// after the last one; inputs that cannot be mapped read as readInputFile
// reads them, with its messages.
#include "io/mapped_input.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "io/input_file.h"

namespace shardscope::io {
namespace {

namespace fs = std::filesystem;

std::string tempFile(const std::string& name, const std::string& text) {
  fs::path p = fs::temp_directory_path() / ("mapped_input_test_" + name);
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

TEST(MappedInput, AFileIsMappedWithATerminatorAfterIt) {
  MappedInput input;
  std::string error;
  const std::string text = "module {}\n// end";
  ASSERT_TRUE(input.load(tempFile("a.mlir", text), 1024, error)) << error;
  EXPECT_TRUE(input.mapped());
  EXPECT_EQ(input.text(), text);
  EXPECT_EQ(input.text().data()[text.size()], '\0');
  // Loading again replaces the first file.
  ASSERT_TRUE(input.load(tempFile("b.mlir", "x"), 1024, error)) << error;
  EXPECT_EQ(input.text(), "x");
}

TEST(MappedInput, AWholeNumberOfPagesIsReadInstead) {
  // No room after the last byte in its page for the terminator.
  MappedInput input;
  std::string error;
  ASSERT_TRUE(input.load(tempFile("c.mlir", std::string(4096, 'y')), 1 << 20, error)) << error;
  EXPECT_FALSE(input.mapped());
  EXPECT_EQ(input.text(), std::string(4096, 'y'));
  EXPECT_EQ(input.text().data()[4096], '\0');
}

TEST(MappedInput, EmptyFilesAndErrorsAsReadInputFile) {
  MappedInput input;
  std::string error, expected, text;
  ASSERT_TRUE(input.load(tempFile("empty.mlir", ""), 1024, error)) << error;
  EXPECT_EQ(input.text(), "");
  for (const std::string& path : {std::string("/nonexistent/x.mlir"), fs::temp_directory_path().string(),
                                  std::string("/dev/zero"), tempFile("big.mlir", std::string(65, 'x'))}) {
    error.clear();
    expected.clear();
    EXPECT_FALSE(input.load(path, 64, error)) << path;
    EXPECT_FALSE(readInputFile(path, 64, text, expected)) << path;
    EXPECT_EQ(error, expected);
  }
}

}  // namespace
}  // namespace shardscope::io
