// Text or binary: MLIR text (also with UTF-8 comments) is text; executables,
// archives and MLIR bytecode are not.
#include "io/binary_content.h"

#include <gtest/gtest.h>

namespace shardscope::io {
namespace {

TEST(BinaryContent, TextIsText) {
  EXPECT_EQ(binaryContentProblem(""), std::nullopt);
  EXPECT_EQ(binaryContentProblem("module {}\n"), std::nullopt);
  EXPECT_EQ(binaryContentProblem("// a comment → with ü and 🙂\nmodule {}\n"), std::nullopt);
}

TEST(BinaryContent, ANulByteIsBinary) {
  const std::string elf(
      "\x7f"
      "ELF\x02\x01\x01\0\0\0",
      10);
  const auto why = binaryContentProblem(elf);
  ASSERT_TRUE(why);
  EXPECT_EQ(*why, "is a binary file (a NUL byte at offset 7), not MLIR text");
}

TEST(BinaryContent, BytesThatAreNotUtf8AreBinary) {
  const auto why = binaryContentProblem("module {\xff\xfe}");
  ASSERT_TRUE(why);
  EXPECT_EQ(*why, "is a binary file (byte 0xff at offset 8 is not UTF-8), not MLIR text");
  // A lead byte followed by a non-continuation byte.
  EXPECT_TRUE(binaryContentProblem("a\xc3(b"));
}

TEST(BinaryContent, MlirBytecodeIsNamed) {
  const auto why = binaryContentProblem(std::string("ML\xefR\x06\0\0", 7));
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("MLIR bytecode"), std::string::npos) << *why;
}

TEST(BinaryContent, OnlyTheStartIsProbed) {
  // A character cut by the end of the probe is not an error, nor is what
  // lies past it.
  std::string text(kBinaryProbeBytes - 1, 'x');
  text += "\xc3\xbc";
  text += std::string(10, '\0');
  EXPECT_EQ(binaryContentProblem(text), std::nullopt);
}

}  // namespace
}  // namespace shardscope::io
