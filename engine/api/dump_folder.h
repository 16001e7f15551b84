// A folder of module dumps (Shardy's `module-dump-directory`, XLA's
// `shardy/` dump folder, or any folder of .mlir files) as a timeline: its
// files in the order they were written, and what changed between two
// neighbours as a line diff. No Qt; the GUI's dump-folder view shows it.
//
// Example: 01.before_propagation.mlir, 02.propagation_after_user_priority_0.mlir,
// 02.after_propagation.mlir, 03.after_minimal_partitioner_with_global_shapes.mlir:
// ordered by their NN prefix, and within one NN the user-priority dumps
// (written during propagation) first, by priority.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace shardscope::api {

struct DumpFile {
  std::string path;
  std::string fileName;
  int index = -1;     // the NN prefix, -1 when the name has none
  std::string stage;  // the name without NN and ".mlir": "after_propagation"
  int64_t bytes = 0;
};

// The .mlir files of `directory` in timeline order; false with `error`
// when the folder cannot be read or holds no .mlir file.
bool listDumpFolder(const std::string& directory, std::vector<DumpFile>& out, std::string& error);

// One line of a diff.
struct DiffLine {
  enum class Kind { Same, Removed, Added, Skipped } kind = Kind::Same;
  std::string text;   // Skipped: "... N unchanged lines ..."
  int oldLine = 0;    // 1-based, 0 for Added/Skipped
  int newLine = 0;    // 1-based, 0 for Removed/Skipped
};

struct LineDiff {
  std::vector<DiffLine> lines;  // with `context` unchanged lines around changes
  int removed = 0;
  int added = 0;
  bool truncated = false;  // more than `maxEdits` changes: shown as one block
};

// The lines of `after` against `before` (Myers' shortest edit script),
// unchanged runs cut to `context` lines on each side of a change.
LineDiff diffLines(const std::string& before, const std::string& after, int context = 3,
                   int maxEdits = 2000);

}  // namespace shardscope::api
