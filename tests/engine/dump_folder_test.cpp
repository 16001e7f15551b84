// A dump folder as a timeline: Shardy's file order, and line diffs between
// neighbours (Myers' shortest edit script with context).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "api/dump_folder.h"

namespace shardscope::api {
namespace {

namespace fs = std::filesystem;

TEST(DumpFolder, ShardysOrder) {
  const fs::path dir = fs::path(::testing::TempDir()) / "shardscope_dump_order";
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const char* name :
       {"03.after_minimal_partitioner_with_global_shapes.mlir", "02.after_propagation.mlir",
        "02.propagation_after_user_priority_10.mlir", "01.before_propagation.mlir",
        "02.propagation_after_user_priority_2.mlir", "notes.txt"})
    std::ofstream(dir / name) << "module {\n}\n";
  std::vector<DumpFile> files;
  std::string error;
  ASSERT_TRUE(listDumpFolder(dir.string(), files, error)) << error;
  std::vector<std::string> names;
  for (const DumpFile& f : files) names.push_back(f.fileName);
  EXPECT_EQ(names, (std::vector<std::string>{"01.before_propagation.mlir",
                                             "02.propagation_after_user_priority_2.mlir",
                                             "02.propagation_after_user_priority_10.mlir",
                                             "02.after_propagation.mlir",
                                             "03.after_minimal_partitioner_with_global_shapes.mlir"}));
  EXPECT_EQ(files[3].index, 2);
  EXPECT_EQ(files[3].stage, "after_propagation");

  fs::remove(dir / "01.before_propagation.mlir");
  for (const DumpFile& f : files) fs::remove(f.path);
  EXPECT_FALSE(listDumpFolder(dir.string(), files, error));
  EXPECT_NE(error.find("no .mlir files"), std::string::npos) << error;
  EXPECT_FALSE(listDumpFolder((dir / "missing").string(), files, error));
  EXPECT_NE(error.find("not a folder"), std::string::npos) << error;
  fs::remove_all(dir);
}

std::string kinds(const LineDiff& d) {
  std::string s;
  for (const DiffLine& l : d.lines)
    s += l.kind == DiffLine::Kind::Same      ? ' '
         : l.kind == DiffLine::Kind::Removed ? '-'
         : l.kind == DiffLine::Kind::Added   ? '+'
                                             : '~';
  return s;
}

TEST(DumpFolder, LineDiffWithContext) {
  std::string before, after;
  for (int i = 0; i < 20; ++i) {
    before += "line " + std::to_string(i) + "\n";
    after += (i == 10 ? "changed 10" : "line " + std::to_string(i)) + "\n";
  }
  after += "new tail\n";
  LineDiff d = diffLines(before, after, 2);
  EXPECT_EQ(d.removed, 1);
  EXPECT_EQ(d.added, 2);
  EXPECT_EQ(kinds(d), "~  -+  ~  +");
  EXPECT_EQ(d.lines[1].text, "line 8");
  EXPECT_EQ(d.lines[1].oldLine, 9);
  EXPECT_EQ(d.lines[3].text, "line 10");
  EXPECT_EQ(d.lines[4].text, "changed 10");
  EXPECT_EQ(d.lines[4].newLine, 11);
  EXPECT_EQ(d.lines[0].text, "... 8 unchanged lines ...");
}

TEST(DumpFolder, ShortestEditScript) {
  // a b c a b b a -> c b a b a c (Myers' example): 5 edits.
  auto joined = [](const char* s) {
    std::string out;
    for (const char* p = s; *p; ++p) out += std::string(1, *p) + "\n";
    return out;
  };
  LineDiff d = diffLines(joined("abcabba"), joined("cbabac"), 10);
  EXPECT_EQ(d.removed + d.added, 5);
  std::string rebuilt;
  for (const DiffLine& l : d.lines)
    if (l.kind != DiffLine::Kind::Removed) rebuilt += l.text;
  EXPECT_EQ(rebuilt, "cbabac");
  EXPECT_FALSE(d.truncated);
  LineDiff same = diffLines("x\ny\n", "x\ny\n");
  EXPECT_EQ(same.removed + same.added, 0);
  LineDiff capped = diffLines(joined("abcdefgh"), joined("ijklmnop"), 1, 3);
  EXPECT_TRUE(capped.truncated);
  EXPECT_EQ(capped.removed, 8);
  EXPECT_EQ(capped.added, 8);
}

}  // namespace
}  // namespace shardscope::api
